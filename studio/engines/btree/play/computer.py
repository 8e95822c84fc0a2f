"""A computer seat's move, prepared on the session's thread and searched on any thread.

The play screen runs :meth:`ComputerJob.run` in a worker while keys and undo go on; ``studio run``
and ``studio balance`` run it in place. Either way the session applies the move with
:meth:`PlaySession.play_computer`, which refuses a job made for a position left meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio.engines.btree.search.mcts import Computer, SearchResult, move_seed
from studio.engines.btree.search.outcome import Proof


@dataclass
class ComputerJob:
    """One search from a snapshot of the session, on an engine of its own."""

    program: Any
    snapshot: Any
    player: str
    ply: int
    """Choices made before this move: where on the session's line the move belongs."""
    seed: int
    seconds: float | None
    playouts: int | None = None
    display_reset: bool = True
    kernel: bool = True
    """Play out on the numba kernel where it can (a screen says False until it is compiled)."""
    result: SearchResult | None = None
    """Set by :meth:`run`."""

    @classmethod
    def at(cls, session: Any, seconds: float | None, playouts: int | None) -> ComputerJob:
        """The job for the seat to move at the session's current choice wait."""
        pid = str(session.engine.choice_player)
        ply = len(session.choices_made)
        return cls(session.program, session.engine.snapshot(), pid, ply,
                   move_seed(session.seed, pid, ply), seconds, playouts, session.display_reset)

    def run(self, progress: Callable[[int], None] | None = None, cancel: Any = None) -> SearchResult:
        """Search (``progress`` is told the playouts done; ``cancel.is_set()`` stops early)."""
        computer = Computer(self.program, self.display_reset, self.kernel)
        self.result = computer.search(self.snapshot, self.seed, self.seconds, self.playouts,
                                      progress, cancel)
        return self.result

    @property
    def note(self) -> str:
        """What the move says: its proven result (``X wins in 3``), else nothing."""
        proof = self.result.proof if self.result is not None else None
        return proof.text if proof is not None else ""


def after_move(proof: Proof | None) -> Proof | None:
    """A proof from the position the proven move leads to (one move fewer)."""
    return None if proof is None or proof.moves <= 1 else Proof(proof.result, proof.moves - 1)
