"""Fairness of a map by simulation: does home or away win more when both play alike?

For each policy pair the batch simulator plays ``rounds`` rounds on the map; the home share of
the decided rounds comes with a 95% Wilson interval. With the same policy on both sides (away's
mirrored, so that its tie-breaks prefer "towards the enemy" as home's do), a fair map keeps 50%
inside the interval; one that does not says which side it favours and by how much.
Cross pairs (one policy against another) show how much the map rewards playing well. The static
check of §10.3 (mirror symmetry) is reported beside it: a symmetric map can still favour home,
because home's monsters act first within each phase of a turn.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from studio.engines import jit
from studio.engines.haunted.board import Map

from .batch import Outcomes, Policy, play, seeds_for, start_of

SAME = (Policy("safe"), Policy("greedy", 0.2), Policy("lookahead", 0.2))
"""Policies each played against itself (greedy and lookahead with noise, so rounds differ)."""
CROSS = ((Policy("safe"), Policy("greedy", 0.2)), (Policy("greedy", 0.2), Policy("safe")))
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 1 for no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class PairResult:
    """The rounds of one policy pair on one map."""

    home: Policy
    away: Policy
    rounds: int
    home_wins: int
    away_wins: int
    ties: int
    seconds: float

    @property
    def decided(self) -> int:
        return self.home_wins + self.away_wins

    @property
    def share(self) -> float:
        """Home's share of the decided rounds (0.5 when none was decided)."""
        return self.home_wins / self.decided if self.decided else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.home_wins, self.decided)

    @property
    def verdict(self) -> str:
        """For a pair of equals: balanced, or which side the map favours."""
        if (self.home.kind, self.home.noise) != (self.away.kind, self.away.noise):
            return ""
        low, high = self.interval
        if low <= 0.5 <= high:
            return "balanced"
        side = "home" if low > 0.5 else "away"
        return f"favours {side} by {abs(self.share - 0.5) * 100:.1f} points"

    def line(self) -> str:
        low, high = self.interval
        text = (f"{str(self.home):>14} vs {str(self.away):<14} home {self.share * 100:5.1f}% "
                f"[{low * 100:.1f}-{high * 100:.1f}] of {self.decided:,} decided, "
                f"{self.ties:,} ties, {self.seconds:.2f} s")
        return text + (f"  {self.verdict}" if self.verdict else "")

    def to_json(self) -> dict:
        low, high = self.interval
        return {"home": str(self.home), "away": str(self.away), "rounds": self.rounds,
                "home_wins": self.home_wins, "away_wins": self.away_wins, "ties": self.ties,
                "home_share": round(self.share, 4), "low": round(low, 4), "high": round(high, 4),
                "verdict": self.verdict, "seconds": round(self.seconds, 3)}


def check(board: Map, rounds: int = 10_000, seed: int = 1,
          pairs: Sequence[tuple[Policy, Policy]] | None = None, plain: bool | None = None,
          jobs: int | None = None) -> list[PairResult]:
    """Play ``rounds`` rounds per pair (default: each of ``SAME`` against itself, then ``CROSS``).

    Args:
        jobs: threads sharing each pair's rounds (default: one per core, at most 4). The kernel
            releases the interpreter's lock, so they run in parallel; every round has its own
            seed, so the outcomes are the same for any number of threads.
    """
    if pairs is None:
        pairs = [(p, p.mirror()) for p in SAME] + [(home, away.mirror()) for home, away in CROSS]
    compiled = not plain and jit.available()
    jobs = max(1, min(jobs or os.cpu_count() or 1, 4)) if compiled else 1
    start = start_of(board)
    results = []
    with ThreadPoolExecutor(jobs) as pool:
        for number, (home, away) in enumerate(pairs):
            seeds = np.array(seeds_for(seed + number, rounds), np.uint64)
            began = time.perf_counter()
            parts = list(pool.map(lambda part: play(start, home, away, part, plain=plain),
                                  np.array_split(seeds, jobs)))
            wins = _joined(parts).counts()
            results.append(PairResult(home, away, rounds, wins[0], wins[1], wins[2],
                                      time.perf_counter() - began))
    return results


def _joined(parts: list[Outcomes]) -> Outcomes:
    return Outcomes(*(np.concatenate([getattr(p, name) for p in parts])
                      for name in ("winner", "reason", "broken", "turns")))


def summary(board: Map, results: Sequence[PairResult]) -> str:
    """One line: balanced or not, over the pairs of equals, plus the static symmetry check."""
    # Each figure with its pair: three "favours away by N points" read as one finding.
    unfair = [f"{r.home}: {r.verdict}" for r in results if r.verdict and r.verdict != "balanced"]
    symmetric = "mirror-symmetric" if board.is_symmetric() else "not mirror-symmetric"
    if unfair:
        return f"{board.name}: {symmetric}; unbalanced: {'; '.join(sorted(set(unfair)))}"
    return f"{board.name}: {symmetric}; balanced for every pair of equal policies"


def parse_policy(text: str) -> Policy:
    """``greedy``, ``greedy~0.2`` (with noise 0.2).

    Raises:
        ValueError: an unknown policy or a noise that is not a number in [0, 1], saying which.
    """
    kind, _, noise = text.partition("~")
    try:
        value = float(noise) if noise else 0.0
    except ValueError:
        raise ValueError(f"noise {noise!r} of {text!r} is not a number (e.g. greedy~0.2)") from None
    return Policy(kind.strip(), value)
