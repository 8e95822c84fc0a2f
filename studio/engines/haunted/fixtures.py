"""Which matches of a tournament can be played now, for runners that play several at once.

:func:`~studio.engines.haunted.tournament.round_robin` and
:func:`~studio.engines.haunted.tournament.single_elimination` play their schedule one match
after another. A runner with many cores or machines asks :func:`open_fixtures` instead, plays
what it returns in any order and asks again as results come in; once nothing is open it hands
every result to the sequential function as ``done``, which then plays nothing and returns the
very result a sequential run gives. Each fixture carries its schedule number and seed, drawn
by its place in the schedule, never by when a result came in: that is what keeps a parallel run
identical to a sequential one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.match_data import MatchResult
from studio.engines.haunted.tournament import (
    DOUBLE_ROUND_ROBIN,
    SEMI_FINAL,
    SINGLE,
    THIRD_PLACE,
    Fixture,
    bracket,
    round_robin_schedule,
    seeding_order,
)


class _Numbering:
    """Schedule numbers and seeds as :class:`~studio.engines.haunted.tournament._Runner` draws
    them: one per match in play order, whether it can be played yet or not."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)
        self.number = 0

    def next(self) -> tuple[int, int]:
        self.number += 1
        return self.number, self.rng.next64() >> 1


def _winner(result: MatchResult, home: int, away: int) -> tuple[int, int]:
    """(winner, loser) as entrant indices."""
    return (home, away) if result.winner == "A" else (away, home)


def open_fixtures(mode: str, n: int, seed: int, done: Mapping[int, MatchResult], *,
                  school_sizes: Sequence[int] | None = None,
                  third_place: bool = False) -> list[Fixture]:
    """The matches not in ``done`` whose two entrants are known, in schedule order (see
    :func:`known_fixtures` for the arguments)."""
    return [f for f in known_fixtures(mode, n, seed, done, school_sizes=school_sizes,
                                      third_place=third_place) if f.number not in done]


def known_fixtures(mode: str, n: int, seed: int, done: Mapping[int, MatchResult], *,
                   school_sizes: Sequence[int] | None = None,
                   third_place: bool = False) -> list[Fixture]:
    """The matches whose two entrants are known, played (in ``done``) or not, in schedule order.

    Args:
        mode: a mode of :data:`~studio.engines.haunted.standings.MODES`.
        n: how many entrants (indices 0..n-1, registration order).
        seed: the tournament seed.
        done: results by schedule number, as the sequential functions take them.
        school_sizes, third_place: as :func:`~studio.engines.haunted.tournament.single_elimination`.

    Returns:
        Every match once the tournament is complete.
    """
    numbering = _Numbering(seed)
    found: list[Fixture] = []
    if mode != SINGLE:
        rounds = round_robin_schedule(n, mode == DOUBLE_ROUND_ROBIN)
        for index, pairs in enumerate(rounds, 1):
            for home, away in pairs:
                number, match_seed = numbering.next()
                found.append(Fixture(number, f"round robin {index}", home, away, match_seed))
        return found
    seeding = seeding_order(n, school_sizes)
    semi_losers: list[int] = []

    def decide(stage: str, home: int, away: int) -> int | None:
        number, match_seed = numbering.next()
        found.append(Fixture(number, stage, home, away, match_seed))
        result = done.get(number)
        if result is None:
            return None
        winner, loser = _winner(result, home, away)
        if stage == SEMI_FINAL:
            semi_losers.append(loser)
        return winner

    bracket(seeding, decide, lambda stage: numbering.next())
    if third_place and len(semi_losers) == 2:
        number, match_seed = numbering.next()
        home, away = sorted(semi_losers, key=seeding.index)
        found.append(Fixture(number, THIRD_PLACE, home, away, match_seed))
    return found
