"""Random playouts on the solver's kernel: the machine of :mod:`.machine` with a random mover.

A playout starts from an engine state at a choice wait (``set_machine``), then every choice is
drawn with the studio's SplitMix64 exactly as ``SplitMix64.below`` draws it, so the kernel and
the plain engine consume the same generator the same way and play the same game. ``advance``
stops at the end, at a node the kernel leaves to the plain engine, or after a number of moves
(so the caller can look at the clock between stretches). See :mod:`.playout` for the driver.
"""

from __future__ import annotations

import numpy as np

from studio.engines.jit import kernel

from .machine import run, set_stack
from .tables import D_FRAMES, D_L, D_SPAN, O_OFFER_RHS, O_PAT_BAD
from .vm import CHOICE, DONE, FALLBACK, M_BOARD, M_CH_C, M_CH_OFFER, M_CH_R, R_DISPLAY, R_DRESET, \
    R_FRAME, R_HALT, R_JN, R_JOURNAL, R_JOVER, R_MADE, R_MADE_C, R_MADE_R, R_NCH, R_PREV, R_RESULT, \
    R_STEPS, rebuild, write

PAUSE = 4
"""What ``advance`` returns when it stopped at its move limit (with CHOICE pending)."""
GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@kernel(inline=True)
def next64(state):
    z = state[0] + GAMMA
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@kernel(inline=True)
def below(state, n):
    """``SplitMix64.below(n)``: the same rejection bound, so the same draws are consumed."""
    if n == 1:
        return 0
    un = np.uint64(n)
    rest = (np.uint64(0) - un) % un  # 2^64 mod n; the accepted bound is 2^64 - rest
    while True:
        x = next64(state)
        if rest == np.uint64(0) or x < np.uint64(0) - rest:
            return np.int64(x % un)


@kernel
def set_machine(t, m, frame, board, stack, prev, rng_state):
    """The machine at an engine's choice wait: board codes, encoded stack, ``prev``, engine RNG.

    The player on top of the stack lists its choices again at the first ``run``, as after a
    ``load`` of the solver.
    """
    _, _, to = t
    mi, reg, rng = m
    reg[R_FRAME] = frame
    at = reg[M_BOARD]
    for i in range(to[D_L] * to[D_SPAN]):
        mi[at + i] = board[i]
    rebuild(t, m)
    reg[R_RESULT], reg[R_PREV] = 0, prev
    rng[0] = rng_state
    reg[R_STEPS], reg[R_MADE], reg[R_DISPLAY], reg[R_HALT] = 0, -1, 0, 0
    reg[R_JOURNAL], reg[R_JN], reg[R_JOVER] = 0, 0, 0
    set_stack(t, m, stack, 0, len(stack))


@kernel
def advance(t, m, chooser, limit, out, io, display_reset):
    """Random moves until the end (DONE), a node for the plain engine (FALLBACK), or until
    ``io[0]`` (moves made so far, updated) reaches ``limit`` at a choice wait (PAUSE).

    Each move's index goes to ``out[move]`` while it fits. A call after PAUSE goes on from the
    wait without listing the choices again.
    """
    ti, _, to = t
    mi, reg, _ = m
    reg[R_DRESET] = display_reset
    made = io[0]
    status = PAUSE
    while True:
        if reg[R_HALT] != CHOICE:
            got = run(t, m)
            if got != CHOICE:
                status = DONE if got == DONE else FALLBACK
                break
        if made >= limit:
            break
        i = below(chooser, reg[R_NCH])
        if made < len(out):
            out[made] = i
        made += 1
        # ``machine.choose`` on the listed choice (the solver's reads a copy of the list)
        o = mi[reg[M_CH_OFFER] + i]
        rhs = ti[to[O_OFFER_RHS] + o]
        reg[R_HALT] = 0
        reg[R_STEPS] = 0
        if ti[to[O_PAT_BAD] + rhs * to[D_FRAMES] + reg[R_FRAME]]:
            status = FALLBACK
            break
        r, c = mi[reg[M_CH_R] + i], mi[reg[M_CH_C] + i]
        write(t, m, rhs, r, c)
        reg[R_MADE], reg[R_MADE_R], reg[R_MADE_C] = rhs, r, c
    io[0] = made
    return status
