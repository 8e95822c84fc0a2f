"""The fast matcher: a per-layer tile → cells index, each search anchored on its rarest tile.

Gives exactly the reference matcher's answer (``match.find``): every anchor, row-major. Cells are
coded ``r * cols + c`` so sorting the codes sorts row-major. The index is updated cell by cell on
writes and rebuilt lazily after the board's shape changes.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from studio.engines.btree.runtime.pattern import Pattern

Index = dict[str, dict[str, set[int]]]


def build_index(layers: Mapping[str, Sequence[Sequence[str]]], cols: int) -> Index:
    """Tile → set of cell codes, per layer."""
    index: Index = {}
    for name, grid in layers.items():
        by_tile: dict[str, set[int]] = {}
        for r, row in enumerate(grid):
            base = r * cols
            for c, tile in enumerate(row):
                cells = by_tile.get(tile)
                if cells is None:
                    by_tile[tile] = {base + c}
                else:
                    cells.add(base + c)
        index[name] = by_tile
    return index


def find_indexed(
    layers: Mapping[str, Sequence[Sequence[str]]], rows: int, cols: int, index: Index, pat: Pattern
) -> list[tuple[int, int]]:
    """Every anchor (row, col) where ``pat`` matches, row-major (same list as ``match.find``)."""
    pr = pat.rows
    pc = pat.cols
    if pr == 0 or pc == 0 or rows == 0 or pr > rows or pc > cols:
        return []
    best = None
    best_n = -1
    for anchor in pat.anchors:
        by_tile = index.get(anchor[0])
        if by_tile is None:
            return []  # a checked layer missing from the board: no match anywhere
        cells = by_tile.get(anchor[1])
        if not cells:
            return []
        n = len(cells)
        if best is None or n < best_n:
            best = anchor
            best_n = n
    max_r = rows - pr
    max_c = cols - pc
    if best is None:  # nothing to check: every anchor matches
        return [(r, c) for r in range(max_r + 1) for c in range(max_c + 1)]
    _, _, ai, aj = best
    found = []
    for cell in index[best[0]][best[1]]:
        r, c = divmod(cell, cols)
        r -= ai
        c -= aj
        if 0 <= r <= max_r and 0 <= c <= max_c:
            found.append((r, c))
    if len(found) > 1:
        found.sort()
    checks = pat.checks
    if len(checks) == 1 or not found:
        return found
    kept = []
    for rc in found:
        r, c = rc
        for name, i, j, tile in checks:
            if layers[name][r + i][c + j] != tile:
                break
        else:
            kept.append(rc)
    return kept


def matches_at(layers: Mapping[str, Sequence[Sequence[str]]], pat: Pattern, r: int, c: int) -> bool:
    """Whether ``pat`` still matches at (r, c) (used by ``rewrite-all``; bounds already hold)."""
    for name, i, j, tile in pat.checks:
        grid = layers.get(name)
        if grid is None or grid[r + i][c + j] != tile:
            return False
    return True
