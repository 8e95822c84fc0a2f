"""What a play session stops for (its waits) and the solver line it keeps (§11.3).

Screens and ``studio run`` import these from :mod:`.session`, which drives the engine to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.engines.btree.runtime.choice import Choice


@dataclass(frozen=True)
class Wait:
    """Something that needs the outside world; see the subclasses."""


@dataclass(frozen=True)
class ChoiceWait(Wait):
    """A human seat must choose: call :meth:`PlaySession.choose`."""

    player: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class DisplayWait(Wait):
    """A ``display-board`` pause: show the board, wait ``delay`` × speed, call ``clear_display()``."""

    delay: float


@dataclass(frozen=True)
class AutoMove(Wait):
    """An automatic seat picked ``index``; it is applied by the next ``advance()``.

    The engine still shows the choice wait, so a screen can outline the move before it happens.
    ``note`` explains a fallback (a ``solver`` seat without a line plays like ``first``).
    """

    player: str
    seat: str
    index: int
    choice: Choice
    note: str = ""


@dataclass(frozen=True)
class Thinking(Wait):
    """A ``computer`` seat's turn, when the caller searches (``advance(think=False)``).

    Run ``job.run(progress, cancel)`` anywhere, then ``PlaySession.play_computer(job)``; or make
    a move with ``choose()`` instead.
    """

    player: str
    job: Any


@dataclass(frozen=True)
class GameOver(Wait):
    """The game has a result (§7.8)."""

    result: dict[str, Any]
    text: str


@dataclass(frozen=True)
class Solution:
    """A winning line found from the state reached by ``prefix`` (the choices made before it)."""

    prefix: tuple[int, ...]
    line: tuple[int, ...]
    result: dict[str, Any] | None
