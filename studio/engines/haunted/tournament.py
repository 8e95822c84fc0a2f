"""Tournaments (spec haunted.md §11): single elimination and round robin with Elo.

Every match is a full :func:`~studio.engines.haunted.match.run_match` and keeps its replay.
Match seeds come from the tournament seed: ``next64() >> 1`` of a SplitMix64 seeded with it,
drawn in schedule order (byes draw nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from studio.engines.common.splitmix import SplitMix64
from studio.engines.haunted.board import Map
from studio.engines.haunted.match import Entrant, MatchConfig, MatchResult, run_match

ELO_START, ELO_K = 1500.0, 32.0
SINGLE, ROUND_ROBIN, DOUBLE_ROUND_ROBIN = "single-elimination", "round-robin", "double-round-robin"
MODES = (SINGLE, ROUND_ROBIN, DOUBLE_ROUND_ROBIN)


@dataclass
class Played:
    """One scheduled match: entrant indices (0-based, registration order) and its outcome."""

    stage: str
    """``round 1``, ``semi-final``, ``final``, ``third place`` or ``round robin k``."""
    home: int
    away: int
    seed: int
    result: MatchResult
    number: int = 0
    """Position in the schedule, 1-based, in play order."""

    @property
    def winner(self) -> int:
        return self.home if self.result.winner == "A" else self.away

    @property
    def loser(self) -> int:
        return self.away if self.result.winner == "A" else self.home


@dataclass
class TournamentResult:
    mode: str
    names: list[str]
    """Entrant names in registration order."""
    matches: list[Played] = field(default_factory=list)
    byes: list[tuple[str, int]] = field(default_factory=list)
    """(stage, entrant) for every bye."""
    ratings: list[float] = field(default_factory=list)
    """Elo per entrant (round robin)."""
    standings: list[int] = field(default_factory=list)
    """Entrant indices, best first (champion first in single elimination)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "entrants": self.names,
            "matches": [
                {"stage": m.stage, "home": self.names[m.home], "away": self.names[m.away],
                 "seed": m.seed, "winner": self.names[m.winner],
                 "wins": {self.names[m.home]: m.result.wins["A"], self.names[m.away]: m.result.wins["B"]},
                 "ties": m.result.ties, "coin_toss": m.result.coin_toss is not None}
                for m in self.matches
            ],
            "byes": [{"stage": s, "entrant": self.names[e]} for s, e in self.byes],
            "ratings": {self.names[i]: round(r, 1) for i, r in enumerate(self.ratings)},
            "standings": [self.names[i] for i in self.standings],
        }


OnMatch = Callable[[Played], None]


