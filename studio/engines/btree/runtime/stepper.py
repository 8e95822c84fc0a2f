"""What a node's call may touch of the engine that runs it (§7.3-§7.6).

The node calls (``controls``, ``tiles``) are made by the :class:`~.engine.Engine` and act on its
stack, board and waits. They see it through this protocol, so they need not import the engine
that imports them; the engine satisfies it by its attributes alone.
"""

from __future__ import annotations

from typing import Any, Protocol

from studio.engines.btree.runtime.boardstate import BoardState
from studio.engines.btree.runtime.choice import Choice
from studio.engines.btree.runtime.nodes import Node
from studio.engines.btree.runtime.rng import Rng


class Stepper(Protocol):
    nodes: list[Node]
    rng: Rng
    _board: BoardState
    _stack: list[list] | None
    _track: list | None
    _replaced: bool
    _display_done: bool
    _choice_made: Choice | None

    def _start_display(self, delay: Any) -> None: ...

    def _start_choice(self, pid: Any, choices: list[Choice]) -> None: ...

    def _finish(self, result: dict) -> None: ...
