"""The solver's kernel: the behaviour-tree machine of ``Engine`` on int arrays (§7, §8).

It runs a compiled tree from a packed state exactly as ``Engine.choose`` + ``run_to_choice``
do: the same step accounting and stepout, the same RNG draws (the LCG in doubles), the same
match order (row-major, anchored on the rarest tile through per-tile cell lists), the same choice
list with its duplicates dropped. ``Engine`` is its reference: tests compare packed successors of
both on the corpus games.

Two things are reported rather than done: a node the kernel leaves to the plain engine
(``FALLBACK``) and, through a register, whether the RNG decided anything (a draw among two or more
matches, orders or children). While it never does, states that differ only in the RNG behave the
same and the solver keys them without it.

The tables are ``t = (ti, tf, to)`` (see ``tables.Tables``); a machine is ``m = (mi, reg, rng)``:
one int array for the board, its tile index, the stack and the buffers, registers followed by
where each of those starts in ``mi``, and the RNG. Few, flat arrays keep calls and compilation
cheap. Written in the subset of Python numba compiles (see :mod:`studio.engines.jit`).
"""

from __future__ import annotations

import numpy as np

from studio.engines.jit import kernel

from .layout import AUX_NONE
from .tables import (
    D_CHOICES, D_DEPTH, D_FRAMES, D_KIDS, D_L, D_SPAN, D_T, O_ANC_I, O_ANC_J, O_ANC_L, O_ANC_OFF,
    O_ANC_T, O_CHK_I, O_CHK_J, O_CHK_L, O_CHK_OFF, O_CHK_T, O_FR_COLS, O_FR_HAS, O_FR_ROWS,
    O_NODE_DEDUP, O_OFFER_CONTENT, O_OFFER_LHS, O_OFFER_OFF, O_PAT_COLS, O_PAT_NEVER, O_PAT_ROWS,
    O_WR_I, O_WR_J, O_WR_L, O_WR_OFF, O_WR_T,
)

STEP_LIMIT = 100_000
MUL, INC, MOD = 1103515245.0, 12345.0, 2147483648.0
# Registers of a machine.
R_SP, R_PREV, R_STEPS, R_RESULT, R_NCH, R_MADE, R_MADE_R, R_MADE_C, R_DISPLAY, R_EFFECT, \
    R_FALLBACK, R_HALT, R_FRAME, R_JOURNAL, R_JN, R_JOVER, R_SAVE_LEN, R_SAVE_PREV, R_DRESET = range(19)
# R_DRESET: clearing a display wait resets the step budget (a play session's rule; the solver's
# run_to_choice leaves it 0).
# Where the machine's arrays start in ``mi`` (kept in ``reg`` after the registers).
MO = 24
M_BOARD, M_CNT, M_POS, M_WHERE, M_S_NODE, M_S_IDX, M_S_ANY, M_S_TAG, M_S_VAL, M_S_ITEMS, M_KEY, \
    M_MR, M_MC, M_CH_OFFER, M_CH_R, M_CH_C, M_PC_OFFER, M_PC_R, M_PC_C, M_ENC, M_SAVE, \
    M_JOUR, M_REACH = range(MO, MO + 23)
JOURNAL = 4
"""Journal entries per board cell: a child's run that writes more is undone by a full reload."""
# What a node call returns (prev: -1 None, 0 False, 1 True) and what a run ends in.
NONE, FALSE, TRUE, FALL = -1, 0, 1, 3
CHOICE, DONE, FALLBACK = 1, 2, 3
REACH_SCRATCH = 10
"""Scratch words ``reach``'s Dijkstra takes per board cell: distance, heap slot, place in the
heap, parent and edge, for both of its layers (callers of ``reach_on`` size theirs from it)."""