def bracket_order(size: int) -> list[int]:
    """Seed numbers in slot order for a bracket of ``size`` (a power of two), §11.1.

    ``order(1) = [1]``; ``order(2m) = [s, 2m + 1 - s for each s in order(m)]``.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        m2 = 2 * len(order)
        order = [x for s in order for x in (s, m2 + 1 - s)]
    return order


def elo_update(r_a: float, r_b: float, a_won: bool, k: float = ELO_K) -> tuple[float, float]:
    """The ratings after one match (§11.2); a match always has a winner."""
    expected_a = 1 / (1 + 10 ** ((r_b - r_a) / 400))
    score_a = 1.0 if a_won else 0.0
    return r_a + k * (score_a - expected_a), r_b + k * ((1 - score_a) - (1 - expected_a))


def round_robin_schedule(n: int, double: bool = False) -> list[list[tuple[int, int]]]:
    """Rounds of (home, away) pairs by the circle method on indices 0..n-1 (byes left out).

    Entrant 0 stays put and the others rotate; with ``double`` the whole schedule is played again
    with sides exchanged.
    """
    ring: list[int | None] = list(range(n)) + ([None] if n % 2 else [])
    m = len(ring)
    rounds = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = ring[i], ring[m - 1 - i]
            if a is None or b is None:
                continue
            if i == 0 and r % 2 == 1:
                a, b = b, a  # the fixed entrant alternates sides
            pairs.append((a, b))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    if double:
        rounds += [[(b, a) for a, b in pairs] for pairs in rounds]
    return rounds


class _Runner:
    """Plays the schedule in order, drawing match seeds; reuses matches already played."""

    def __init__(self, entrants, maps, config, seed, on_match, done) -> None:
        self.entrants = entrants
        self.maps = maps
        self.config = config
        self.rng = SplitMix64(seed)
        self.on_match = on_match
        self.done: dict[int, MatchResult] = done or {}
        self.number = 0

    def play(self, stage: str, home: int, away: int) -> Played:
        seed = self.rng.next64() >> 1  # drawn even when resuming: later seeds stay the same
        self.number += 1
        result = self.done.get(self.number)
        if result is None:
            result = run_match(self.entrants[home], self.entrants[away], self.maps, self.config, seed)
            played = Played(stage, home, away, seed, result, self.number)
            if self.on_match is not None:
                self.on_match(played)
            return played
        teams = result.replay.get("teams", {})
        names = (teams.get("A", {}).get("name"), teams.get("B", {}).get("name"))
        if names != (self.entrants[home].name, self.entrants[away].name):
            raise ValueError(f"saved match {self.number} is {names[0]} vs {names[1]}, the schedule "
                             f"says {self.entrants[home].name} vs {self.entrants[away].name}")
        return Played(stage, home, away, seed, result, self.number)


def _stage_name(players_left: int) -> str:
    return {2: "final", 4: "semi-final", 8: "quarter-final"}.get(players_left, f"last {players_left}")


def single_elimination(
    entrants: Sequence[Entrant],
    maps: dict[str, Map],
    config: MatchConfig = MatchConfig(),
    seed: int = 0,
    *,
    school_sizes: Sequence[int] | None = None,
    third_place: bool = False,
    on_match: OnMatch | None = None,
    done: dict[int, MatchResult] | None = None,
) -> TournamentResult:
    """A single-elimination bracket; seeds by registration order, or by school size descending.

    ``done`` maps schedule numbers (1-based, in play order) to results of matches already played
    (resuming an interrupted run): they are not played again and ``on_match`` is not called.

    Returns:
        The result; ``standings`` starts with the champion, then the runner-up, then (with
        ``third_place``) the third.
    """
    n = len(entrants)
    if n < 2:
        raise ValueError("a tournament needs at least two entrants")
    seeding = list(range(n))
    if school_sizes is not None:
        seeding.sort(key=lambda i: -school_sizes[i])  # stable: registration order breaks ties
    size = 1
    while size < n:
        size *= 2
    # Slots hold seed numbers (1-based); a seed above n is a bye.
    slots: list[int | None] = [s if s <= n else None for s in bracket_order(size)]
    result = TournamentResult(SINGLE, [e.name for e in entrants])
    runner = _Runner(entrants, maps, config, seed, on_match, done)
    semi_losers: list[int] = []
    while len(slots) > 1:
        stage = _stage_name(len(slots))
        advancing: list[int | None] = []
        for a, b in zip(slots[0::2], slots[1::2]):
            if a is None or b is None:
                through = a if b is None else b
                if through is not None:
                    result.byes.append((stage, seeding[through - 1]))
                advancing.append(through)
                continue
            better, worse = min(a, b), max(a, b)  # the better seed is home
            played = runner.play(stage, seeding[better - 1], seeding[worse - 1])
            result.matches.append(played)
            advancing.append(better if played.winner == seeding[better - 1] else worse)
            if len(slots) == 4:
                semi_losers.append(played.loser)
        slots = advancing
    champion = seeding[slots[0] - 1]  # type: ignore[operator]
    final = result.matches[-1] if result.matches else None
    result.standings = [champion]
    if final is not None:
        result.standings.append(final.loser)
    if third_place and len(semi_losers) == 2:
        played = runner.play("third place", *sorted(semi_losers, key=seeding.index))
        result.matches.append(played)
        result.standings.append(played.winner)
    return result


def round_robin(
    entrants: Sequence[Entrant],
    maps: dict[str, Map],
    config: MatchConfig = MatchConfig(),
    seed: int = 0,
    *,
    double: bool = False,
    on_match: OnMatch | None = None,
    done: dict[int, MatchResult] | None = None,
) -> TournamentResult:
    """Every pair meets once (twice with sides exchanged when ``double``); Elo after each match.

    Standings: match wins, then round-win difference, then Elo, then registration order.
    ``done`` resumes an interrupted run, as in :func:`single_elimination`.
    """
    n = len(entrants)
    if n < 2:
        raise ValueError("a tournament needs at least two entrants")
    result = TournamentResult(DOUBLE_ROUND_ROBIN if double else ROUND_ROBIN, [e.name for e in entrants])
    ratings = [ELO_START] * n
    match_wins = [0] * n
    round_diff = [0] * n
    runner = _Runner(entrants, maps, config, seed, on_match, done)
    for number, pairs in enumerate(round_robin_schedule(n, double), 1):
        playing = {i for pair in pairs for i in pair}
        result.byes += [(f"round robin {number}", i) for i in range(n) if i not in playing]
        for home, away in pairs:
            played = runner.play(f"round robin {number}", home, away)
            result.matches.append(played)
            a_won = played.winner == home
            ratings[home], ratings[away] = elo_update(ratings[home], ratings[away], a_won)
            match_wins[played.winner] += 1
            diff = played.result.wins["A"] - played.result.wins["B"]
            round_diff[home] += diff
            round_diff[away] -= diff
    result.ratings = ratings
    result.standings = sorted(range(n), key=lambda i: (-match_wins[i], -round_diff[i], -ratings[i], i))
    return result
