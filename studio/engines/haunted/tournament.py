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
from studio.engines.haunted.match import (Entrant, MatchConfig, MatchResult, Observer, RoundEnd,
                                         RoundStart, run_match)
from studio.engines.haunted.standings import (  # noqa: F401  (Elo and the modes were defined here first)
    DOUBLE_ROUND_ROBIN,
    ELO_K,
    ELO_START,
    MODES,
    ROUND_ROBIN,
    SINGLE,
    Score,
    elo_update,
    records,
    round_robin_order,
)

SEMI_FINAL, FINAL, THIRD_PLACE = "semi-final", "final", "third place"


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

    @property
    def score(self) -> Score:
        return Score(self.home, self.away, self.winner, self.result.wins["A"],
                     self.result.wins["B"], self.result.ties)

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        """The match as ``index.json`` and ``--json`` list it (entrants by name)."""
        home, away = names[self.home], names[self.away]
        return {"stage": self.stage, "home": home, "away": away, "seed": self.seed,
                "winner": names[self.winner],
                "wins": {home: self.result.wins["A"], away: self.result.wins["B"]},
                "ties": self.result.ties, "coin_toss": self.result.coin_toss is not None}


@dataclass(frozen=True)
class Fixture:
    """A scheduled match about to be played (or taken from the matches already played)."""

    number: int
    """Position in the schedule, 1-based, in play order."""
    stage: str
    home: int
    away: int
    seed: int


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
            "matches": [m.to_json(self.names) for m in self.matches],
            "byes": [{"stage": s, "entrant": self.names[e]} for s, e in self.byes],
            "ratings": {self.names[i]: round(r, 1) for i, r in enumerate(self.ratings)},
            "standings": [self.names[i] for i in self.standings],
        }


OnMatch = Callable[[Played], None]
OnStart = Callable[[Fixture], None]


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


TBD = -1
"""A bracket slot whose entrant is not known yet: the match feeding it has not been played."""


@dataclass(frozen=True)
class BracketMatch:
    """One cell of a single-elimination bracket (entrant indices)."""

    stage: str
    home: int
    """The better seed (home); :data:`TBD` until the match feeding the slot is decided."""
    away: int | None
    """None for a bye (``home`` goes through); :data:`TBD` as for ``home``."""
    winner: int | None
    """Set once decided (at once for a bye)."""


def scheduled_matches(mode: str, n: int, third_place: bool = False) -> int:
    """How many matches a tournament of ``n`` entrants plays (byes are not matches)."""
    if mode == SINGLE:  # every match knocks one entrant out; the semi-finals are real from n = 4
        return n - 1 + (1 if third_place and n >= 4 else 0)
    return n * (n - 1) // 2 * (2 if mode == DOUBLE_ROUND_ROBIN else 1)


def seeding_order(n: int, school_sizes: Sequence[int] | None = None) -> list[int]:
    """Entrant indices by seed: registration order, or school size descending (§11.1)."""
    seeding = list(range(n))
    if school_sizes is not None:
        seeding.sort(key=lambda i: -school_sizes[i])  # stable: registration order breaks ties
    return seeding


def bracket(seeding: Sequence[int], decide: Callable[[str, int, int], int | None],
            unknown: Callable[[str], None] | None = None) -> list[list[BracketMatch]]:
    """The bracket, one column per stage, filled in as far as ``decide`` knows.

    ``decide(stage, home, away)`` returns the winner's entrant index, or None when that match is
    not decided (yet); it is called in play order (stage by stage, top to bottom), which makes
    this both how :func:`single_elimination` plays and how a saved run is drawn. ``unknown``
    is called, in the same order, for a match whose sides are not known yet: a caller numbering
    matches by their place in the schedule counts it there.
    """
    n = len(seeding)
    size = 1
    while size < n:
        size *= 2
    # Slots hold seed numbers (1-based); a seed above n is a bye, TBD a winner not known yet.
    slots: list[int | None] = [s if s <= n else None for s in bracket_order(size)]

    def entrant(slot: int) -> int:
        return TBD if slot == TBD else seeding[slot - 1]

    columns: list[list[BracketMatch]] = []
    while len(slots) > 1:
        stage, column, advancing = stage_name(len(slots)), [], []
        for a, b in zip(slots[0::2], slots[1::2]):
            if a is None or b is None:  # byes meet real seeds only, in the first stage
                through = a if b is None else b
                column.append(BracketMatch(stage, entrant(through), None, entrant(through)))
                advancing.append(through)
                continue
            if TBD in (a, b):  # sides are known once both seeds are
                if unknown is not None:
                    unknown(stage)
                column.append(BracketMatch(stage, entrant(a), entrant(b), None))
                advancing.append(TBD)
                continue
            better, worse = min(a, b), max(a, b)  # the better seed is home
            winner = decide(stage, entrant(better), entrant(worse))
            column.append(BracketMatch(stage, entrant(better), entrant(worse), winner))
            if winner is None:
                advancing.append(TBD)
            else:
                advancing.append(better if winner == entrant(better) else worse)
        columns.append(column)
        slots = advancing
    return columns


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

    def __init__(self, entrants, maps, config, seed, *, on_match: OnMatch | None,
                 done: dict[int, MatchResult] | None, on_start: OnStart | None,
                 observer: Observer | None, on_round_start: RoundStart | None = None,
                 on_round_end: RoundEnd | None = None) -> None:
        self.entrants = entrants
        self.maps = maps
        self.config = config
        self.rng = SplitMix64(seed)
        self.on_match = on_match
        self.on_start = on_start
        self.observer = observer
        self.round_hooks = {"on_round_start": on_round_start, "on_round_end": on_round_end}
        self.done: dict[int, MatchResult] = done or {}
        self.number = 0

    def play(self, stage: str, home: int, away: int) -> Played:
        seed = self.rng.next64() >> 1  # drawn even when resuming: later seeds stay the same
        self.number += 1
        if self.on_start is not None:
            self.on_start(Fixture(self.number, stage, home, away, seed))
        result = self.done.get(self.number)
        if result is None:
            result = run_match(self.entrants[home], self.entrants[away], self.maps, self.config,
                               seed, observer=self.observer, **self.round_hooks)
            played = Played(stage, home, away, seed, result, self.number)
            if self.on_match is not None:
                self.on_match(played)
            return played
        self._check_saved(result, home, away, seed)
        return Played(stage, home, away, seed, result, self.number)

    def _check_saved(self, result: MatchResult, home: int, away: int, seed: int) -> None:
        """A saved match must be the one the schedule plays now, or resuming would mix runs."""
        replay = result.replay
        teams = replay.get("teams", {})
        names = (teams.get("A", {}).get("name"), teams.get("B", {}).get("name"))
        where = f"saved match {self.number}"
        if names != (self.entrants[home].name, self.entrants[away].name):
            raise ValueError(f"{where} is {names[0]} vs {names[1]}, the schedule "
                             f"says {self.entrants[home].name} vs {self.entrants[away].name}")
        if replay.get("seed") != seed:
            raise ValueError(f"{where} was played with seed {replay.get('seed')}, the "
                             f"tournament seed gives {seed}")
        if replay.get("config") != self.config.to_json():
            raise ValueError(f"{where} was played with other match settings")
        boards = {name: self.maps[name].to_json() for name in self.config.maps}
        if replay.get("maps") != boards:
            raise ValueError(f"{where} was played on other maps")


