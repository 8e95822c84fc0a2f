"""The contract between the referee (rounds, matches) and whatever answers for a team.

A player is asked for a move in two halves, ``request`` then ``collect``, so that the referee can
ask both teams at once and a turn takes as long as the slower answer (spec haunted.md §7.3).
Worker-process runners (``studio.engines.haunted.ai``) and in-process built-ins implement it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

FAILURES = ("exception", "timeout", "crash", "bad_shape")
"""Why an answer failed (§7.2); any failure loses the round."""


@dataclass
class AIReply:
    """One answer of an AI (to a load or a move)."""

    ok: bool
    result: Any = None
    """The JSON value ``main`` returned (moves only)."""
    failure: str | None = None
    """One of :data:`FAILURES` when not ok."""
    error: str = ""
    """What went wrong, for the log and the replay (e.g. the traceback's last line)."""
    ms: float = 0.0
    """Time the answer took, measured by the host."""
    stdout: str = ""
    stderr: str = ""


class Player(Protocol):
    """Answers for one team during one round; a new round starts a fresh instance."""

    name: str
    confined: bool
    """False when the AI runs with the user's full rights (no Landlock / no network namespace)."""

    def load(self, seed: int, side: str) -> AIReply:
        """Start the round: load the AI, seeding its randomness with ``seed``."""
        ...

    def request(self, turn: int, state: dict[str, Any], side: str) -> None:
        """Send the turn's game state; returns at once."""
        ...

    def collect(self) -> AIReply:
        """Wait (within the time limit) for the answer to the last request."""
        ...

    def close(self) -> None:
        """End the round: stop the worker, free everything. Always safe to call twice."""
        ...
