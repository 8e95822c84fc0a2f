"""Standings of Haunted Tiles tournaments (spec haunted.md §11.2): Elo and per-entrant totals.

Shared by the tournament runner (round-robin standings) and whatever shows or exports results
(they rebuild the totals from a saved ``index.json``), so both count the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SINGLE, ROUND_ROBIN, DOUBLE_ROUND_ROBIN = "single-elimination", "round-robin", "double-round-robin"
MODES = (SINGLE, ROUND_ROBIN, DOUBLE_ROUND_ROBIN)
"""The kinds of tournament. Here rather than in ``tournament`` (which re-exports them) so that
checking a project's tournaments does not load the match engine."""

ELO_START, ELO_K = 1500.0, 32.0


def elo_update(r_a: float, r_b: float, a_won: bool, k: float = ELO_K) -> tuple[float, float]:
    """The ratings after one match (§11.2); a match always has a winner."""
    expected_a = 1 / (1 + 10 ** ((r_b - r_a) / 400))
    score_a = 1.0 if a_won else 0.0
    return r_a + k * (score_a - expected_a), r_b + k * ((1 - score_a) - (1 - expected_a))


@dataclass(frozen=True)
class Score:
    """What the standings need of one played match (entrant indices)."""

    home: int
    away: int
    winner: int
    home_rounds: int
    away_rounds: int
    ties: int


@dataclass
class Record:
    """One entrant's totals over the matches played so far."""

    match_wins: int = 0
    match_losses: int = 0
    round_wins: int = 0
    round_losses: int = 0
    round_ties: int = 0
    elo: float = ELO_START


def records(n: int, scores: Iterable[Score]) -> list[Record]:
    """Totals and Elo (updated in the order given, §11.2) of entrants 0..n-1."""
    table = [Record() for _ in range(n)]
    for s in scores:
        home, away = table[s.home], table[s.away]
        home.elo, away.elo = elo_update(home.elo, away.elo, s.winner == s.home)
        table[s.winner].match_wins += 1
        table[s.away if s.winner == s.home else s.home].match_losses += 1
        home.round_wins += s.home_rounds
        home.round_losses += s.away_rounds
        away.round_wins += s.away_rounds
        away.round_losses += s.home_rounds
        home.round_ties += s.ties
        away.round_ties += s.ties
    return table


def round_robin_order(table: Sequence[Record]) -> list[int]:
    """Round-robin standings: match wins, then round-win difference, then Elo, then
    registration order."""
    return sorted(range(len(table)), key=lambda i: (
        -table[i].match_wins, -(table[i].round_wins - table[i].round_losses), -table[i].elo, i))
