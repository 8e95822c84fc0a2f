"""The Haunted board's tile sizes: a match board grows with the terminal (at 120×40 it stayed in
4×2 tiles beside empty room), every size draws whole tiles, and 80×24 keeps its 4×2 look."""

from __future__ import annotations

from dataclasses import fields

import pytest
from rich.style import Style

from studio.screens.haunted.board_render import NARROW, TILE_SIZES, WIDE, HauntedCells, haunted_styles
from studio.screens.haunted.match_layout import LOG_LINES, SIDE_WIDTH, cell_size_for, side_width
from studio.widgets.canvas import UIStyles

UI = UIStyles(*[Style()] * len(fields(UIStyles)))
STRENGTHS = (3, 2, 1, 0, 3, 3, 0, 1, 2, 2, 2, 2, 1, 0, 3, 3)
MARKERS = {(0, 0): ["H0"], (0, 3): ["A1"], (1, 1): ["H1", "A0"], (1, 2): ["H2", "A2", "H0"],
           (2, 2): ["x"], (3, 0): ["H0", "H1", "H2", "A0", "A1"]}


def picture(cell: tuple[int, int]) -> list[str]:
    cells = HauntedCells(4, STRENGTHS, MARKERS, {(2, 1)}, styles=haunted_styles(UI), cell=cell)
    return ["".join(s.text for s in cells.render_row(y, 0, 4, line))
            for y in range(4) for line in range(cell[1])]


@pytest.mark.parametrize(("size", "board", "cell"), [
    ((120, 40), 7, (8, 4)),   # the seed's 7×7 maps: 56 columns beside the panels
    ((100, 30), 7, WIDE),     # 6×3 would leave no room for the log below it
    ((80, 24), 7, WIDE),      # as before
    ((60, 20), 7, NARROW),
    ((120, 40), 10, (6, 3)),  # a bigger map, smaller tiles on the same terminal
    ((120, 40), 16, NARROW),
])
def test_the_tiles_are_the_largest_the_room_holds(size, board, cell) -> None:
    assert cell_size_for(board, *size) == cell
    width, height = size
    columns, lines = cell
    if cell != NARROW:
        assert board * columns + SIDE_WIDTH + 2 <= width  # beside the panels
        assert board * lines + 2 + LOG_LINES <= height  # above the log, open or not
    assert board * columns + side_width(board, cell, width) + 2 <= width  # all on the screen
    if cell != NARROW:
        assert side_width(board, cell, width) >= SIDE_WIDTH


@pytest.mark.parametrize("cell", TILE_SIZES)
def test_every_size_draws_whole_tiles_on_every_line(cell) -> None:
    lines = picture(cell)
    assert len(lines) == 4 * cell[1]
    assert all(len(line) == 4 * cell[0] for line in lines)
    cells = HauntedCells(4, STRENGTHS, MARKERS, styles=haunted_styles(UI), cell=cell)
    for line in range(cell[1]):
        assert sum(len(s.text) for s in cells.render_cursor(1, 2, line, [])) == cell[0]


def test_the_four_by_two_look_is_unchanged() -> None:
    assert picture(WIDE) == [
        "█3█ ▓2▓ ░1░     ", "H0▀ ▀▀▀ ▀▀▀ A1  ",
        "█3█ █3█     ░1░ ", "▀▀▀ H1A0H2+2▀▀▀ ",
        "▓2▓ ▓2▓ ▓2▓ ▓2▓ ", "▀▀▀ ▀▀▀ x ▀ ▀▀▀ ",
        "░1░     █3█ █3█ ", "H0+4    ▀▀▀ ▀▀▀ ",
    ]


def test_a_large_tile_shows_its_digit_above_its_monsters_side_by_side() -> None:
    rows = picture((8, 4))
    assert rows[:4] == ["███████ ▓▓▓▓▓▓▓ ░░░░░░░         ",
                        "███3███ ▓▓▓2▓▓▓ ░░░1░░░         ",
                        "██H0███ ▓▓▓▓▓▓▓ ░░░░░░░   A1    ",  # centred; a hole keeps its monster
                        "▀▀▀▀▀▀▀ ▀▀▀▀▀▀▀ ▀▀▀▀▀▀▀         "]
    assert rows[6] == "███████ █H1A0██ H2A2H0  ░░░░░░░ "  # three side by side, none counted
    assert rows[14] == "H0H1H2+2        ███████ ███████ "  # five: three shown, two counted
