"""Play many rounds at once between simple policies: the numba kernel, or plain Python.

    outcomes = play(state, Policy("greedy", 0.1), Policy("safe"), seeds=range(10_000))

Outcomes are arrays (winner 0 home / 1 away / 2 nobody, reason 0 eliminated / 1 tiebreak / 2 tie,
broken tiles per team, turns played); the same start, policies and seeds give the same outcomes
on both paths (``plain=True`` forces the reference).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from studio.engines import jit
from studio.engines.haunted.board import Map
from studio.engines.haunted.rules import Round, RoundState

from . import kernels as k
from . import plain as reference


@dataclass(frozen=True)
class Policy:
    """A simple policy: ``random``, ``safe``, ``greedy`` or ``lookahead``, with ``noise`` the
    probability that a monster plays a random safe move instead."""

    kind: str
    noise: float = 0.0
    mirrored: bool = False
    """Rank moves as seen from the other end of the board (south before north in tie-breaks)."""

    def __post_init__(self) -> None:
        if self.kind not in k.POLICIES:
            raise ValueError(f"unknown policy {self.kind!r}: one of {', '.join(k.POLICIES)}")
        if not 0.0 <= self.noise <= 1.0:
            raise ValueError(f"noise must be in [0, 1], not {self.noise}")

    def __str__(self) -> str:
        return self.kind if not self.noise else f"{self.kind}~{self.noise:g}"

    def mirror(self) -> Policy:
        return Policy(self.kind, self.noise, not self.mirrored)

    @property
    def code(self) -> int:
        return k.POLICIES[self.kind] + (k.MIRRORED if self.mirrored else 0)


@dataclass
class Outcomes:
    """One row per round."""

    winner: np.ndarray
    reason: np.ndarray
    broken: np.ndarray
    """``broken[round] = (home, away)``."""
    turns: np.ndarray
    """Turns played from the start given."""

    def counts(self) -> tuple[int, int, int]:
        """(home wins, away wins, rounds nobody won)."""
        return tuple(int((self.winner == w).sum()) for w in (k.HOME, k.AWAY, k.NOBODY))


def start_of(board: Map) -> RoundState:
    return Round(board).initial_state()


def _arrays(state: RoundState) -> tuple:
    n = state.size
    tiles = np.array(state.strengths, np.int64)
    pos = np.array(state.positions, np.int64).reshape(6, 2)
    alive = np.array(state.alive, np.int64)
    broken = np.array(state.broken, np.int64)
    return n, tiles, pos, alive, broken


def play(state: RoundState, home: Policy, away: Policy, seeds: Iterable[int], *,
         first: np.ndarray | None = None, plain: bool | None = None) -> Outcomes:
    """Play one round per seed from ``state`` (usually a map's start; any state between turns).

    Args:
        first: per round, six forced moves for the first turn (0 none, 1 north, 2 east, 3 south,
            4 west; -1 for a side whose policy chooses), e.g. the candidates of a rollout AI.
        plain: run the plain-Python reference (default: only where numba cannot load).
    """
    seeds = np.asarray(list(seeds) if not isinstance(seeds, np.ndarray) else seeds, dtype=np.uint64)
    count = len(seeds)
    if first is None:
        first = np.full((count, 6), -1, np.int64)
    kinds = np.array([home.code, away.code], np.int64)
    noise = np.array([home.noise, away.noise], np.float64)
    if plain or (plain is None and not jit.available()):
        return _play_plain(state, kinds, noise, seeds, first)
    args = _kernel_args(state, kinds, noise, seeds, first)
    k.play_rounds(*args)
    out = args[9]
    return Outcomes(out[:, k.O_WINNER], out[:, k.O_REASON], out[:, k.O_BROKEN_HOME:k.O_BROKEN_AWAY + 1],
                    out[:, k.O_TURNS])


def _kernel_args(state: RoundState, kinds: np.ndarray, noise: np.ndarray, seeds: np.ndarray,
                 first: np.ndarray) -> tuple:
    """``play_rounds``' arguments: the start, the policies, and scratch (the kernel allocates nothing)."""
    n, tiles, pos, alive, broken = _arrays(state)
    out = np.zeros((len(seeds), 5), np.int64)
    scratch = [np.zeros(n * n + 4, np.int64) for _ in range(4)]
    return (n, tiles, pos, alive, broken, kinds, noise, seeds, np.asarray(first, np.int64), out,
            *scratch, np.zeros((6, 2), np.int64), np.zeros(6, np.int64), np.zeros(2, np.int64),
            np.zeros(6, np.int64), np.zeros(1, np.uint64))


def _play_plain(state: RoundState, kinds: np.ndarray, noise: np.ndarray, seeds: np.ndarray,
                first: np.ndarray) -> Outcomes:
    codes = {"home": k.HOME, "away": k.AWAY, None: k.NOBODY}
    reasons = {"eliminated": k.ELIMINATED, "tiebreak": k.TIEBREAK, "tie": k.TIE}
    rows = []
    for seed, forced in zip(seeds.tolist(), first.tolist()):
        end, turns = reference.play_round(state, kinds.tolist(), noise.tolist(), seed, forced)
        rows.append((codes[end.end.winner], reasons[end.end.reason], *end.end.broken, turns))
    out = np.array(rows, np.int64).reshape(-1, 5)
    return Outcomes(out[:, 0], out[:, 1], out[:, 2:4], out[:, 4])


def load_compiled() -> tuple[bool, str]:
    """Load the kernel's machine code from numba's cache without compiling: (loaded, why not).

    For processes that must not spend seconds compiling (an AI worker answering within its
    load limit): where this says False, the kernel would compile on its first call.
    """
    if not jit.available():
        return False, jit.reason()
    from studio.engines.haunted.maps import original_maps  # noqa: PLC0415

    kinds, noise = np.zeros(2, np.int64), np.zeros(2, np.float64)
    seeds, first = np.zeros(1, np.uint64), np.full((1, 6), -1, np.int64)
    args = _kernel_args(start_of(original_maps()[0]), kinds, noise, seeds, first)
    if jit.load_cached(k.play_rounds, *args):
        return True, ""
    return False, "the simulator is not compiled yet (the studio compiles it before a match)"


def warm_up() -> None:
    """Compile (or load from the cache) the kernel with a few tiny rounds."""
    from studio.engines.haunted.maps import original_maps  # noqa: PLC0415

    play(start_of(original_maps()[0]), Policy("greedy", 0.1), Policy("lookahead"), range(2))


def seeds_for(seed: int, count: int) -> Sequence[int]:
    """``count`` round seeds drawn from ``seed`` (SplitMix64), for reproducible batches."""
    from studio.engines.common.splitmix import SplitMix64  # noqa: PLC0415

    rng = SplitMix64(seed)
    return [rng.next64() for _ in range(count)]


if __name__ == "__main__":
    warm_up()
