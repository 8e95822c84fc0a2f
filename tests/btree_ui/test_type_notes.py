"""The node type list says what the highlighted type does (issue 29: concepts, not only keys),
as the highlight moves and as typing filters the list."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from studio.engines.btree.model.schema import ALL_TYPES
from studio.engines.btree.model.type_notes import NOTES
from studio.screens.btree.dialogs import TypeDialog
from tests.ui_helpers import studio_app


def test_every_type_has_its_line() -> None:
    assert set(NOTES) == set(ALL_TYPES) and all(NOTES.values())


async def test_the_list_says_what_the_highlighted_type_does(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(TypeDialog("Add a node", None))
        await pilot.pause()
        dialog = app.screen
        about = dialog.query_one("#about", Static)
        assert str(about.render()) == NOTES["all"]  # the first control type
        await pilot.press("down")
        assert str(about.render()) == NOTES["draw"]
        await pilot.press(*"x-sp")
        await pilot.pause()
        assert str(about.render()) == NOTES["x-spin"]
        await pilot.press(*"zzz")
        await pilot.pause()
        assert str(about.render()) == ""
