"""Small builders for the Haunted Tiles rules and referee tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from studio.engines.haunted.board import Map
from studio.engines.haunted.players import AIReply
from studio.engines.haunted.rules import Round, RoundState


def board(rows: Sequence[str], home=None, away=None, name: str = "T") -> Map:
    return Map.from_rows(name, list(rows), home, away)


def open_map(size: int = 7, name: str = "Default") -> Map:
    return Map.from_rows(name, ["3" * size] * size)


def state_with(base: Map, **changes: Any) -> RoundState:
    """The initial state of ``base`` with fields replaced (e.g. positions, alive)."""
    return Round(base).initial_state()._replace(**changes)


class ScriptedPlayer:
    """A fake player answering from a function of (turn, state, side); for failure cases.

    ``answer`` returns an :class:`AIReply` or a plain value (wrapped as an ok reply).
    """

    confined = True

    def __init__(self, answer: Callable[[int, dict, str], Any], name: str = "fake",
                 load: AIReply | None = None, log: list | None = None) -> None:
        self.answer = answer
        self.name = name
        self.load_reply = load or AIReply(ok=True)
        self.log = log if log is not None else []
        self.pending: Any = None
        self.closed = False

    def load(self, seed: int, side: str) -> AIReply:
        self.log.append(("load", self.name, seed, side))
        return self.load_reply

    def request(self, turn: int, state: dict, side: str) -> None:
        self.log.append(("request", self.name, turn, side))
        self.pending = self.answer(turn, state, side)

    def collect(self) -> AIReply:
        self.log.append(("collect", self.name))
        value = self.pending
        return value if isinstance(value, AIReply) else AIReply(ok=True, result=value)

    def close(self) -> None:
        self.closed = True
        self.log.append(("close", self.name))


def always(moves: Any) -> Callable[[int, dict, str], Any]:
    return lambda turn, state, side: moves
