"""Play, the debug panel, game over, high scores and saving a run: the UI and the headless engine
agree. Watching a saved run again is ``test_replay_viewer.py``'s."""

from __future__ import annotations

import json
from pathlib import Path

from studio import cli
from studio.engines.tilecode.state import dump_state
from studio.screens.help import HelpScreen
from studio.screens.tilecode.game_over import GameOverDialog
from studio.screens.tilecode.play import PlayScreen
from studio.storage.tilecode.replay import load_replay
from tests.tilecode_ui.helpers import app_on, one_round, start_paused
from tests.ui_helpers import wait_until


async def test_keys_in_the_ui_and_studio_run_give_the_same_states(tc_folder: Path,
                                                                  capsys) -> None:
    path = tc_folder / "boulder-dash.toml"
    app = app_on(path)
    seen: dict[int, str] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        session = screen.session
        for keys in (("right",), (), ("down",), ("down", "left"), ("space",), ("right",), (),
                     ("up",), ("left",), ()):
            await one_round(pilot, screen, *keys)
            seen[session.state.round] = dump_state(session.state)
        inputs, seed = session.inputs, session.seed
    tokens = " ".join("+".join(b) or "-" for b in inputs[1:])
    assert cli.main(["run", str(path), "--seed", str(seed), "--inputs", tokens, "--json",
                     "--every"]) == 0
    records = json.loads(capsys.readouterr().out)["every"]
    assert len(records) == len(inputs) and len(seen) == 10
    for record in records:
        if record["round"] in seen:
            dump = seen[record["round"]]
            assert dump.splitlines()[0].startswith(f"round {record['round']} state "
                                                   f"{record['status']} score {record['score']}")
            assert dump.splitlines()[2:2 + len(record["background"])] == record["background"]
            sprites = dump.split("sprites\n")[1].splitlines()
            assert sprites == [f"{i} s{k} {x} {y} {d}" for i, k, x, y, d in record["sprites"]]


