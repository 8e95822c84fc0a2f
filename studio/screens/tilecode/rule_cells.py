"""The rule editor's cursor grid: every cell on a logical (column, row) grid, and the arrows.

Column 0..7 of row 0 is the top row; the When tiles are columns 1..3, rows 1..3 (the press
button (0, 2)); each Do row is a line of column 5 (witness) and 6..9 (commands), in
:data:`~studio.engines.tilecode.rule_edit.DISPLAY_ROWS` order.
"""

from __future__ import annotations

from collections.abc import Hashable

from studio.engines.tilecode.model import Rule
from studio.engines.tilecode.rule_do import do_rows, row_beside, tile_beside
from studio.engines.tilecode.rule_edit import DISPLAY_ROWS, editable_tiles
from studio.widgets.gridnav import step

TOP = (("code", "code"), ("map", "map"), ("play", "play"), ("gen", "gen"), ("trash", "trash"),
       ("prev", "◄"), ("add", "+"), ("next", "►"))


def cell_grid(rule: Rule) -> dict[tuple[int, int], Hashable]:
    """Every cursor cell of the editor on its logical grid (column, row)."""
    cells: dict[tuple[int, int], Hashable] = {}
    x = 0
    for name, _label in TOP:
        cells[(x, 0)] = ("top", name)
        x += 1
    if rule.type == "press":
        cells[(0, 2)] = ("button",)
    for col, row in editable_tiles(rule):
        cells[(col, row)] = ("tile", col, row)
    for line, position in enumerate(DISPLAY_ROWS, start=1):
        if position not in do_rows(rule):
            continue
        cells[(5, line)] = ("witness", *position)
        record = rule.tile(*position)
        count = len(record.do) if record is not None else 0
        for index in range(min(count + 1, 4)):
            cells[(6 + index, line)] = ("cmd", *position, index)
    return cells



def move(rule: Rule, cursor: tuple[int, int], dx: int, dy: int) -> tuple[int, int]:
    """Where an arrow press takes the cursor (``cursor`` when nothing lies that way)."""
    cells = cell_grid(rule)
    return _across(rule, cells.get(cursor), dx) or step(cells, cursor, dx, dy)


def _across(rule: Rule, cell, dx: int) -> tuple[int, int] | None:
    # Between the When grid and the Do rows the logical lines do not match the picture's (five
    # rows beside three tiles): the arrows cross to what the picture puts beside the cursor.
    if dx == 1 and cell and cell[0] == "tile" and cell[1] == 3:
        target = row_beside(rule, cell[1:])
        return None if target is None else (5, 1 + DISPLAY_ROWS.index(target))
    if dx == -1 and cell and cell[0] == "witness":
        return tile_beside(rule, cell[1:])
    return None
