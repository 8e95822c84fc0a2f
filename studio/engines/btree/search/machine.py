"""The solver kernel's node calls and packed states: ``controls.py`` and ``tiles.py`` on arrays.

``run`` is ``Engine.run_to_choice`` after ``choose`` (display waits cleared at once, without a
budget reset); ``load``/``pack`` move a machine from and to a row of packed words (the layout of
``search.layout``). See :mod:`.vm` for the conventions.
"""

from __future__ import annotations

import numpy as np

from studio.engines.jit import kernel

from .layout import AUX_FALSE, AUX_INT, AUX_LIST, AUX_NONE, AUX_TRUE, FRAME_MASK, FRAME_SHIFT, PREV_SHIFT, \
    RESULT_MASK, RESULT_SHIFT
from .tables import (
    D_FRAMES, D_HEADER, D_KIDS, D_L, D_NODES, D_PRUNE, D_SPAN, D_T, D_TILE_OF, O_DEAD, O_DIST, O_FR_COLS, O_FR_BASE, O_FR_VAR_OFF, O_H_KIND,
    O_H_PAT, O_KID_OFF, O_KIDS, O_LOCAL_OF, O_NODE_BOARD, O_NODE_LHS, O_NODE_PAT, O_NODE_RESULT,
    O_NODE_RHS, O_NODE_TYPE, O_OFFER_RHS, O_PAT_BAD, O_SB_BOARD, O_SB_FRAME, O_TILE_OF, O_VAR_BITS,
    O_VAR_CELL, O_VAR_SHIFT, O_VAR_WORD, SET_BOARD,
)
from .reach import reach
from .vm import (
    CHOICE, DONE, FALL, FALLBACK, FALSE, M_BOARD, M_JOUR, M_MC, M_MR, M_PC_C, M_PC_OFFER, M_PC_R,
    M_S_ANY, M_S_IDX, M_S_ITEMS, M_S_NODE, M_S_TAG, M_S_VAL, M_SAVE, NONE, R_DISPLAY, R_EFFECT,
    R_DRESET, R_FALLBACK, R_FRAME, R_HALT, R_JN, R_JOURNAL, R_JOVER, R_MADE, R_MADE_C, R_MADE_R, R_NCH, R_PREV,
    R_RESULT, R_SAVE_LEN, R_SAVE_PREV, R_SP, R_STEPS, STEP_LIMIT, TRUE, draw, enumerate_choices, find,
    matches_at, push, rebuild, set_cell, write,
)


@kernel(inline=True)
def _control(t, m, node, kind, prev):
    """order, all, none, random-try, the loops, win/lose/draw (``controls.py``)."""
    ti, tf, to = t
    mi, reg, rng = m
    f = reg[R_SP] - 1
    k0 = ti[to[O_KID_OFF] + node]
    n = ti[to[O_KID_OFF] + node + 1] - k0
    kids = to[O_KIDS] + k0
    s_idx, s_any, s_tag, s_val = reg[M_S_IDX] + f, reg[M_S_ANY] + f, reg[M_S_TAG] + f, reg[M_S_VAL] + f
    if kind == 3:  # random-try: the order is shuffled at the first call
        items = reg[M_S_ITEMS] + f * to[D_KIDS]
        if mi[s_tag] == AUX_NONE:
            for i in range(n):
                mi[items + i] = i
            for i in range(n - 1, 0, -1):
                j = int(draw(rng) * (i + 1))
                mi[items + i], mi[items + j] = mi[items + j], mi[items + i]
            if n >= 2:
                reg[R_EFFECT] = 1
            mi[s_tag] = AUX_LIST
            mi[s_val] = n
        if prev == TRUE:
            return TRUE
        if mi[s_val] == 0:
            return FALSE
        mi[s_val] -= 1
        push(mi, reg, ti[kids + mi[items + mi[s_val]]])
        return NONE
    if prev == TRUE:
        if kind == 0 or kind == 4 or kind == 5:
            mi[s_any] = 1
        if kind == 4:
            mi[s_tag] = AUX_TRUE
        if kind == 2:
            return FALSE
        if kind >= 6:
            reg[R_RESULT] = ti[to[O_NODE_RESULT] + node]
            reg[R_HALT] = DONE
            return NONE
    if prev == FALSE and kind == 1:
        return FALSE
    i = mi[s_idx]
    if i == n:
        if kind == 0:
            return mi[s_any]
        if kind == 1 or kind == 2:
            return TRUE
        if kind == 4:
            if mi[s_tag] == AUX_TRUE:
                mi[s_tag] = AUX_FALSE
                mi[s_idx] = 0
                return NONE
            return mi[s_any]
        if kind == 5:
            passes = (mi[s_val] if mi[s_tag] == AUX_INT else 0) + 1
            mi[s_tag] = AUX_INT
            mi[s_val] = passes
            if passes == tf[node]:
                return mi[s_any]
            mi[s_idx] = 0
            return NONE
        return FALSE  # win, lose, draw
    mi[s_idx] = i + 1
    push(mi, reg, ti[kids + i])
    return NONE