def machine(dims: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scratch arrays ``(mi, reg, rng)`` for one thread running the kernel on tables of ``dims``."""
    d = [int(v) for v in dims]
    cells, depth, kids, choices = max(d[D_SPAN], 1), d[D_DEPTH], d[D_KIDS], d[D_CHOICES]
    sizes = [d[D_L] * cells, d[D_L] * d[D_T], d[D_L] * d[D_T] * cells, d[D_L] * cells, depth, depth,
             depth, depth, depth, depth * kids, cells, cells, cells, choices, choices, choices,
             choices, choices, choices, depth * (5 + kids), depth * (5 + kids), 2 * JOURNAL * cells,
             REACH_SCRATCH * cells]
    reg = np.zeros(MO + len(sizes), np.int64)
    reg[MO:] = np.cumsum([0] + sizes[:-1])
    return np.zeros(sum(sizes), np.int32), reg, np.zeros(3)


# -- board, tile index, matching --------------------------------------------------------------


@kernel
def rebuild(t, m):
    """The per-(layer, tile) cell lists of the board."""
    ti, _, to = t
    mi, reg, _ = m
    frame = reg[R_FRAME]
    rc = ti[to[O_FR_ROWS] + frame] * ti[to[O_FR_COLS] + frame]
    span, tiles, layers = to[D_SPAN], to[D_T], to[D_L]
    board, cnt, pos, where = reg[M_BOARD], reg[M_CNT], reg[M_POS], reg[M_WHERE]
    for i in range(layers * tiles):
        mi[cnt + i] = 0
    for layer in range(layers):
        if ti[to[O_FR_HAS] + frame * layers + layer] == 0:
            continue
        for cell in range(rc):
            k = layer * tiles + mi[board + layer * span + cell]
            n = mi[cnt + k]
            mi[pos + k * span + n] = cell
            mi[where + layer * span + cell] = n
            mi[cnt + k] = n + 1


@kernel(inline=True)
def set_cell(t, m, layer, cell, tile):
    _, _, to = t
    mi, reg, _ = m
    span = to[D_SPAN]
    board, cnt, pos, where = reg[M_BOARD], reg[M_CNT], reg[M_POS], reg[M_WHERE]
    at = layer * span + cell
    old = mi[board + at]
    if old == tile:
        return
    if reg[R_JOURNAL]:  # remember the old tile, so the parent's board comes back cheaply
        n = reg[R_JN]
        if n < JOURNAL * span:
            mi[reg[M_JOUR] + 2 * n] = at
            mi[reg[M_JOUR] + 2 * n + 1] = old
            reg[R_JN] = n + 1
        else:
            reg[R_JOVER] = 1
    k = layer * to[D_T] + old
    i = mi[where + at]
    last = mi[cnt + k] - 1
    moved = mi[pos + k * span + last]
    mi[pos + k * span + i] = moved
    mi[where + layer * span + moved] = i
    mi[cnt + k] = last
    k = layer * to[D_T] + tile
    n = mi[cnt + k]
    mi[pos + k * span + n] = cell
    mi[where + at] = n
    mi[cnt + k] = n + 1
    mi[board + at] = tile


@kernel(inline=True)
def sort_keys(mi, keys, n):
    """Shell sort of ``mi[keys:keys+n]`` in place (no allocation: kernels run without NRT)."""
    gap = 1
    while gap < n // 3:
        gap = 3 * gap + 1
    while gap > 0:
        for i in range(gap, n):
            value = mi[keys + i]
            j = i
            while j >= gap and mi[keys + j - gap] > value:
                mi[keys + j] = mi[keys + j - gap]
                j -= gap
            mi[keys + j] = value
        gap //= 3


@kernel(inline=True)
def find(t, m, p):
    """Matches of pattern ``p`` into the match buffers, row-major; returns how many."""
    ti, _, to = t
    mi, reg, _ = m
    frame = reg[R_FRAME]
    rows, cols = ti[to[O_FR_ROWS] + frame], ti[to[O_FR_COLS] + frame]
    pr, pc = ti[to[O_PAT_ROWS] + p], ti[to[O_PAT_COLS] + p]
    if ti[to[O_PAT_NEVER] + p * to[D_FRAMES] + frame] or pr == 0 or pc == 0 or rows == 0 \
            or pr > rows or pc > cols:
        return 0
    max_r, max_c = rows - pr, cols - pc
    mr, mc, keys = reg[M_MR], reg[M_MC], reg[M_KEY]
    n = 0
    a0, a1 = ti[to[O_ANC_OFF] + p], ti[to[O_ANC_OFF] + p + 1]
    if a0 == a1:
        for r in range(max_r + 1):
            for c in range(max_c + 1):
                mi[mr + n] = r
                mi[mc + n] = c
                n += 1
        return n
    tiles, span = to[D_T], to[D_SPAN]
    anc_l, anc_t = to[O_ANC_L], to[O_ANC_T]
    cnt = reg[M_CNT]
    best, best_n = a0, -1
    for a in range(a0, a1):
        count = mi[cnt + ti[anc_l + a] * tiles + ti[anc_t + a]]
        if count == 0:
            return 0
        if best_n < 0 or count < best_n:
            best, best_n = a, count
    cells = reg[M_POS] + (ti[anc_l + best] * tiles + ti[anc_t + best]) * span
    ai, aj = ti[to[O_ANC_I] + best], ti[to[O_ANC_J] + best]
    c0, c1 = ti[to[O_CHK_OFF] + p], ti[to[O_CHK_OFF] + p + 1]
    chk_l, chk_i, chk_j, chk_t = to[O_CHK_L], to[O_CHK_I], to[O_CHK_J], to[O_CHK_T]
    board = reg[M_BOARD]
    for q in range(best_n):
        cell = mi[cells + q]
        r = cell // cols - ai
        c = cell % cols - aj
        if r < 0 or r > max_r or c < 0 or c > max_c:
            continue
        ok = True
        for h in range(c0, c1):
            at = ti[chk_l + h] * span + (r + ti[chk_i + h]) * cols + c + ti[chk_j + h]
            if mi[board + at] != ti[chk_t + h]:
                ok = False
                break
        if ok:
            mi[keys + n] = r * cols + c
            n += 1
    if n > 1:
        sort_keys(mi, keys, n)
    for q in range(n):
        mi[mr + q] = mi[keys + q] // cols
        mi[mc + q] = mi[keys + q] % cols
    return n


@kernel(inline=True)
def matches_at(t, m, p, r, c):
    ti, _, to = t
    mi, reg, _ = m
    cols = ti[to[O_FR_COLS] + reg[R_FRAME]]
    span, board = to[D_SPAN], reg[M_BOARD]
    for h in range(ti[to[O_CHK_OFF] + p], ti[to[O_CHK_OFF] + p + 1]):
        at = ti[to[O_CHK_L] + h] * span + (r + ti[to[O_CHK_I] + h]) * cols + c + ti[to[O_CHK_J] + h]
        if mi[board + at] != ti[to[O_CHK_T] + h]:
            return False
    return True


@kernel(inline=True)
def write(t, m, p, r, c):
    ti, _, to = t
    cols = ti[to[O_FR_COLS] + m[1][R_FRAME]]
    for w in range(ti[to[O_WR_OFF] + p], ti[to[O_WR_OFF] + p + 1]):
        cell = (r + ti[to[O_WR_I] + w]) * cols + c + ti[to[O_WR_J] + w]
        set_cell(t, m, ti[to[O_WR_L] + w], cell, ti[to[O_WR_T] + w])


@kernel(inline=True)
def draw(rng):
    rng[0] = (MUL * rng[0] + INC) % MOD
    return rng[0] / MOD


@kernel(inline=True)
def push(mi, reg, node):
    sp = reg[R_SP]
    mi[reg[M_S_NODE] + sp] = node
    mi[reg[M_S_IDX] + sp] = 0
    mi[reg[M_S_ANY] + sp] = 0
    mi[reg[M_S_TAG] + sp] = AUX_NONE
    mi[reg[M_S_VAL] + sp] = 0
    reg[R_SP] = sp + 1


@kernel(inline=True)
def enumerate_choices(t, m, node):
    """The player's offer (§7.6) into the choice buffers; returns how many choices."""
    ti, _, to = t
    mi, reg, _ = m
    n = 0
    dedup = ti[to[O_NODE_DEDUP] + node] != 0
    ch_o, ch_r, ch_c, mr, mc = reg[M_CH_OFFER], reg[M_CH_R], reg[M_CH_C], reg[M_MR], reg[M_MC]
    content = to[O_OFFER_CONTENT]
    for o in range(ti[to[O_OFFER_OFF] + node], ti[to[O_OFFER_OFF] + node + 1]):
        found = find(t, m, ti[to[O_OFFER_LHS] + o])
        for q in range(found):
            r, c = mi[mr + q], mi[mc + q]
            if dedup:
                seen = False
                for e in range(n):
                    if mi[ch_r + e] == r and mi[ch_c + e] == c and \
                            ti[content + mi[ch_o + e]] == ti[content + o]:
                        seen = True
                        break
                if seen:
                    continue
            mi[ch_o + n] = o
            mi[ch_r + n] = r
            mi[ch_c + n] = c
            n += 1
    return n
