"""The plain-Python REFERENCE matcher (§7.4): obviously correct, used to check ``fastmatch``.

``layers`` maps layer name → grid (any sequence of sequences of tiles); patterns are the compiled
JSON shape ``{layer: [[tile, ...], ...]}``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

Grid = Sequence[Sequence[str]]


def pattern_size(pattern: Mapping[str, Grid]) -> tuple[int, int]:
    """(rows, cols) of the pattern's first layer; (0, 0) for an empty pattern."""
    for grid in pattern.values():
        return len(grid), (len(grid[0]) if len(grid) else 0)
    return 0, 0


def matches_at(layers: Mapping[str, Grid], pattern: Mapping[str, Grid], r: int, c: int) -> bool:
    """Whether ``pattern`` matches with its top-left cell at (r, c) (caller checks the bounds)."""
    pr, pc = pattern_size(pattern)
    for i in range(pr):
        for j in range(pc):
            for name, grid in pattern.items():
                tile = grid[i][j]
                if tile == ".":
                    continue
                board_grid = layers.get(name)
                if board_grid is None or board_grid[r + i][c + j] != tile:
                    return False
    return True


def find(layers: Mapping[str, Grid] | None, rows: int, cols: int, pattern: Mapping[str, Any]) -> list[tuple[int, int]]:
    """Every anchor (row, col) where ``pattern`` matches, row-major, overlapping ones included."""
    pr, pc = pattern_size(pattern)
    if layers is None or pr == 0 or pc == 0 or rows == 0:
        return []
    found = []
    for r in range(rows - pr + 1):
        for c in range(cols - pc + 1):
            if matches_at(layers, pattern, r, c):
                found.append((r, c))
    return found
