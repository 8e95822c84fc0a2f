"""What a tree-editor cursor move sends to the terminal: over SSH every byte is latency.

The frames are taken where Textual hands them to the driver (``App._display``) and rendered as
the driver would write them, so the counts are the bytes a remote terminal receives.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual._compositor import CompositorUpdate
from textual.app import App

from studio.screens.btree.editor import TreeEditorScreen
from tests.btree_ui.conftest import ROOT
from tests.ui_helpers import output_stops, studio_app


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Bytes of every frame the app sends from now on."""
    frames: list[int] = []

    def display(app: App, screen, renderable) -> None:
        if isinstance(renderable, CompositorUpdate):
            frames.append(len(renderable.render_segments(app.console).encode()))

    monkeypatch.setattr(App, "_display", display)
    return frames


async def quiet(pilot, sent: list[int]) -> None:
    """Let the frames stop (the start-up's, the properties pane's rebuild) before counting."""
    if not await output_stops(lambda: len(sent), 0.3, 10):
        raise AssertionError("frames kept coming for 10 s")


async def test_a_cursor_move_sends_the_lines_that_changed_not_the_screen(
        tmp_path: Path, sent: list[int]) -> None:
    shutil.copy(ROOT / "games" / "crypt.toml", tmp_path / "crypt.toml")
    app = studio_app(tmp_path / "crypt.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await quiet(pilot, sent)
        editor = app.screen
        assert isinstance(editor, TreeEditorScreen)
        assert editor.query_one("#tree").show_vertical_scrollbar  # the tree overflows its pane
        same, changed = [], []
        for _ in range(6):
            before = editor.node.get("type")
            sent.clear()
            await pilot.press("down")
            await quiet(pilot, sent)
            (same if editor.node.get("type") == before else changed).append(sum(sent))
        assert same and changed
        # Measured: a move to a node of the same type 474 B, to another type 1.4-2.5 KB (9.4 KB
        # for five). Before: 1.8 KB and 4.5-7.1 KB (27.8 KB), the tree's scrollbars and an empty
        # properties pane sent with every move; then 628 B and 12.9 KB, the whole pane redrawn
        # for a new type. A full frame is about 8 KB.
        assert max(same) < 600, same
        assert sum(changed[:5]) < 11_000, changed


async def test_n_and_e_are_dimmed_where_they_cannot_act_without_redrawing_the_footer(
        tmp_path: Path, sent: list[int]) -> None:
    from textual.widgets._footer import FooterKey

    shutil.copy(ROOT / "games" / "crypt.toml", tmp_path / "crypt.toml")
    app = studio_app(tmp_path / "crypt.toml")
    async with app.run_test(size=(120, 30)) as pilot:
        await quiet(pilot, sent)
        editor = app.screen
        assert isinstance(editor, TreeEditorScreen)

        def keys() -> dict[str, FooterKey]:
            return {key.action: key for key in editor.query(FooterKey)}

        before = keys()
        assert editor.node["type"] == "order"  # takes children, has no pattern
        assert not before["add('last')"].has_class("-disabled")
        assert before["edit_pattern"].has_class("-disabled")
        editor.select((1, 0, 0, 0))  # a rewrite: a leaf with patterns
        await pilot.pause()
        assert editor.node["type"] == "rewrite"
        assert editor.check_action("add", ("last",)) is None
        assert keys() == before  # the same keys, restyled where they are
        assert before["add('last')"].has_class("-disabled")
        assert not before["edit_pattern"].has_class("-disabled")
        await pilot.press("n")  # still says why when pressed
        await pilot.pause()
        assert any("rewrite is a leaf" in note.message for note in app._notifications)
        await pilot.press("left", "n")  # its parent takes one: the type list opens
        await pilot.pause()
        assert type(app.screen).__name__ == "TypeDialog"
