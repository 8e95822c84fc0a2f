"""A snapshot of every TileCode screen state a user sees (fixed sizes, seeds and file times)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.screens.tilecode.play import PlayScreen
from tests.tilecode_ui.helpers import app_on
from tests.ui_helpers import wait_until

SIZE = (100, 30)
SMALL = (80, 24)


def keys(*pressed: str):
    async def run(pilot) -> None:
        await pilot.press(*pressed)
        await pilot.pause()

    return run


@pytest.mark.parametrize(("size", "theme"), [(SIZE, None), (SMALL, None), (SMALL, "ansi"),
                                             (SIZE, "light"), ((60, 20), None)])
def test_game_home(snap_compare, tc_folder: Path, size, theme) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml", theme), terminal_size=size)


def test_game_home_with_problems(snap_compare, tc_folder: Path) -> None:
    path = tc_folder / "hello-world.toml"
    text = path.read_text(encoding="utf-8").replace('do = ["move right"]', 'do = ["move stop"]')
    path.write_text(text, encoding="utf-8")
    assert snap_compare(app_on(path), terminal_size=SMALL)


@pytest.mark.parametrize("size", [SIZE, SMALL])
def test_rule_selector(snap_compare, tc_folder: Path, size) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=size,
                        run_before=keys("c", "right", "right", "right", "right"))


RULE = ("c", "right", "right", "right", "right", "enter")
"""Boulder Dash: the player's press-right rule."""


@pytest.mark.parametrize(("name", "more"), [
    ("editor", ()),
    ("attribute_menu", ("right", "enter")),
    ("direction_menu", ("right", "right", "right", "enter")),
    ("command_verbs", ("right", "right", "right", "right", "right", "enter")),
    ("command_args", ("right", "right", "right", "right", "enter")),
    ("top_row", ("escape",)),
    ("button_menu", ("left", "left", "enter")),
])
def test_rule_editor(snap_compare, tc_folder: Path, name: str, more) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=keys(*RULE, *more))


def test_rule_editor_at_120_columns_names_the_kinds_its_commands_act_on(
        snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=(120, 40),
                        run_before=keys(*RULE))


def test_rule_editor_with_an_invalid_rule(snap_compare, tc_folder: Path) -> None:
    # The centre loses its sprite under a move: kept, and the problem named.
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=keys(*RULE, "enter", "5", "escape"))


def test_generalise_with_a_duplicate_view(snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "blank.toml"), terminal_size=SMALL,
                        run_before=keys("c", "right", "right", "right", "right", "enter", "g",
                                        "down", "right", "right"))


@pytest.mark.parametrize("mode", ["glyph", "art"])
def test_map_editor(snap_compare, tc_folder: Path, mode: str) -> None:
    more = ("v",) if mode == "art" else ()
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=keys("m", "down", "right", "right", *more))


def test_paint_editor(snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=keys("p"))


def test_paint_gallery(snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=keys("p", "g", "down", "down"))


def test_settings(snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=keys("comma"))


def test_kind_dialog(snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=keys("down", "e"))


def play(seed: int = 5, debug: bool = False, rounds: tuple[str, ...] = ("right", "down")):
    async def run(pilot) -> None:
        app = pilot.app
        screen = PlayScreen(app.screen.document, seed=seed, paused=True)
        await app.push_screen(screen)
        for key in rounds:
            await pilot.press(key, "n")
            while screen.busy:
                await pilot.pause(0.01)
        if debug:
            await pilot.press("tab")
        await pilot.pause()

    return run


@pytest.mark.parametrize(("size", "debug"), [(SIZE, False), (SMALL, True), (SIZE, True)])
def test_play(snap_compare, tc_folder: Path, size, debug: bool) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=size,
                        run_before=play(debug=debug))


def test_play_at_round_12_with_a_long_name_and_seed(snap_compare, tc_folder: Path) -> None:
    """80×24: the bar keeps two lines from round 0 (no jump at round 10), the name is cut."""
    path = tc_folder / "boulder-dash.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name = "Boulder Dash"', 'name = "Boulder Dash: '
                                 'the Long Lost Caverns of the Crystal Kings"', 1),
                    encoding="utf-8")
    rounds = ("right", "down", "down", "left", "right", "up", "down", "left", "right", "down",
              "down", "right")
    assert snap_compare(app_on(path), terminal_size=SMALL,
                        run_before=play(seed=9_000_000_000_000_000_001, rounds=rounds))


def test_play_in_art_mode(snap_compare, tc_folder: Path) -> None:
    path = tc_folder / "hello-world.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("high_score = 0",
                                                             'high_score = 0\nrender = "art"'),
                    encoding="utf-8")
    assert snap_compare(app_on(path), terminal_size=SIZE, run_before=play())


def test_game_over(snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "hello-world.toml"), terminal_size=SMALL,
                        run_before=play(rounds=("right", "up")))


def test_replay_viewer(snap_compare, tc_folder: Path) -> None:
    from studio import cli

    replay = tc_folder / "hello-world.tcreplay.toml"
    assert cli.main(["run", str(tc_folder / "hello-world.toml"), "--seed", "3", "--inputs",
                     "right down down right", "--save-replay", str(replay)]) == 0
    assert snap_compare(app_on(replay), terminal_size=SMALL, run_before=keys("right", "right"))


def test_unsaved_changes_dialog(snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=keys("m", "space", "escape", "escape"))


def test_stale_file_dialog(snap_compare, tc_folder: Path) -> None:
    path = tc_folder / "boulder-dash.toml"

    async def run(pilot) -> None:
        await pilot.press("m", "space")
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        await pilot.press("ctrl+s")
        await pilot.pause()

    assert snap_compare(app_on(path), terminal_size=SMALL, run_before=run)


def test_crop_confirmation(snap_compare, tc_folder: Path) -> None:
    async def run(pilot) -> None:
        await pilot.press("comma")
        pilot.app.screen.query_one("#width").value = "9"
        apply = pilot.app.screen.query_one("#apply")
        # Pressed, not clicked: the mouse left over the button drew it hovered or not, behind
        # the dialog, as a loaded machine took the frame sooner or later (CI, twice).
        apply.press()
        # A pressed button shows as pressed for 0.2 s (Textual's -active).
        await wait_until(pilot, lambda: not apply.has_class("-active"), "the press stayed shown")
        await pilot.pause()

    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SMALL,
                        run_before=run)


def test_help_on_the_rule_editor(snap_compare, tc_folder: Path) -> None:
    assert snap_compare(app_on(tc_folder / "boulder-dash.toml"), terminal_size=SIZE,
                        run_before=keys(*RULE, "question_mark"))