@kernel(inline=True)
def _tile(t, m, node, kind):
    """match, match-times, rewrite, rewrite-all (``tiles.py``), with one find between them."""
    ti, tf, to = t
    mi, reg, rng = m
    lhs = ti[to[O_NODE_PAT] + node] if kind <= 11 else ti[to[O_NODE_LHS] + node]
    found = find(t, m, lhs)
    if kind == 10:
        return TRUE if found > 0 else FALSE
    if kind == 11:
        return TRUE if found == tf[node] else FALSE
    if found == 0:
        return FALSE
    rhs = ti[to[O_NODE_RHS] + node]
    if ti[to[O_PAT_BAD] + rhs * to[D_FRAMES] + reg[R_FRAME]]:
        reg[R_FALLBACK] = node
        return FALL
    if found >= 2:
        reg[R_EFFECT] = 1
    mr, mc = reg[M_MR], reg[M_MC]
    if kind == 12:
        q = int(draw(rng) * found)
        write(t, m, rhs, mi[mr + q], mi[mc + q])
        return TRUE
    for i in range(found - 1, 0, -1):
        j = int(draw(rng) * (i + 1))
        mi[mr + i], mi[mr + j] = mi[mr + j], mi[mr + i]
        mi[mc + i], mi[mc + j] = mi[mc + j], mi[mc + i]
    for q in range(found):
        if matches_at(t, m, lhs, mi[mr + q], mi[mc + q]):
            write(t, m, rhs, mi[mr + q], mi[mc + q])
    return TRUE


@kernel(inline=True)
def call(t, m, node, prev):
    """One call of ``node`` on top of the stack: NONE, FALSE, TRUE, or FALL (plain engine)."""
    ti, _, to = t
    mi, reg, _ = m
    kind = ti[to[O_NODE_TYPE] + node]
    if kind <= 8:
        return _control(t, m, node, kind, prev)
    if kind == 9:  # player
        if reg[R_MADE] >= 0:
            write(t, m, reg[R_MADE], reg[R_MADE_R], reg[R_MADE_C])
            reg[R_MADE] = -1
            return TRUE
        count = enumerate_choices(t, m, node)
        if count == 0:
            return FALSE
        reg[R_NCH] = count
        reg[R_HALT] = CHOICE
        return NONE
    if kind <= 13:
        return _tile(t, m, node, kind)
    if kind == SET_BOARD:
        reg[R_JOVER] = 1  # a whole new board: the journal cannot undo it
        k = ti[to[O_NODE_BOARD] + node]
        cells = to[D_L] * to[D_SPAN]
        source, board = to[O_SB_BOARD] + k * cells, reg[M_BOARD]
        for i in range(cells):
            mi[board + i] = ti[source + i]
        reg[R_FRAME] = ti[to[O_SB_FRAME] + k]
        rebuild(t, m)
        return TRUE
    if kind == 14:  # display-board: the wait is cleared at once
        if reg[R_DISPLAY]:
            reg[R_DISPLAY] = 0
            return TRUE
        reg[R_DISPLAY] = 1
        if reg[R_DRESET]:
            reg[R_STEPS] = 0  # as ``clear_display(reset=True)`` after this counted call
        return NONE
    reg[R_FALLBACK] = node
    return FALL


@kernel
def run(t, m):
    """Run to the next choice wait or the end (``Engine.run_to_choice``): CHOICE, DONE, FALLBACK."""
    _, _, to = t
    mi, reg, _ = m
    nodes = to[D_NODES]
    s_node = reg[M_S_NODE]
    while True:
        sp = reg[R_SP]
        if sp == 0:
            reg[R_RESULT] = nodes + 1  # stalemate
            return DONE
        reg[R_STEPS] += 1
        if reg[R_STEPS] >= STEP_LIMIT:
            reg[R_RESULT] = nodes + 2  # stepout
            return DONE
        got = call(t, m, mi[s_node + sp - 1], reg[R_PREV])
        if got == FALL:
            return FALLBACK
        reg[R_PREV] = got
        if got == NONE:
            if reg[R_HALT]:
                return reg[R_HALT]
        else:
            reg[R_SP] -= 1


