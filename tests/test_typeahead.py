"""Type-ahead: a burst of keys (a fast typist, a paste, keys bunched by SSH) is handled in order,
each key on the screen the one before it opened. The bursts are posted without waiting, as they
arrive in one read from the terminal."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from textual import events
from textual.widgets import Input

from studio.screens.dialogs import NewProjectDialog
from studio.screens.home import HomeScreen
from studio.storage import load_project
from studio.widgets.save import ChoiceDialog
from tests.ui_helpers import SIZE, studio_app, wait_until


def burst(app, *keys: str) -> None:
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))



async def project_opened(pilot, name: str) -> None:
    """Wait until the project just made is open (a new project opens at once) and settled:
    ending the app while its screen still mounts raced Textual's header."""
    await wait_until(pilot, lambda: getattr(pilot.app.screen, "document", None) is not None
                     and pilot.app.screen.document.name == name, f"{name!r} did not open")
    await pilot.pause()

async def test_a_name_typed_right_after_n_goes_into_the_new_project_dialog(games: Path) -> None:
    app = studio_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # "q" and "t" are app keys: before, they reached the home screen (quit, next theme)
        # while the dialog was on its way, and the name field got none of the burst.
        burst(app, "n", *"quiet tower", "enter")
        await wait_until(pilot, lambda: (games / "quiet-tower.toml").exists(),
                         "no project was made")
        await project_opened(pilot, "quiet tower")
        assert app.theme_name == "dark" and app.is_running
    assert load_project(games / "quiet-tower.toml").kind == "tilecode"


async def test_a_screen_slow_to_open_still_gets_the_keys_typed_after_it(
        games: Path, monkeypatch) -> None:
    # The wait had a clock: with the event loop held up longer (a slow mount, a garbage
    # collection on a loaded machine) the rest of the burst went to the home screen, whose
    # "q" quit the studio.
    opened = NewProjectDialog.on_mount

    def slow_mount(dialog) -> None:
        time.sleep(0.8)  # the loop is held: no timer fires meanwhile
        opened(dialog)

    monkeypatch.setattr(NewProjectDialog, "on_mount", slow_mount)
    app = studio_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "n", *"quiet", "enter")
        await wait_until(pilot, lambda: (games / "quiet.toml").exists(), "no project was made")
        await project_opened(pilot, "quiet")
        assert app.is_running


async def test_keys_after_a_key_that_opens_a_screen_wait_for_its_focus(games: Path) -> None:
    app = studio_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "n", "x", "y")
        await wait_until(pilot, lambda: isinstance(app.screen, NewProjectDialog)
                         and app.screen.query_one("#name", Input).value == "xy",
                         "the keys after n did not reach the name field")


async def test_keys_typed_one_at_a_time_never_wait(games: Path) -> None:
    app = studio_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        for key in "abc":
            await pilot.press(key)
            assert not app._held and app._in_flight is None
        assert app.screen.query_one("#name", Input).value == "abc"


async def test_arrows_typed_in_a_burst_each_move_the_kind_once(games: Path) -> None:
    # "down down enter" at once chose the second kind: the radio set had not caught up with
    # the first down when the second read it.
    app = studio_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        burst(app, *"Race Two", "down", "down", "enter")
        await wait_until(pilot, lambda: (games / "race-two.toml").exists(), "no project made")
        await project_opened(pilot, "Race Two")
    assert load_project(games / "race-two.toml").kind == "haunted"


async def test_a_key_after_a_question_a_flow_asks_is_not_held(games: Path) -> None:
    # Quitting with unsaved changes asks from a worker that then waits for the answer. The key
    # that started it used to count that worker as a flow still under way, so the answer
    # typed next was held until the half-second limit: over SSH a lag, in tests a lost key.
    app = studio_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.screen.selected.name != "Boulder Sketch":  # a TileCode game
            await pilot.press("down")
        await pilot.press("enter")
        document = app.screen.document
        document.edit("slower", replace(document.model, round_ms=300))
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceDialog), "nothing asked")
        assert not app._waiting(), "the next key would wait for the question's own flow"
        await pilot.press("c")
        assert not isinstance(app.screen, ChoiceDialog) and app.is_running