async def test_pause_step_speed_and_restart(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        seed = screen.session.seed
        start = screen.session.state.round
        await one_round(pilot, screen, "right")
        assert screen.session.state.round == start + 1
        assert f"Seed {seed}" in screen.query_one("#bar").text
        period = screen.period
        await pilot.press("plus")
        assert screen.period < period and screen.timer is None  # still paused: no timer
        await pilot.press("r")
        assert screen.session.seed == seed and screen.session.state.round == 1
        await pilot.press("R")
        assert screen.session.state.round == 1
        await pilot.press("p")
        assert screen.timer is not None
        await pilot.press("p")
        assert screen.timer is None


async def test_the_debug_panel_explains_the_player_on_a_known_round(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_paused(pilot, app)
        screen.action_restart()  # back to round 1 whatever the timer did before the pause
        await one_round(pilot, screen, "right")
        await pilot.press("tab")
        panel = screen.query_one("#debug")
        assert panel.display and screen.inspect == (3, 5)
        text = panel.text
        assert "player" in text and "rule 0 (press right" in text
        assert "moved right from (2,5) to (3,5)" in text.replace("\n  ", " ")
        await pilot.press("shift+left")  # the tile it left still explains it (before the round)
        assert screen.inspect == (2, 5) and "player at (2,5), resting" in panel.text
        await pilot.press("shift+up")  # grass with nothing on it, before or after
        assert "no sprite here" in panel.text.replace("\n  ", " ")
        await pilot.press("tab")
        assert not panel.display


async def test_game_over_dialog_then_restart(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        screen.action_restart()
        await one_round(pilot, screen, "right")  # (3,5)
        await one_round(pilot, screen, "up")  # into the snake at (3,4): game lose
        await pilot.pause()
        assert screen.session.state.status == "lost"
        assert isinstance(app.screen, GameOverDialog) and app.screen.status == "lost"
        await pilot.press("up", "left")  # still held from playing: the result stays up
        assert isinstance(app.screen, GameOverDialog)
        await pilot.press("x", "k", "question_mark")  # stray keys left play, the run unsaved
        assert isinstance(app.screen, GameOverDialog)
        await pilot.press("r")
        assert app.screen is screen and screen.session.state.round == 1


async def test_ctrl_s_at_game_over_saves_the_replay_as_in_play(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        screen.action_restart()
        await one_round(pilot, screen, "right")
        await one_round(pilot, screen, "up")  # game lost
        await pilot.pause()
        assert isinstance(app.screen, GameOverDialog)
        await pilot.press("ctrl+s")  # it left play, and the run could no longer be saved
        await pilot.pause()
        assert isinstance(app.screen, GameOverDialog)  # shown again after saving, as after s
        assert app.screen_stack[-2] is screen
    assert load_replay(tc_folder / "hello-world.tcreplay.toml").result == "lost"


async def test_with_the_debug_panel_open_the_camera_still_shows_the_player(
        tc_folder: Path) -> None:
    from studio.screens.tilecode.debug_panel import player_position
    from studio.widgets.board import Board

    app = app_on(tc_folder / "boulder-dash.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        await pilot.press("tab")  # the panel takes room beside the board
        await pilot.pause()
        board = screen.query_one(Board)
        cols, _rows = board.full_cells
        # The 18 columns fit in the 20 left: all of them show (the camera that centred the
        # map in the whole width showed 9, the player walking off the edge).
        assert board._camera[0] <= 0 and board._camera[0] + cols >= board.renderer.width
        for _ in range(10):
            await one_round(pilot, screen, "right")
        await pilot.pause()
        x, _y = player_position(screen.game, screen.session.state)
        assert x > 1 and board._camera[0] <= x < board._camera[0] + cols


async def test_quitting_mid_run_offers_to_save_a_new_high_score(tc_folder: Path) -> None:
    # ctrl+q quit at once (nothing unsaved yet) and the run's high score was gone.
    from dataclasses import replace

    from studio.storage import load_project
    from studio.storage.tilecode.kind import project_to_game

    path = tc_folder / "hello-world.toml"
    app = app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        screen.session._state = replace(screen.session.state, score=12)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.is_running  # the save question
        await pilot.press("s")
        await wait_until(pilot, lambda: not app.is_running, "the studio did not quit")
    assert project_to_game(load_project(path)).high_score == 12


async def test_a_high_score_is_kept_when_play_is_left_or_restarted(tc_folder: Path) -> None:
    from dataclasses import replace

    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        home = app.screen_stack[-2]
        session = screen.session
        await pilot.press("ctrl+s")  # a replay of the saved game: no warning
        assert not any("unsaved" in n.message for n in app._notifications)
        session._state = replace(session.state, score=7)  # a run scoring, not over
        screen.action_restart()
        assert screen.game.high_score == 7  # restarting does not throw the score away
        session._state = replace(session.state, score=9)
        await pilot.press("escape")  # nor does leaving (the README promised it)
        await pilot.pause()
        assert app.screen is home and home.game.high_score == 9
        await pilot.press("ctrl+z")
        assert home.game.high_score == 7  # each an undoable edit
        await pilot.press("g")
        await wait_until(pilot, lambda: not app.screen.busy, "the first round did not end")
        await pilot.press("ctrl+s")  # unsaved, but only its high score differs from the file,
        await pilot.pause()  # which replays do not count: no warning
        assert home.document.dirty
        assert not any("unsaved changes" in n.message for n in app._notifications)


async def test_play_without_a_player_sprite_says_the_keys_move_nothing(tc_folder: Path) -> None:
    # With the player taken off the map, play ran with nothing to control, without a word.
    from dataclasses import replace

    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        assert not any("move nothing" in n.message for n in app._notifications)
        await pilot.press("escape")
        document = app.screen.document
        game = document.model
        sprites = tuple(s for s in game.map.sprites if s.kind != game.player_kind)
        document.edit("no player", replace(game, map=replace(game.map, sprites=sprites)))
        await pilot.pause()
        # The game home said "the game can be played" with nobody to move: it says so first.
        shown = app.screen.query_one("#home").text
        assert "the game can be played" not in shown
        assert "No problems, but: No player (the player's kind) is on the map" in shown
        await pilot.press("g")
        await pilot.pause()
        assert any("the buttons move nothing" in n.message and "(escape, then m)" in n.message
                   for n in app._notifications)


async def test_play_waits_under_help_and_shows_a_game_over_when_back_on_top(
        tc_folder: Path) -> None:
    # The game ran on under help; when it ended there, escape closed the game-over dialog
    # over help and play's own 'leave' then crashed the studio (it was not the top screen).
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        screen.action_restart()
        await pilot.press("p")  # running again
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen) and screen.timer is None
        rounds = screen.session.state.round
        await pilot.pause(3 * screen.period / 1000)
        assert screen.session.state.round == rounds, "rounds ran under help"
        await pilot.press("escape")
        assert app.screen is screen and screen.timer is not None and not screen.paused
        await pilot.press("p")
        await wait_until(pilot, lambda: not screen.busy, "the round in progress did not end")
        screen.action_restart()
        await one_round(pilot, screen, "right")
        await pilot.press("up", "question_mark")
        screen.run_round()  # a round in flight ends the game while help is up
        await wait_until(pilot, lambda: not screen.busy, "the losing round did not end")
        assert screen.session.state.status == "lost" and isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, GameOverDialog) and app.screen.status == "lost"
        await pilot.press("escape")
        assert app.is_running and not isinstance(app.screen, (PlayScreen, GameOverDialog))


async def test_the_play_bar_keeps_its_height_as_the_rounds_grow_at_80_columns(
        tc_folder: Path) -> None:
    app = app_on(tc_folder / "boulder-dash.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = PlayScreen(app.screen.document, seed=9_000_000_000_000_000_001, paused=True)
        await app.push_screen(screen)
        await pilot.pause()
        bar = screen.query_one("#bar")
        heights, board_tops = set(), set()
        for _ in range(12):  # round 10 made the bar wrap and the board jump a row
            await one_round(pilot, screen)
            await pilot.pause()
            heights.add(bar.size.height)
            board_tops.add(screen.board.region.y)
            assert all(len(line) <= 78 for line in bar.text.splitlines())
        assert screen.session.state.round >= 12
        assert len(heights) == 1 and len(board_tops) == 1
        assert f"Round {screen.session.state.round}" in bar.text and "Seed 9000000000000000001" in bar.text