@kernel
def choose(t, m, i):
    """Apply listed choice ``i`` (``Engine.choose`` with a budget reset); False: plain engine."""
    ti, _, to = t
    mi, reg, _ = m
    o = mi[reg[M_PC_OFFER] + i]
    rhs = ti[to[O_OFFER_RHS] + o]
    reg[R_HALT] = 0
    reg[R_STEPS] = 0
    if ti[to[O_PAT_BAD] + rhs * to[D_FRAMES] + reg[R_FRAME]]:
        return False
    r, c = mi[reg[M_PC_R] + i], mi[reg[M_PC_C] + i]
    write(t, m, rhs, r, c)
    reg[R_MADE], reg[R_MADE_R], reg[R_MADE_C] = rhs, r, c
    return True


@kernel
def load(t, m, words, row, st_data, st_off):
    """Set the machine to the packed state ``words[row]`` (at a choice wait or over)."""
    ti, _, to = t
    mi, reg, rng = m
    head = words[row, 0]
    frame = np.int64((head >> np.uint64(FRAME_SHIFT)) & np.uint64(FRAME_MASK))
    reg[R_FRAME] = frame
    cells = to[D_L] * to[D_SPAN]
    board, base = reg[M_BOARD], to[O_FR_BASE] + frame * cells
    for i in range(cells):
        mi[board + i] = ti[base + i]
    width = to[D_TILE_OF]
    for k in range(ti[to[O_FR_VAR_OFF] + frame], ti[to[O_FR_VAR_OFF] + frame + 1]):
        shift = np.uint64(ti[to[O_VAR_SHIFT] + k])
        mask = (np.uint64(1) << np.uint64(ti[to[O_VAR_BITS] + k])) - np.uint64(1)
        local = np.int64((words[row, ti[to[O_VAR_WORD] + k]] >> shift) & mask)
        mi[board + ti[to[O_VAR_CELL] + k]] = ti[to[O_TILE_OF] + k * width + local]
    rebuild(t, m)
    stack_id = np.int64(head & np.uint64(0xFFFFFFFF))
    reg[R_RESULT] = np.int64((head >> np.uint64(RESULT_SHIFT)) & np.uint64(RESULT_MASK))
    reg[R_PREV] = np.int64((head >> np.uint64(PREV_SHIFT)) & np.uint64(3)) - 1
    rng[0] = np.float64(words[row, 1]) if to[D_HEADER] == 2 else rng[1]
    reg[R_STEPS], reg[R_MADE], reg[R_DISPLAY], reg[R_HALT] = 0, -1, 0, 0
    reg[R_JOURNAL], reg[R_JN], reg[R_JOVER] = 0, 0, 0
    set_stack(t, m, st_data, st_off[stack_id], st_off[stack_id + 1])


@kernel(inline=True)
def set_stack(t, m, data, pos, end):
    """The stack from its encoding ``data[pos:end]`` (``encode_stack``)."""
    _, _, to = t
    mi, reg, _ = m
    sp = 0
    items = reg[M_S_ITEMS]
    while pos < end:
        mi[reg[M_S_NODE] + sp], mi[reg[M_S_IDX] + sp] = data[pos], data[pos + 1]
        mi[reg[M_S_ANY] + sp], mi[reg[M_S_TAG] + sp] = data[pos + 2], data[pos + 3]
        mi[reg[M_S_VAL] + sp] = data[pos + 4]
        pos += 5
        if data[pos - 2] == AUX_LIST:
            for i in range(data[pos - 1]):
                mi[items + sp * to[D_KIDS] + i] = data[pos + i]
            pos += data[pos - 1]
        sp += 1
    reg[R_SP] = sp


@kernel
def save_point(t, m):
    """Remember the machine at a choice wait, to come back to it after each child."""
    mi, reg, rng = m
    reg[R_SAVE_LEN] = encode_stack(t, m, reg[M_SAVE])
    reg[R_SAVE_PREV] = reg[R_PREV]
    rng[2] = rng[0]


