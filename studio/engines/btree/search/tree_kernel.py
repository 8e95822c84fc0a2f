"""The search tree's moves on the kernel: a position as one int array, a move as one call.

The computer seat (:mod:`.mcts`) keeps a position of a game the kernel can run as a flat state
(``[frame, prev, result, stack length, board codes..., encoded stack...]``) instead of an engine
snapshot, and expands a move with :func:`expand`: the machine loaded from that state, the choice
made, and the run to the next choice wait or the end, the same run as ``Engine.choose`` and
``run_to_wait`` with display waits cleared (see :mod:`.vm`). The state's bytes are the position's
key: everything the engine's key holds at a wait except the RNG, which the search leaves out too.
"""

from __future__ import annotations

from studio.engines.jit import kernel

from .machine import encode_stack, run, set_stack
from .tables import D_FRAMES, D_L, D_SPAN, O_OFFER_RHS, O_PAT_BAD
from .vm import CHOICE, FALLBACK, M_BOARD, M_CH_C, M_CH_OFFER, M_CH_R, M_ENC, M_S_NODE, R_DISPLAY, \
    R_DRESET, R_FRAME, R_HALT, R_JN, R_JOURNAL, R_JOVER, R_MADE, R_MADE_C, R_MADE_R, R_NCH, R_PREV, \
    R_RESULT, R_SP, R_STEPS, rebuild, write

HEAD = 4
"""Words of a flat state before its board: frame, prev (-1 None, 0 False, 1 True), result code,
the stack's length."""


@kernel
def load_state(t, m, st, rng_state):
    """The machine at the flat state ``st`` (a choice wait or an end), with this engine RNG."""
    _, _, to = t
    mi, reg, rng = m
    reg[R_FRAME] = st[0]
    cells = to[D_L] * to[D_SPAN]
    at = reg[M_BOARD]
    for i in range(cells):
        mi[at + i] = st[HEAD + i]
    rebuild(t, m)
    reg[R_PREV], reg[R_RESULT] = st[1], st[2]
    rng[0] = rng_state
    reg[R_STEPS], reg[R_MADE], reg[R_DISPLAY], reg[R_HALT] = 0, -1, 0, 0
    reg[R_JOURNAL], reg[R_JN], reg[R_JOVER] = 0, 0, 0
    set_stack(t, m, st, HEAD + cells, HEAD + cells + st[3])


@kernel
def expand(t, m, st, rng_state, index, display_reset, out, io, fio):
    """Choice ``index`` at the wait of ``st``, run to the next choice wait or the end.

    Returns CHOICE or DONE with the flat state in ``out`` (its length in ``io[0]``), the choices
    at the new wait in ``io[1]``, the player node on top of the stack in ``io[2]`` and the engine
    RNG after the run in ``fio[0]``; or FALLBACK where the move needs the plain engine.
    """
    ti, _, to = t
    mi, reg, rng = m
    load_state(t, m, st, rng_state)
    reg[R_DRESET] = display_reset
    if run(t, m) != CHOICE or index >= reg[R_NCH]:  # the wait's choices, listed again
        return FALLBACK
    # ``playout_kernel.advance``'s move: the rhs written, the player node returns True next
    o = mi[reg[M_CH_OFFER] + index]
    rhs = ti[to[O_OFFER_RHS] + o]
    reg[R_HALT] = 0
    reg[R_STEPS] = 0
    if ti[to[O_PAT_BAD] + rhs * to[D_FRAMES] + reg[R_FRAME]]:
        return FALLBACK
    r, c = mi[reg[M_CH_R] + index], mi[reg[M_CH_C] + index]
    write(t, m, rhs, r, c)
    reg[R_MADE], reg[R_MADE_R], reg[R_MADE_C] = rhs, r, c
    got = run(t, m)
    if got == FALLBACK:
        return FALLBACK
    cells = to[D_L] * to[D_SPAN]
    out[0], out[1], out[2] = reg[R_FRAME], reg[R_PREV], reg[R_RESULT]
    at = reg[M_BOARD]
    for i in range(cells):
        out[HEAD + i] = mi[at + i]
    n = encode_stack(t, m, reg[M_ENC])
    enc = reg[M_ENC]
    for i in range(n):
        out[HEAD + cells + i] = mi[enc + i]
    out[3] = n
    io[0] = HEAD + cells + n
    io[1] = reg[R_NCH] if got == CHOICE else 0
    io[2] = mi[reg[M_S_NODE] + reg[R_SP] - 1] if reg[R_SP] > 0 else -1
    fio[0] = rng[0]
    return got
