"""Game home and the shared save path: opening screens, saving, unsaved changes, stale files."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Input

from studio.screens.tilecode.home import GameHomeScreen
from studio.storage import load_project
from studio.storage.tilecode.kind import project_to_game
from studio.widgets.save import ChoiceDialog
from tests.tilecode_ui.helpers import app_on
from tests.ui_helpers import palette_ready

SCREENS = {"m": "MapEditorScreen", "p": "PaintEditorScreen", "c": "RuleSelectorScreen",
           "g": "PlayScreen", "comma": "SettingsScreen"}


async def test_a_tilecode_project_opens_its_game_home(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, GameHomeScreen)
        text = app.screen.query_one("#home").text
        assert "m Map" in text and "g Play" in text and "s0 @ player" in text
        assert "4 rules (press 1, change 0, smash 2, never 1)" in text
        for key, name in SCREENS.items():
            await pilot.press(key)
            assert type(app.screen).__name__ == name, key
            await pilot.press("escape")
            assert isinstance(app.screen, GameHomeScreen)


async def test_play_is_refused_while_there_are_no_rules(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        assert isinstance(app.screen, GameHomeScreen)
        assert "No rules yet" in app.screen.query_one("#home").text
        # g is dimmed, "(not now)" in the help, and pressed it still says why.
        assert app.screen.check_action("open", ("play",)) is None
        assert any("Play needs at least one rule" in n.message for n in app._notifications)
        from studio.screens.help import binding_rows

        assert ("g f5", "Play (not now)") in binding_rows(app.screen)


async def test_ctrl_s_saves_byte_for_byte_and_reopens_equal(tc_folder: Path) -> None:
    path = tc_folder / "hello-world.toml"
    before = path.read_bytes()
    app = app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert path.read_bytes() == before  # canonical: an unchanged game saves identically
        document = app.screen.document
        document.edit("rename", replace(document.model, round_ms=200))
        assert document.dirty and "unsaved" in app.screen.sub_title
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not document.dirty and "unsaved" not in app.screen.sub_title
        assert project_to_game(load_project(path)) == document.model
        assert path.with_name("hello-world.toml.bak").read_bytes() == before


@pytest.mark.parametrize(("answer", "left", "saved"), [("d", True, False), ("c", False, False),
                                                       ("s", True, True)])
async def test_leaving_with_unsaved_changes_asks(tc_folder: Path, answer: str, left: bool,
                                                 saved: bool) -> None:
    path = tc_folder / "hello-world.toml"
    app = app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        document = app.screen.document
        document.edit("slower", replace(document.model, round_ms=300))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press(answer)
        await pilot.pause()
        assert isinstance(app.screen, GameHomeScreen) is not left
        assert ("round_ms = 300" in path.read_text(encoding="utf-8")) is saved


async def test_quitting_with_unsaved_changes_asks_and_cancel_keeps_running(
        tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        document = app.screen.document
        document.edit("slower", replace(document.model, round_ms=300))
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, GameHomeScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert not app.is_running


async def test_a_file_changed_on_disk_is_not_overwritten(tc_folder: Path) -> None:
    path = tc_folder / "hello-world.toml"
    app = app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        document = app.screen.document
        mine = replace(document.model, round_ms=300)
        document.edit("slower", mine)
        theirs = path.read_text(encoding="utf-8").replace("round_ms = 150", "round_ms = 90")
        path.write_text(theirs, encoding="utf-8")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog) and "Changed on disk" in app.screen._title
        assert path.read_text(encoding="utf-8") == theirs
        await pilot.press("r")  # reload: theirs now, mine one undo away
        await pilot.pause()
        assert document.model.round_ms == 90 and not document.dirty
        await pilot.press("ctrl+z")
        assert document.model == mine
        await pilot.press("ctrl+s")  # the reloaded file is the one on disk: no question now
        await pilot.pause()
        assert "round_ms = 300" in path.read_text(encoding="utf-8")


async def test_overwrite_and_save_as_from_the_stale_question(tc_folder: Path) -> None:
    path = tc_folder / "hello-world.toml"
    app = app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        document = app.screen.document
        document.edit("slower", replace(document.model, round_ms=300))
        path.unlink()  # another session renamed or deleted it
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog) and "gone" in app.screen._title
        await pilot.press("a")  # save as…
        await pilot.pause()
        field = app.screen.query_one(Input)
        suggested = field.value
        assert suggested == "Hello World (2)"
        # A new project, named: the copy kept its original's name (two rows alike at home).
        field.value = "blank"  # another project's name
        await pilot.press("enter")
        assert "already a project called" in str(app.screen.query_one("#problem").render())
        field.value = suggested
        await pilot.press("enter")
        await pilot.pause()
        copy = tc_folder / "hello-world-2.toml"
        assert copy.exists() and document.path == copy and not document.dirty
        saved = load_project(copy)
        assert saved.name == "Hello World (2)" and project_to_game(saved).round_ms == 300
        document.undo()
        assert document.name == "Hello World (2)"


async def test_a_failed_save_keeps_the_file_and_the_edits(tc_folder: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import studio.storage.project as project_module

    path = tc_folder / "hello-world.toml"
    before = path.read_bytes()

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(project_module, "atomic_write", full_disk)
    app = app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        document = app.screen.document
        document.edit("slower", replace(document.model, round_ms=300))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert type(app.screen).__name__ == "ErrorDialog"
        assert "No space left" in app.screen.error.message
        assert path.read_bytes() == before
        assert document.dirty and document.model.round_ms == 300


async def test_the_command_palette_offers_the_screens_actions(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p", *"Map editor")
        await palette_ready(pilot, "Map editor")
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "MapEditorScreen"
        await pilot.press("ctrl+p", *"Flood fill")
        await palette_ready(pilot, "Flood fill")
        await pilot.press("enter")
        await pilot.pause()
        assert any("Flood fill paints backgrounds" in n.message for n in app._notifications)