@kernel
def rewind(t, m):
    """Back to the save point: the journal undone cell by cell, the stack and registers restored.

    Only valid while the journal has not overflowed (``R_JOVER``); else reload the state.
    """
    _, _, to = t
    mi, reg, rng = m
    span = to[D_SPAN]
    reg[R_JOURNAL] = 0
    jour = reg[M_JOUR]
    for q in range(reg[R_JN] - 1, -1, -1):
        at = mi[jour + 2 * q]
        set_cell(t, m, at // span, at % span, mi[jour + 2 * q + 1])
    reg[R_JN] = 0
    set_stack(t, m, mi, reg[M_SAVE], reg[M_SAVE] + reg[R_SAVE_LEN])
    reg[R_PREV] = reg[R_SAVE_PREV]
    reg[R_RESULT], reg[R_STEPS], reg[R_MADE], reg[R_DISPLAY], reg[R_HALT] = 0, 0, -1, 0, 0
    rng[0] = rng[2]


@kernel
def encode_stack(t, m, enc):
    """The stack as ints at ``mi[enc:]`` (``layout.encode_frames``); returns the length."""
    _, _, to = t
    mi, reg, _ = m
    n = 0
    for f in range(reg[R_SP]):
        tag = mi[reg[M_S_TAG] + f]
        mi[enc + n] = mi[reg[M_S_NODE] + f]
        mi[enc + n + 1] = mi[reg[M_S_IDX] + f]
        mi[enc + n + 2] = mi[reg[M_S_ANY] + f]
        mi[enc + n + 3] = tag
        mi[enc + n + 4] = mi[reg[M_S_VAL] + f] if tag == AUX_INT or tag == AUX_LIST else 0
        n += 5
        if tag == AUX_LIST:
            for i in range(mi[reg[M_S_VAL] + f]):
                mi[enc + n + i] = mi[reg[M_S_ITEMS] + f * to[D_KIDS] + i]
            n += mi[reg[M_S_VAL] + f]
    return n


@kernel
def pack(t, m, out, row, stack_id):
    """Write the machine's state into ``out[row]``; False when a cell left the layout."""
    ti, _, to = t
    mi, reg, rng = m
    for w in range(out.shape[1]):
        out[row, w] = 0
    prev = np.uint64(reg[R_PREV] + 1)
    frame = reg[R_FRAME]
    out[row, 0] = np.uint64(stack_id) | (np.uint64(reg[R_RESULT]) << np.uint64(RESULT_SHIFT)) | \
        (np.uint64(frame) << np.uint64(FRAME_SHIFT)) | (prev << np.uint64(PREV_SHIFT))
    if to[D_HEADER] == 2:
        out[row, 1] = np.uint64(rng[0])
    tiles, board = to[D_T], reg[M_BOARD]
    for k in range(ti[to[O_FR_VAR_OFF] + frame], ti[to[O_FR_VAR_OFF] + frame + 1]):
        local = ti[to[O_LOCAL_OF] + k * tiles + mi[board + ti[to[O_VAR_CELL] + k]]]
        if local < 0:
            return False
        out[row, ti[to[O_VAR_WORD] + k]] |= np.uint64(local) << np.uint64(ti[to[O_VAR_SHIFT] + k])
    return True


@kernel
def heuristic(t, m):
    """The sum of the heuristic terms on the machine's board (0 without terms)."""
    ti, _, to = t
    mi, reg, _ = m
    h = 0
    n = to[O_H_KIND + 1] - to[O_H_KIND]
    for q in range(n):
        kind = ti[to[O_H_KIND] + q]
        if kind < 0:
            continue
        if kind == 4:  # reach: its own tables, no pattern
            h += reach(t, m)
            continue
        found = find(t, m, ti[to[O_H_PAT] + q])
        if kind == 3 and reg[R_FRAME] == 0:  # distances of the start frame's cells
            cols = ti[to[O_FR_COLS]]
            for k in range(found):
                h += ti[to[O_DIST] + mi[reg[M_MR] + k] * cols + mi[reg[M_MC] + k]]
        elif kind == 0 or kind == 3:
            h += found
        else:
            h += 1 if (found > 0) == (kind == 1) else 0
    return h


@kernel
def doomed(t, m):
    """Whether the win's blocking pattern matches at a dead cell (see ``deadcells``)."""
    ti, _, to = t
    mi, reg, _ = m
    if to[D_PRUNE] < 0 or reg[R_FRAME] != 0:
        return False
    found = find(t, m, to[D_PRUNE])
    cols = ti[to[O_FR_COLS]]
    for q in range(found):
        if ti[to[O_DEAD] + mi[reg[M_MR] + q] * cols + mi[reg[M_MC] + q]]:
            return True
    return False
