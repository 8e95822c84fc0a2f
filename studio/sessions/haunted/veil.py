"""An AI played behind a veil: its moves count, its words never leave it.

A student's test match against another team's submission must not show a line of that team's
code. A Python traceback quotes the lines it passed through; an exception's text, what the AI
printed, or an odd value in its answer can be anything the AI chose, its own source included;
and all of these reach the match view's log, the replay and the live feed. A veiled player drops
what it printed, reports a failure by its kind only, and blanks any text in its answer, which
the referee reads the same way (an unknown move is a jump either way), so the match is the same.
"""

from __future__ import annotations

from typing import Any

from studio.engines.haunted.players import AIReply, Player
from studio.engines.haunted.rules import MOVES

VEILED = "what it raised or printed is not shown (another team's code)"
"""A veiled failure's whole text: the match view and the replay already name the team and the
failure's kind beside it."""


def _blank(value: Any) -> Any:
    """An answer with the same meaning to the referee and no text of the AI's in it."""
    if isinstance(value, (list, tuple)):
        return [v if isinstance(v, str) and v in MOVES else "?" for v in value]
    if isinstance(value, str):
        return ""
    if isinstance(value, dict):
        return {}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0
    return value


class VeiledPlayer:
    """A player whose words are withheld: its moves count, its text never leaves it."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.confined = inner.confined

    def _veil(self, reply: AIReply) -> AIReply:
        error = "" if reply.ok else VEILED
        return AIReply(reply.ok, _blank(reply.result) if reply.ok else None, reply.failure,
                       error, reply.ms)

    def load(self, seed: int, side: str) -> AIReply:
        return self._veil(self.inner.load(seed, side))

    def request(self, turn: int, state: dict[str, Any], side: str) -> None:
        self.inner.request(turn, state, side)

    def collect(self) -> AIReply:
        return self._veil(self.inner.collect())

    def close(self) -> None:
        self.inner.close()

    def interrupt(self) -> None:
        stop = getattr(self.inner, "interrupt", None)
        if stop is not None:
            stop()

    def __getattr__(self, name: str) -> Any:
        # What the match view asks a worker besides the contract (its pid, confinement notes).
        return getattr(self.inner, name)
