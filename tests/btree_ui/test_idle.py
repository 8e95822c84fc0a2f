"""Nothing repaints when nothing changes on the behaviour-tree screens (SSH bytes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_helpers import idle_bytes
from tests.btree_ui.test_play import settle
from tests.tilecode_ui.test_idle import count_bytes
from tests.ui_helpers import studio_app


@pytest.mark.parametrize("keys", [(), ("enter",), ("e",), ("e", "tab"), ("c",)],
                         ids=["tree", "properties", "pattern", "pattern-text", "compiled"])
async def test_idle_editor_screens_write_nothing(bt_folder: Path, keys) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"
        app.screen.select((0,))
        await pilot.press(*keys)
        written = count_bytes(app)
        idle = await idle_bytes(app, written)
        assert idle == 0, f"{idle} bytes written while idle"


async def test_a_play_screen_waiting_for_a_move_writes_nothing(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await settle(pilot, app.screen)
        written = count_bytes(app)
        idle = await idle_bytes(app, written)
        assert idle == 0


async def test_a_dialog_s_text_field_has_a_steady_cursor(bt_folder: Path) -> None:
    """The app makes every focused text field steady: the type list's filter never set it."""
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"
        app.screen.select(())  # the root: a node that takes children
        await pilot.press("n")
        await pilot.pause()
        assert app.focused is not None and app.focused.cursor_blink is False
        assert await idle_bytes(app, count_bytes(app)) == 0
