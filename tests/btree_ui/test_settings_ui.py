"""The btree settings screen: reached from the tree editor and from play, undoable."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static
from textual.widgets._footer import FooterKey

from studio.screens.btree.editor import TreeEditorScreen
from studio.screens.btree.play import BtreePlayScreen
from studio.screens.btree.settings import BtreeSettingsScreen
from studio.widgets.footer import KeysFooter
from tests.ui_helpers import studio_app, wait_until

SIZE = (100, 30)


async def test_settings_from_the_editor_apply_as_one_undoable_edit(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=SIZE) as pilot:
        editor = app.screen
        assert isinstance(editor, TreeEditorScreen)
        await pilot.press("comma")
        screen = app.screen
        assert isinstance(screen, BtreeSettingsScreen)
        screen.query_one("#seed", Input).value = "42"
        screen.query_one("#seat-1", Input).value = "random"
        screen.query_one("#glyphs", Input).value = "X=✕"
        await pilot.press("enter")
        model = screen.model
        assert model.seed == 42 and model.seats["O"] == "random"
        assert model.display["glyphs"] == {"X": "✕"}
        await pilot.press("escape")
        assert app.screen is editor
        await pilot.press("ctrl+z")
        assert editor.model.seed == 0 and "glyphs" not in editor.model.display


async def test_a_refused_value_keeps_the_screen_open_with_the_reason(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("comma")
        screen = app.screen
        screen.query_one("#seed", Input).value = "lots"
        await pilot.press("escape")
        assert app.screen is screen
        assert "seed must be a whole number" in str(screen.query_one("#problem", Static).render())


async def test_play_reaches_the_settings_too(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, BtreePlayScreen), "no play")
        await pilot.press("comma")
        assert isinstance(app.screen, BtreeSettingsScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, BtreePlayScreen)


def footer_actions(screen) -> list[str]:
    return [key.action for key in screen.query_one(KeysFooter).query(FooterKey)]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_settings_key_is_in_the_footer_at_80_columns(bt_folder: Path, size) -> None:
    # It showed from 120 columns only: at 80 the keys before it filled the footer, and nothing
    # else leads to the settings.
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        editor = app.screen
        assert "settings" in footer_actions(editor)
        if size[0] >= 80:  # the editor's own first key stays beside it at 80
            assert "add('last')" in footer_actions(editor)
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, BtreePlayScreen), "no play")
        await pilot.pause(0.2)
        assert "settings" in footer_actions(app.screen)
