"""The ladder (issue 30, "A ladder that is always current"): which matches the submissions call
for, and the standings they give.

Both are pure functions of the submissions, so that any process, at any time, computes the same
ladder: for each submission S, in submission order, S plays the latest submission (as of S's
time) of every other team that had one, on both sides, ``games`` times per side, each match on
the next map of the rotation. A team's first submission joins the ladder. A match is known by
its :attr:`LadderMatch.key` (the two submissions' hashes, who is home, the game number): one
that the schedule calls for twice (a team re-submitting the same file) is played once.

Elo is applied in schedule order over the matches played so far, whatever order they finished
in, so two runs that played the same matches show the same standings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from studio.engines.haunted.standings import ELO_START, elo_update


@dataclass(frozen=True)
class Version:
    """One submission as the ladder sees it."""

    team: str
    sha256: str
    time: datetime
    sequence: int = 1
    """Orders two submissions of one team in the same second."""

    @property
    def order(self) -> tuple[datetime, int, str]:
        return self.time, self.sequence, self.team


@dataclass(frozen=True)
class LadderMatch:
    """One match the ladder calls for."""

    number: int
    """1-based position in the schedule."""
    home: Version
    away: Version
    game: int
    """1-based, per pair and side."""
    map_name: str
    """The map the match starts on (then the rotation goes on from there)."""
    seed: int

    @property
    def key(self) -> str:
        """What makes a match the same match: the two versions, who is home, the game."""
        return match_key(self.home, self.away, self.game)

    @property
    def teams(self) -> tuple[str, str]:
        return self.home.team, self.away.team


def match_key(home: Version, away: Version, game: int) -> str:
    """A match's name: the two teams' versions (two teams may hand in the same file, so the
    team is part of it), who is home, the game; safe as a file name."""
    text = f"{home.team}\0{home.sha256}\0{away.team}\0{away.sha256}\0{game}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def match_seed(seed: int, home: str, away: str, game: int) -> int:
    """A match's seed from the ladder's seed and the two submissions' hashes (63 bits)."""
    digest = hashlib.sha256(f"{seed}:{home}:{away}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def schedule(versions: Sequence[Version], rotation: Sequence[str], games: int = 1,
             seed: int = 0) -> list[LadderMatch]:
    """Every match the submissions call for, in the order Elo takes them.

    Args:
        versions: every team's submissions, in any order.
        rotation: the project's maps in turn; match k starts on ``rotation[(k - 1) % len]``.
        games: matches per pair and side.
        seed: the ladder's seed.
    """
    if not rotation:
        raise ValueError("the map rotation is empty")
    latest: dict[str, Version] = {}
    matches: list[LadderMatch] = []
    seen: set[str] = set()
    for version in sorted(versions, key=lambda v: v.order):
        for other_team, other in latest.items():
            if other_team == version.team:
                continue
            for game in range(1, games + 1):
                for home, away in ((version, other), (other, version)):
                    key = match_key(home, away, game)
                    if key in seen:
                        continue
                    seen.add(key)
                    map_name = rotation[len(matches) % len(rotation)]
                    matches.append(LadderMatch(len(matches) + 1, home, away, game, map_name,
                                               match_seed(seed, home.sha256, away.sha256, game)))
        latest[version.team] = version
    return matches


@dataclass(frozen=True)
class Outcome:
    """What the standings need of a played match."""

    winner: str
    """``home`` or ``away``."""
    home_rounds: int = 0
    away_rounds: int = 0


@dataclass
class Row:
    """One team's line of the standings."""

    team: str
    elo: float = ELO_START
    played: int = 0
    wins: int = 0
    losses: int = 0
    rounds_won: int = 0
    rounds_lost: int = 0
    last_submission: datetime | None = None
    rank: int = 0


def standings(versions: Sequence[Version], matches: Sequence[LadderMatch],
              outcomes: Mapping[str, Outcome]) -> list[Row]:
    """The table, best first: Elo over the played matches (``outcomes`` by key) in schedule
    order; ties broken by wins, then by name. Every team with a submission has a row."""
    rows: dict[str, Row] = {}
    for version in sorted(versions, key=lambda v: v.order):
        row = rows.setdefault(version.team, Row(version.team))
        row.last_submission = version.time
    for match in matches:
        outcome = outcomes.get(match.key)
        if outcome is None:
            continue
        home, away = rows[match.home.team], rows[match.away.team]
        home_won = outcome.winner == "home"
        home.elo, away.elo = elo_update(home.elo, away.elo, home_won)
        winner, loser = (home, away) if home_won else (away, home)
        winner.wins += 1
        loser.losses += 1
        for row, won, lost in ((home, outcome.home_rounds, outcome.away_rounds),
                               (away, outcome.away_rounds, outcome.home_rounds)):
            row.played += 1
            row.rounds_won += won
            row.rounds_lost += lost
    table = sorted(rows.values(), key=lambda r: (-round(r.elo, 6), -r.wins, r.team))
    for rank, row in enumerate(table, 1):
        row.rank = rank
    return table
