"""Geometric transforms of patterns (spec §6.5): mirror, flip, rotate, skew.

Each transform maps a grid, the arrow characters inside its tiles, and a ``button`` value.
Grids are lists of rows; inputs are never modified.
"""

from __future__ import annotations

Grid = list[list[str]]

_MIRROR_ARROWS = str.maketrans({"←": "→", "→": "←"})
_FLIP_ARROWS = str.maketrans({"↑": "↓", "↓": "↑"})
_ROTATE_ARROWS = str.maketrans({"←": "↑", "↑": "→", "→": "↓", "↓": "←"})

MIRROR_BUTTONS = {"left": "right", "right": "left"}
FLIP_BUTTONS = {"up": "down", "down": "up"}
ROTATE_BUTTONS = {"left": "up", "up": "right", "right": "down", "down": "left"}


def _arrows(grid: Grid, table: dict[int, str]) -> Grid:
    return [[tile.translate(table) for tile in row] for row in grid]


def mirror(grid: Grid) -> Grid:
    """Left-right mirror: ``g'[i][j] = g[i][C-1-j]``; ← and → swap."""
    return _arrows([row[::-1] for row in grid], _MIRROR_ARROWS)


def flip(grid: Grid) -> Grid:
    """Top-bottom flip: ``g'[i][j] = g[R-1-i][j]``; ↑ and ↓ swap."""
    return _arrows(grid[::-1], _FLIP_ARROWS)


def rotate(grid: Grid) -> Grid:
    """90° clockwise: C×R with ``g'[i][j] = g[R-1-j][i]``; arrows turn clockwise.

    The caller rejects an empty grid (the reference crashes on it).
    """
    return _arrows([[row[i] for row in reversed(grid)] for i in range(len(grid[0]))], _ROTATE_ARROWS)


def spin_step(grid: Grid) -> Grid:
    """Rotate, except that an empty grid stays empty (as the reference's spin does)."""
    return [] if not grid else rotate(grid)


def skew(grid: Grid) -> Grid:
    """Shift column j down by j: (R+C-1)×C, ``g'[i][j] = g[i-j][j]`` or ``.``; arrows unchanged."""
    rows, cols = len(grid), len(grid[0])
    return [
        [grid[i - j][j] if 0 <= i - j < rows else "." for j in range(cols)]
        for i in range(rows + cols - 1)
    ]

