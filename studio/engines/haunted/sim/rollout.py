"""The rollout AI behind ``builtin:montecarlo``: every turn, simulate before choosing.

For each combination of moves of its living monsters (steps onto holes and off the board left
out), the batch simulator plays the rest of the round many times from the position after that
turn: the opponent answers as ``lookahead`` would, with a little noise, and both sides play on
that way. The combination whose rollouts win most is played. Rollouts are spent in stages
(successive halving): every candidate gets a few, the better half gets more, and so on, so most
of the work goes to the moves that matter.

Deterministic: the rollout seeds come from the round's AI seed and the turn, and the number of
rollouts is fixed (:data:`STAGES`), never "as many as fit in the time", so the same match seed
gives the same moves on any machine. The counts are sized to answer in a fraction of the 2 s
limit with the numba kernel; where the kernel cannot run, :class:`RolloutAI` answers as
``lookahead`` (``fallback`` says why), because the plain path would be far too slow.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from studio.engines import jit
from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.rules import RoundState

from . import kernels as k
from .batch import Outcomes, Policy, play
from .plain import DELTA, MOVE_NAMES, choose

ROLLOUT_POLICY = Policy("lookahead", 0.1)
"""How both sides play in the rollouts."""
STAGES = (24, 48, 96, 192)
"""Rollouts per surviving candidate in each stage on a 7×7 board; half the candidates survive a
stage. Bigger boards get proportionally fewer (their rounds last longer), and so do turns with
many candidates (:data:`BUDGET`): the dearest turns then take about 0.2 s on one core of the
reference machine, whatever the board, a tenth of the time limit."""
BASE_AREA = 49
BUDGET = 3000
"""Most rollouts in one turn on a 7×7 board (125 candidates would otherwise take 11,800)."""
MAX_CANDIDATES = 125


def state_of(game_state: dict) -> RoundState:
    """The engine's state from an AI's snapshot (§7.1); tiles broken so far are not in it."""
    n = game_state["boardSize"][0]
    strengths = tuple(v for row in game_state["tileStates"] for v in row)
    monsters = [*game_state["teamStates"]["home"], *game_state["teamStates"]["away"]]
    return RoundState(size=n, strengths=strengths,
                      positions=tuple((m["coord"][0], m["coord"][1]) for m in monsters),
                      alive=tuple(not m["isDead"] for m in monsters), broken=(0, 0), turn=1,
                      max_turns=(sum(strengths) + 6) // 2)


def candidates(state: RoundState, side: int) -> list[tuple[int, ...]]:
    """Move triples worth simulating for ``side``, lookahead's choice first.

    A living monster considers the moves onto tiles that survive its hit; with none, every
    in-board move onto a tile (it falls either way, but it may take a tile with it).
    """
    n = state.size
    options = []
    for i in range(3):
        kk = 3 * side + i
        if not state.alive[kk]:
            options.append((0,))
            continue
        r0, c0 = state.positions[kk]
        moves = [(m, state.strengths[(r0 + dr) * n + c0 + dc]) for m, (dr, dc) in enumerate(DELTA)
                 if 0 <= r0 + dr < n and 0 <= c0 + dc < n]
        good = [m for m, s in moves if s >= 2] or [m for m, s in moves if s >= 1] or [0]
        options.append(tuple(good))
    first = tuple(choose(k.LOOKAHEAD, 0.0, side, state, SplitMix64(0)))
    triples = [first] + [t for t in itertools.product(*options) if t != first]
    return triples[:MAX_CANDIDATES]


def _scores(out: Outcomes, side: int, count: int, per: int) -> np.ndarray:
    """Mean result per candidate from ``side``'s view: a win 1, a tie 0.5, a loss 0."""
    mine = np.where(out.winner == side, 1.0, np.where(out.winner == k.NOBODY, 0.5, 0.0))
    return mine.reshape(count, per).mean(axis=1)


def best_moves(state: RoundState, side: int, seed: int, stages: Sequence[int] = STAGES,
               plain: bool | None = None) -> tuple[int, ...]:
    """The move triple (0 none, 1 north, 2 east, 3 south, 4 west) the rollouts like best."""
    triples = candidates(state, side)
    if len(triples) == 1:
        return triples[0]
    planned, count = 0, len(triples)
    for per in stages:
        planned, count = planned + count * per, max(1, count // 2)
    scale = min(1.0, BASE_AREA / (state.size * state.size), BUDGET / planned)
    stages = [max(4, round(per * scale)) for per in stages]
    rng = SplitMix64(seed)
    # Neither side mirrored: the built-ins rank their tie-breaks the same way on both sides, and
    # an unknown opponent is best guessed as one of them.
    home = away = ROLLOUT_POLICY
    alive = list(range(len(triples)))
    totals = np.zeros(len(triples))
    counts = np.zeros(len(triples))
    for per in stages:
        if len(alive) == 1:
            break
        first = np.full((len(alive) * per, 6), -1, np.int64)
        for row, index in enumerate(alive):
            first[row * per:(row + 1) * per, 3 * side:3 * side + 3] = triples[index]
        seeds = np.array([rng.next64() for _ in range(len(first))], np.uint64)
        out = play(state, home, away, seeds, first=first, plain=plain)
        scores = _scores(out, side, len(alive), per)
        for index, score in zip(alive, scores):
            totals[index] += score * per
            counts[index] += per
        ranked = sorted(alive, key=lambda i: (-totals[i] / counts[i], i))
        alive = ranked[:max(1, len(ranked) // 2)]
    best = min(alive, key=lambda i: (-totals[i] / counts[i], i))
    return triples[best]


class RolloutAI:
    """One round's player: ``move(game_state, side)`` answers a turn (a list of move names).

    Args:
        seed: the round's AI seed (the worker seeds ``random`` with it; the AI draws this from it).
        simulate: whether the kernel may run (False: answer as lookahead, and say why).
    """

    def __init__(self, seed: int, simulate: bool | None = None, why: str = "") -> None:
        self.seed = seed
        self.turn = 0
        if simulate is None:
            simulate, why = jit.available(), jit.reason()
        self.simulate = simulate
        self.fallback = "" if simulate else (why or "the simulator cannot run here")

    def move(self, game_state: dict, side: str) -> list[str]:
        self.turn += 1
        state = state_of(game_state)
        number = 0 if side == "home" else 1
        if self.simulate:
            seed = SplitMix64(self.seed ^ (self.turn * 0x9E3779B97F4A7C15 % (1 << 64))).next64()
            moves = best_moves(state, number, seed)
        else:
            moves = choose(k.LOOKAHEAD, 0.0, number, state, SplitMix64(0))
        return [MOVE_NAMES[m] for m in moves]
