"""What a match is made of and what it gives (spec haunted.md §3): its settings, the teams,
round and match results. Plain data; :mod:`studio.engines.haunted.match` plays with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from studio.engines.haunted.maps import DEFAULT_ROTATION
from studio.engines.haunted.players import Player


@dataclass(frozen=True)
class MatchConfig:
    """Match settings (§3). ``maps`` is the rotation: round k plays ``maps[(k - 1) % len]``."""

    rounds: int = 5
    max_rounds: int = 10
    time_limit: float = 2.0
    load_limit: float = 5.0
    maps: tuple[str, ...] = DEFAULT_ROTATION
    swap_sides: bool = False
    coin_toss_if_all_tied: bool = True

    def __post_init__(self) -> None:
        if self.rounds < 1 or self.rounds % 2 == 0:
            raise ValueError(f"rounds must be a positive odd number, got {self.rounds}")
        if self.max_rounds < self.rounds:
            raise ValueError(f"max_rounds ({self.max_rounds}) must be at least rounds ({self.rounds})")
        if not self.maps:
            raise ValueError("the map rotation is empty")

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds, "max_rounds": self.max_rounds, "time_limit": self.time_limit,
            "load_limit": self.load_limit, "maps": list(self.maps), "swap_sides": self.swap_sides,
            "coin_toss_if_all_tied": self.coin_toss_if_all_tied,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchConfig:
        return cls(
            rounds=data["rounds"], max_rounds=data["max_rounds"], time_limit=data["time_limit"],
            load_limit=data["load_limit"], maps=tuple(data["maps"]), swap_sides=data["swap_sides"],
            coin_toss_if_all_tied=data["coin_toss_if_all_tied"],
        )


@dataclass
class Entrant:
    """A team in a match: how to make a fresh player for each round, and what the replay says."""

    name: str
    make: Callable[[], Player]
    runtime: str = "builtin"
    source: str = ""
    source_sha256: str = ""
    monster: str = ""
    alternate: str = ""
    """Worn when playing away against a team with the same first choice (§3)."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "runtime": self.runtime, "source": self.source,
                "source_sha256": self.source_sha256, "monster": self.monster}


@dataclass
class RoundResult:
    """How one round ended (§3); ``record`` is its replay entry (§4.5)."""

    index: int
    map: str
    home: str
    """``A`` or ``B``: the team playing home."""
    winner: str | None
    """``home``, ``away`` or None."""
    reason: str
    broken: tuple[int, int]
    turns: int
    failures: dict[str, dict[str, str]] = field(default_factory=dict)
    """Team letter -> ``{"failure": kind, "error": message}`` for the teams that failed."""
    record: dict[str, Any] = field(default_factory=dict)

    @property
    def winner_team(self) -> str | None:
        """``A``, ``B`` or None."""
        if self.winner is None:
            return None
        other = "B" if self.home == "A" else "A"
        return self.home if self.winner == "home" else other


@dataclass
class MatchResult:
    winner: str | None
    """``A`` or ``B``: a finished match always has a winner; None only when it was aborted."""
    wins: dict[str, int]
    ties: int
    rounds: list[RoundResult]
    coin_toss: str | None = None
    """The coin toss winner, when one was needed."""
    log: list[str] = field(default_factory=list)
    """Match-level notes (e.g. an AI that runs unconfined)."""
    replay: dict[str, Any] = field(default_factory=dict)
    aborted: bool = False
    """Stopped before it was decided; ``rounds`` holds the rounds finished before that."""

    @property
    def rounds_played(self) -> int:
        return len(self.rounds)

    @classmethod
    def from_replay(cls, document: dict[str, Any]) -> MatchResult:
        """The result recorded in a replay (to resume a tournament without replaying it)."""
        rounds = []
        for record in document["rounds"]:
            if record.get("aborted"):
                continue
            end = record["result"]
            rounds.append(RoundResult(
                record["index"], record["map"], record["home"], end["winner"], end["reason"],
                (end["broken"]["home"], end["broken"]["away"]), end["turns"],
                end.get("failures", {}), record))
        summary = document["result"]
        return cls(summary["winner"], dict(summary["wins"]), summary["ties"], rounds,
                   summary["coin_toss"], list(document.get("log", [])), document,
                   bool(summary.get("aborted")))


def tally(wins: dict[str, int], ties: int, winner: str | None = None, dash: str = "–") -> str:
    """Rounds won, lost and tied, the winner's first: "greedy (B) wins 0–1–0" read as a loss.
    Without a winner (an aborted match) home's wins come first."""
    first, second = ("B", "A") if winner == "B" else ("A", "B")
    return f"{wins.get(first, 0)}{dash}{wins.get(second, 0)}{dash}{ties}"
