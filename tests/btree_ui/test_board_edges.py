"""A board cut by its pane marks the cut edges, and the marks follow the camera."""

from __future__ import annotations

from pathlib import Path

from studio.screens.btree.board_view import EdgeBoard
from studio.widgets.board import Board
from tests.btree_ui.test_play import start
from tests.ui_helpers import studio_app


def edges_drawn(board: Board) -> tuple[str, str]:
    """The first and last character of every line showing a board row."""
    lines = [board.render_line(y).text for y in range(board.size.height)]
    lines = [line for line in lines if line.strip()]
    return "".join(line[0] for line in lines), "".join(line[-1] for line in lines)


async def test_a_board_wider_than_its_pane_marks_the_cut_sides_as_the_cursor_scrolls(
        bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await start(pilot, app)
        board = play.query_one(Board)
        assert isinstance(board, EdgeBoard)
        left, right = edges_drawn(board)
        assert "‹" not in left and "›" not in right  # it fits: nothing is cut
        await pilot.press(*"+" * 8)  # cells so wide that a few fit across the pane
        await pilot.press(*["shift+left"] * 8)  # the board cursor to the left edge
        assert board.camera[0] == 0 and board.cut_edges() == {"right"}
        left, right = edges_drawn(board)
        assert set(right) == {"›"} and "‹" not in left
        await pilot.press(*["shift+right"] * 8)  # and on to the right edge
        assert board.cut_edges() == {"left"}
        left, right = edges_drawn(board)
        assert set(left) == {"‹"} and "›" not in right


async def test_a_board_taller_than_its_pane_marks_the_cut_top_and_bottom(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 8)) as pilot:
        play = await start(pilot, app)
        board = play.query_one(Board)
        rows = board.size.height
        assert 0 < rows < 6  # sokoban's first level has six rows
        await pilot.press(*["shift+up"] * 6)
        assert board.cut_edges() == {"down"}
        assert "▼" in board.render_line(rows - 1).text and "▲" not in board.render_line(0).text
        await pilot.press(*["shift+down"] * 6)
        assert board.cut_edges() == {"up"}
        assert "▲" in board.render_line(0).text and "▼" not in board.render_line(rows - 1).text
