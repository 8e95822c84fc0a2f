"""A TileCode map cut by its pane says so (issue 29, at 60×20): marks on the cut edges, in the
map editor and in play, which follow the cursor's camera."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.screens.tilecode.map_editor import MapEditorScreen
from studio.widgets.board import Board
from studio.widgets.board_edges import MARKS
from tests.tilecode_ui.helpers import app_on


def line(board: Board, y: int) -> str:
    return "".join(segment.text for segment in board.render_line(y))


async def test_the_map_editor_marks_the_edges_the_pane_cuts(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("m")
        editor = app.screen
        assert isinstance(editor, MapEditorScreen)
        board = editor.query_one(Board)
        await pilot.pause()
        assert {"right", "down"} <= board.cut_edges() and "left" not in board.cut_edges()
        assert line(board, 1).endswith(MARKS["right"])
        assert MARKS["down"] in line(board, board.size.height - 1)
        for _ in range(40):  # the cursor to the far right: the camera follows it
            await pilot.press("right")
        await pilot.pause()
        assert "left" in board.cut_edges() and "right" not in board.cut_edges()
        assert line(board, 1).startswith(MARKS["left"])


@pytest.mark.parametrize("size", [(120, 40)])
async def test_a_map_that_fits_has_no_marks(tc_folder: Path, size) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=size) as pilot:
        await pilot.press("m")
        board = app.screen.query_one(Board)
        await pilot.pause()
        assert board.cut_edges() == set()


def test_map_editor_cut_by_a_small_terminal_snapshot(snap_compare, tc_folder: Path) -> None:
    async def run(pilot) -> None:
        await pilot.press("m")
        await pilot.pause(0.2)

    assert snap_compare(app_on(tc_folder / "blank.toml"), terminal_size=(60, 20), run_before=run)
