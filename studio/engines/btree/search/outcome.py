"""What a finished game is worth to each seat, and a proven result's words (the computer seat).

The tree says who won (§7.8) but not what a draw or a stalemate is worth; the search and the
balance report need one number per seat, so the rule lives here once: a win of the seat is 1, a
win of another seat 0, a loss the other way round, anything else (draw, stalemate, stepout, error)
one half. A ``win`` or ``lose`` without a ``player`` counts for every seat (one-player puzzles).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def reward(result: Mapping[str, Any] | None, pid: str) -> float:
    """What ``result`` is worth to seat ``pid``: 1 a win, 0 a loss, 0.5 anything else.

    ``None`` (a playout cut short before the game ended) is worth one half.
    """
    if result is None:
        return 0.5
    kind = result.get("result")
    who = result.get("player")
    mine = who is None or str(who) == pid
    if kind == "win":
        return 1.0 if mine else 0.0
    if kind == "lose":
        return 0.0 if mine else 1.0
    return 0.5


def outcome_of(result: Mapping[str, Any] | None, pid: str) -> str:
    """``"win"``, ``"loss"`` or ``"draw"`` for seat ``pid`` (the balance report's columns)."""
    value = reward(result, pid)
    return "win" if value == 1.0 else "loss" if value == 0.0 else "draw"


@dataclass(frozen=True)
class Proof:
    """A result the search proved from a position: best play by every seat reaches ``result``.

    ``moves`` counts every seat's moves from the position to the end (the move about to be made
    included), so "X wins in 3" after X, O, X.
    """

    result: dict[str, Any]
    moves: int

    @property
    def text(self) -> str:
        """``X wins in 3``, ``O loses in 4``, ``draw in 9``…"""
        kind = str(self.result.get("result"))
        who = self.result.get("player")
        if kind in ("win", "lose"):
            verb = "wins" if kind == "win" else "loses"
            return f"{who} {verb} in {self.moves}" if who is not None else f"{kind} in {self.moves}"
        return f"{kind} in {self.moves}"