def stage_name(players_left: int) -> str:
    """The name of a single-elimination stage with ``players_left`` bracket slots."""
    return {2: FINAL, 4: SEMI_FINAL, 8: "quarter-final"}.get(players_left, f"last {players_left}")


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
    on_start: OnStart | None = None,
    observer: Observer | None = None,
    on_round_start: RoundStart | None = None,
    on_round_end: RoundEnd | None = None,
) -> TournamentResult:
    """A single-elimination bracket; seeds by registration order, or by school size descending.

    ``done`` maps schedule numbers (1-based, in play order) to results of matches already played
    (resuming an interrupted run): they are not played again and ``on_match`` is not called;
    each must be the match the schedule plays at that number (teams, seed, settings, maps), or
    ValueError. ``on_start`` is called before every scheduled match, reused ones included;
    ``observer`` after every turn of a match being played, ``on_round_start`` and
    ``on_round_end`` around its rounds (see :func:`~studio.engines.haunted.match.run_match`). An exception raised by either stops the
    tournament and reaches the caller; the matches finished before it were reported by
    ``on_match``.

    Returns:
        The result; ``standings`` starts with the champion, then the runner-up, then (with
        ``third_place``) the third.
    """
    n = len(entrants)
    if n < 2:
        raise ValueError("a tournament needs at least two entrants")
    seeding = seeding_order(n, school_sizes)
    result = TournamentResult(SINGLE, [e.name for e in entrants])
    runner = _Runner(entrants, maps, config, seed, on_match=on_match, done=done,
                     on_start=on_start, observer=observer, on_round_start=on_round_start,
                     on_round_end=on_round_end)
    semi_losers: list[int] = []

    def decide(stage: str, home: int, away: int) -> int:
        played = runner.play(stage, home, away)
        result.matches.append(played)
        if stage == SEMI_FINAL:
            semi_losers.append(played.loser)
        return played.winner

    columns = bracket(seeding, decide)
    result.byes = [(m.stage, m.home) for column in columns for m in column if m.away is None]
    result.standings = [columns[-1][0].winner, result.matches[-1].loser]  # type: ignore[list-item]
    if third_place and len(semi_losers) == 2:
        played = runner.play(THIRD_PLACE, *sorted(semi_losers, key=seeding.index))
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
    on_start: OnStart | None = None,
    observer: Observer | None = None,
    on_round_start: RoundStart | None = None,
    on_round_end: RoundEnd | None = None,
) -> TournamentResult:
    """Every pair meets once (twice with sides exchanged when ``double``); Elo after each match.

    Standings: match wins, then round-win difference, then Elo, then registration order.
    ``done`` resumes an interrupted run, as in :func:`single_elimination`.
    """
    n = len(entrants)
    if n < 2:
        raise ValueError("a tournament needs at least two entrants")
    mode = DOUBLE_ROUND_ROBIN if double else ROUND_ROBIN
    result = TournamentResult(mode, [e.name for e in entrants])
    runner = _Runner(entrants, maps, config, seed, on_match=on_match, done=done,
                     on_start=on_start, observer=observer, on_round_start=on_round_start,
                     on_round_end=on_round_end)
    for number, pairs in enumerate(round_robin_schedule(n, double), 1):
        playing = {i for pair in pairs for i in pair}
        result.byes += [(f"round robin {number}", i) for i in range(n) if i not in playing]
        for home, away in pairs:
            result.matches.append(runner.play(f"round robin {number}", home, away))
    table = records(n, (m.score for m in result.matches))
    result.ratings = [r.elo for r in table]
    result.standings = round_robin_order(table)
    return result
