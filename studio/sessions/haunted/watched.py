"""What a spectator sees of a live feed (:class:`Watched`), and the feed's pieces made safe to
show: a board checked against its round, results with every name inert. The reading itself is
:mod:`studio.sessions.haunted.watch`'s."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.engines.common.inert import inert
from studio.engines.haunted.board import Map
from studio.engines.haunted.match import MatchConfig, MatchResult, RoundResult
from studio.engines.haunted.rules import Event, RoundState


@dataclass(frozen=True)
class Watched:
    """What the spectator screen draws, as of the last poll."""

    status: str
    """``waiting`` (no feed yet), ``live``, ``over`` (the run ended) or ``stopped``."""
    about: str
    """What the status means, in a few words ("cancelled", "waiting for replays/cup/live.jsonl")."""
    kind: str = ""
    """``tournament`` or ``match``."""
    tournament: dict[str, Any] | None = None
    """The results so far as ``index.json`` holds them (names inert)."""
    number: int = 0
    stage: str = ""
    names: tuple[str, str] = ("", "")
    config: MatchConfig | None = None
    round_index: int = 0
    board: Map | None = None
    home: str = "A"
    monsters: dict[str, str] = field(default_factory=dict)
    state: RoundState | None = None
    events: tuple[Event, ...] = ()
    record: dict[str, Any] | None = None
    rounds: tuple[RoundResult, ...] = ()
    wins: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    ties: int = 0
    log: tuple[str, ...] = ()
    result: MatchResult | None = None
    """The match's result once it ended."""
    next_match: str = ""
    skipped: int = 0
    """Lines skipped: not events, too long, or not fitting what came before."""
    delay: float | None = None
    """Seconds between the last event's writing and its reading here."""
    version: int = 0


def board_state(before: RoundState, board: Any) -> RoundState:
    """A position from the board the feed sent (checked against the round's size)."""
    n = before.size
    strengths = tuple(int(s) for s in board["strengths"])
    positions = tuple((int(r), int(c)) for r, c in board["positions"])
    alive = tuple(bool(a) for a in board["alive"])
    broken = tuple(int(b) for b in board["broken"])
    if len(strengths) != n * n or len(positions) != 6 or len(alive) != 6 or len(broken) != 2:
        raise ValueError("not a board of this round")
    return before._replace(strengths=strengths, positions=positions, alive=alive,
                           broken=broken, turn=int(board["turn"]))


def inert_document(document: dict[str, Any]) -> dict[str, Any]:
    """The results with every name made inert (the same way everywhere, so they still match)."""
    def name(value: Any) -> Any:
        return inert(value) if isinstance(value, str) else value

    matches = [{**m, "home": name(m["home"]), "away": name(m["away"]),
                "winner": name(m["winner"]), "wins": {name(k): v for k, v in m["wins"].items()}}
               for m in document["matches"]]
    plan = dict(document.get("plan") or {})
    plan["seeds"] = [name(s) for s in plan.get("seeds") or []]
    return {**document, "entrants": [name(n) for n in document["entrants"]], "plan": plan,
            "matches": matches, "standings": [name(s) for s in document.get("standings") or []],
            "name": name(document.get("name", ""))}
