"""Moving a cursor over a sparse grid of cells with the arrow keys.

The rule editor places its cells (the When grid, the Do rows, the buttons) on a logical grid with
gaps; an arrow moves to the nearest cell in that direction, preferring the same row or column,
so the cursor never lands on a gap and never gets stuck in front of one.
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]


def step(cells: Iterable[Cell], current: Cell, dx: int, dy: int) -> Cell:
    """The cell an arrow press moves to from ``current`` (``current`` when none lies that way).

    Candidates lie strictly in the direction of the move; the nearest along the move wins, then
    the one closest across it (ties: the smaller coordinate).
    """
    x, y = current
    best: tuple[tuple[int, int, int], Cell] | None = None
    for cx, cy in cells:
        along = (cx - x) * dx + (cy - y) * dy
        if along <= 0:
            continue
        across = abs(cx - x) if dy else abs(cy - y)
        # A cell straight ahead beats one that is nearer but far to the side.
        score = (0 if across == 0 else 1, along + 2 * across, cx if dy else cy)
        if best is None or score < best[0]:
            best = (score, (cx, cy))
    return current if best is None else best[1]
