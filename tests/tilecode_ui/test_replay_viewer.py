"""Saved TileCode runs: listed on the home screen, opened in the replay viewer, stepped, verified
against the project (and said to differ when it changed), the camera on the player, the bar one
height from the first round to the last."""

from __future__ import annotations

from pathlib import Path

from studio import cli
from studio.engines.tilecode.state import dump_state
from studio.screens.tilecode.replay_viewer import ReplayScreen
from studio.storage.tilecode.replay import load_replay
from tests.tilecode_ui.helpers import app_on, one_round, start_paused


async def test_a_saved_replay_opens_in_the_viewer_and_verifies(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_paused(pilot, app)
        for keys in (("right",), ("down",), ("down",), ("right",)):
            await one_round(pilot, screen, *keys)
        final = dump_state(screen.session.state)
        await pilot.press("ctrl+s")
        replay_path = tc_folder / "hello-world.tcreplay.toml"
        replay = load_replay(replay_path)
        assert replay.seed == screen.session.seed and replay.rounds == screen.session.state.round
        await pilot.press("escape", "escape")  # leave play, leave the game
        app.open_project_file(replay_path)
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        await pilot.press("end")
        assert dump_state(viewer.run.state_at(viewer.position)) == final
        await pilot.press("left", "left")
        assert viewer.position == replay.rounds - 2
        await pilot.press("v")
        assert viewer.run.verify().ok
        await pilot.press("g")
        await pilot.pause()
        app.screen.query_one("Input").value = "999"
        await pilot.press("enter")
        await pilot.pause()
        assert viewer.position == viewer.run.last
        assert any("there is no round 999" in n.message for n in app._notifications)
    assert cli.main(["run", str(tc_folder / "hello-world.toml"), "--inputs",
                     str(replay_path)]) == 0


async def test_replays_are_listed_on_the_home_screen(tc_folder: Path) -> None:
    from tests.ui_helpers import studio_app

    assert cli.main(["run", str(tc_folder / "hello-world.toml"), "--inputs", "right down",
                     "--save-replay", str(tc_folder / "hello-world.tcreplay.toml")]) == 0
    app = studio_app(tc_folder)
    async with app.run_test(size=(100, 30)) as pilot:
        home = app.screen
        names = [entry.name for entry in home.entries]
        assert "hello-world (replay)" in names
        row = names.index("hello-world (replay)")
        home.query_one("DataTable").move_cursor(row=row)
        await pilot.press("enter")
        assert isinstance(app.screen, ReplayScreen)


async def test_the_replay_viewer_follows_the_player_with_the_debug_panel_open(
        tc_folder: Path) -> None:
    from studio.screens.tilecode.debug_panel import player_position
    from studio.widgets.board import Board

    replay = tc_folder / "boulder-dash.tcreplay.toml"
    assert cli.main(["run", str(tc_folder / "boulder-dash.toml"), "--inputs", " ".join(
        ["down"] * 3 + ["right"] * 12), "--save-replay", str(replay)]) == 0
    app = app_on(replay)
    async with app.run_test(size=(64, 24)) as pilot:
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        await pilot.press("tab")  # the panel narrows the board: the map no longer fits
        await pilot.pause()
        board = viewer.query_one(Board)
        cols, _rows = board.full_cells
        assert cols < board.renderer.width
        start = player_position(viewer.game, viewer.run.state_at(viewer.position))
        await pilot.press("end")
        await pilot.pause()
        x, _y = player_position(viewer.game, viewer.run.state_at(viewer.position))
        assert x >= start[0] + 8, "the replay should walk the player right"
        assert board._camera[0] <= x < board._camera[0] + cols


async def test_a_replay_of_a_changed_project_says_so_in_its_bar(tc_folder: Path) -> None:
    # The warning was a toast that faded: nothing left on screen said why a run went otherwise.
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_paused(pilot, app)
        await one_round(pilot, screen, "right")
        await pilot.press("ctrl+s")
        await pilot.press("escape", "escape")
        project = tc_folder / "hello-world.toml"
        project.write_text(project.read_text().replace('name = "brick"', 'name = "stone"'))
        app.open_project_file(tc_folder / "hello-world.tcreplay.toml")
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.changed
        assert "the project changed since: v verifies" in viewer.query_one("#bar").text
        # Verified (a renamed tile changes nothing), the bar no longer asks for it.
        await pilot.press("v")
        await pilot.pause()
        bar = viewer.query_one("#bar").text
        assert "v verifies" not in bar and "plays back the same (verified)" in bar


async def test_the_replay_bar_keeps_its_height_from_the_first_round_to_the_last(
        tc_folder: Path) -> None:
    """At 80 columns the seed moved to a line of its own at round 10: the board jumped a row."""
    from studio.widgets.lines import LinesView

    replay = tc_folder / "boulder-dash.tcreplay.toml"
    assert cli.main(["run", str(tc_folder / "boulder-dash.toml"), "--inputs", " ".join(
        ["down"] * 3 + ["right"] * 12), "--seed", "9000000000000000001",
        "--save-replay", str(replay)]) == 0
    app = app_on(replay)
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        bar = viewer.query_one("#bar", LinesView)
        heights = set()
        for _ in range(viewer.run.last + 1):
            await pilot.pause()
            heights.add(len(bar.text.splitlines()))
            await pilot.press("right")
        assert viewer.position == viewer.run.last >= 10 and len(heights) == 1
