"""Quiet moves: steps of a walk, which the search gives their parent's value.

A move that leaves the piece's layer (see ``reach``) as it was but for where the piece and what it
carries stand is *quiet*. ``kernels.expand`` gives a quiet child its parent's value instead of
running the ``reach`` Dijkstra again: values are taken where blocks change, so greedy search is
not steered along a walk a step at a time, and most states cost no Dijkstra. Best-first solves
Block Dude 7 so (14.1 million states, 171 s on 2 cores; without, none in 12 million), and A* at
weight 3 solves level 6 in 36 s instead of 44.

``settled`` is what a quiet move keeps: a hash of the layer without the piece and what it
carries. A collision could only make a move count as quiet and reorder the search, never change
a line: lines are replayed as found.
"""

from __future__ import annotations

import numpy as np

from studio.engines.jit import kernel

from .reach import held_cell, piece_at
from .tables import D_SPAN, D_T, O_FR_COLS, O_FR_ROWS, O_RE_TOK
from .vm import M_BOARD, M_CNT, M_POS, R_FRAME


@kernel(inline=True)
def _mixed(cell, tile):
    x = np.uint64(cell * 64 + tile + 1) * np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(29))) * np.uint64(0xBF58476D1CE4E5B9)
    return x ^ (x >> np.uint64(32))


@kernel
def settled(t, m):
    """A hash of the piece's layer without the piece and what it carries: equal before and after
    a quiet move (0 off the start frame, where no move is quiet)."""
    ti, _, to = t
    mi, reg, _ = m
    if reg[R_FRAME] != 0:
        return np.uint64(0)
    span, tiles, cnt, pos = to[D_SPAN], to[D_T], reg[M_CNT], reg[M_POS]
    tok = to[O_RE_TOK]
    layer, ground = ti[tok], ti[tok + 1]
    start = piece_at(t, m)
    held = held_cell(ti, to, mi, reg[M_BOARD], start) if start >= 0 else -1
    h = np.uint64(1)
    for tile in range(tiles):
        if tile == ground or _is_piece(ti, to, tile):
            continue
        k = layer * tiles + tile
        for i in range(mi[cnt + k]):
            cell = mi[pos + k * span + i]
            if cell != held:
                h ^= _mixed(cell, tile)  # cell lists are in no order: a sum of cells, not a sequence
    return h


@kernel
def settled_on(ti, to, mi, board):
    """``settled`` of the start frame's board at ``mi[board:]`` (the plain path's)."""
    cells = ti[to[O_FR_ROWS]] * ti[to[O_FR_COLS]]
    tok = to[O_RE_TOK]
    layer, ground = ti[tok], ti[tok + 1]
    base = board + layer * to[D_SPAN]
    start = -1
    for cell in range(cells):
        if _is_piece(ti, to, mi[base + cell]):
            start = cell
            break
    held = held_cell(ti, to, mi, board, start) if start >= 0 else -1
    h = np.uint64(1)
    for cell in range(cells):
        tile = mi[base + cell]
        if tile != ground and cell != held and not _is_piece(ti, to, tile):
            h ^= _mixed(cell, tile)
    return h


@kernel(inline=True)
def _is_piece(ti, to, tile):
    tok = to[O_RE_TOK]
    for q in range(to[O_RE_TOK + 1] - tok - 2):
        if ti[tok + 2 + q] == tile:
            return True
    return False
