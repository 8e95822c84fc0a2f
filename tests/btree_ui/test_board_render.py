"""The behaviour-tree board renderer's row keys: the board widget repaints a row only when its
key changes, so whatever changes a drawn row must change its key."""

from __future__ import annotations

from dataclasses import fields

from rich.style import Style

from studio.engines.btree.model.board import Board
from studio.screens.btree.board_render import BtreeRenderer
from studio.widgets.canvas import UIStyles

STYLES = UIStyles(*[Style()] * len(fields(UIStyles)))
BOARD = Board({"main": ["#P.", "_B#"], "goal": ["..G", "G.."]})


def drawn(renderer: BtreeRenderer, y: int) -> str:
    return "".join(s.text for s in renderer.render_row(y, 0, renderer.width, 0))


def test_every_change_of_a_drawn_row_changes_its_key() -> None:
    looks = [BtreeRenderer(BOARD, STYLES, 1),
             BtreeRenderer(BOARD, STYLES, 1, hidden_layers=["main"]),  # l
             BtreeRenderer(BOARD, STYLES, 1, show_hidden=True),  # _
             BtreeRenderer(BOARD, STYLES, 1, rects={(0, 1, 1, 1): 1}, tint="red"),
             BtreeRenderer(BOARD, STYLES, 1, rects={(0, 1, 1, 1): 1}, tint="blue")]
    for a in looks:
        for b in looks:
            for y in range(BOARD.rows):
                if a.render_row(y, 0, 3, 0) != b.render_row(y, 0, 3, 0):
                    assert a.row_key(y) != b.row_key(y), (drawn(a, y), drawn(b, y))
    assert drawn(looks[0], 0) != drawn(looks[1], 0)  # the cases do differ where drawn


def test_a_cell_with_no_visible_tile_shows_a_dot_so_an_empty_board_has_a_shape() -> None:
    empty = Board({"main": ["__", "__"]})
    renderer = BtreeRenderer(empty, STYLES, 1)
    assert [drawn(renderer, y) for y in range(2)] == ["· · ", "· · "]
    assert drawn(BtreeRenderer(Board({"main": ["#."]}), STYLES, 1), 0) == "# · "  # void too


def test_neighbouring_one_cell_moves_keep_an_untinted_separator_between_them() -> None:
    tinted = Style(bgcolor="red")
    empty = Board({"main": ["___"]})
    singles = BtreeRenderer(empty, STYLES, 1, rects={(0, 0, 1, 1): 1, (0, 1, 1, 1): 1},
                            tint="red")
    segments = singles.render_row(0, 0, 3, 0)
    assert [s.style == tinted for s in segments[:4]] == [True, False, True, False]
    wide = BtreeRenderer(empty, STYLES, 1, rects={(0, 0, 1, 2): 1}, tint="red")
    segments = wide.render_row(0, 0, 3, 0)
    assert [s.style == tinted for s in segments[:4]] == [True, True, True, False]
    assert singles.row_key(0) != wide.row_key(0)
