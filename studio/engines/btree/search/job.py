"""A search prepared on one thread to run on another (the play screen's solver, §11.5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.search.portfolio import run_job
from studio.engines.btree.search.solver import SolveResult, solve


@dataclass
class SolveJob:
    """A search prepared from an engine snapshot, to run on a worker thread (§11.5).

    ``run`` searches on an engine of its own, so the engine the snapshot came from can go on
    meanwhile. ``tag`` is the caller's (a play session keeps where the line starts).
    """

    program: Any
    """The ``Program`` the snapshot belongs to."""
    snapshot: Any
    max_states: int = 200_000
    player: str | None = None
    tag: Any = None
    strategy: str = "bfs"
    """As :func:`solve`, or ``auto``: the portfolio of :mod:`.portfolio`."""
    heuristic: str | None = None
    weight: int = 1
    jobs: int = 1
    max_seconds: float | None = None
    max_memory: int | None = None
    path: str = "auto"
    """As :func:`solve`; a screen sets ``plain`` while the kernel is not compiled yet."""
    result: SolveResult | None = None
    """Set by :meth:`run`."""
    on_line: Callable[[Any], None] | None = None
    """For ``auto``: told of each shorter line (a ``portfolio.Found``), on a search thread."""
    portfolio: Any = None
    """For ``auto``: the whole outcome (a ``portfolio.PortfolioResult``), set by :meth:`run`."""

    def run(self, progress: Callable[[int, int], None] | None = None, cancel: Any = None) -> SolveResult:
        """Search from the snapshot (``progress`` and ``cancel`` as :func:`solve`)."""
        if self.strategy == "auto":
            return run_job(self, progress, cancel)
        engine = Engine(self.program)
        engine.restore(self.snapshot)
        self.result = solve(engine, self.max_states, self.player, progress, cancel=cancel,
                            strategy=self.strategy, heuristic=self.heuristic, weight=self.weight,
                            jobs=self.jobs,
                            max_seconds=self.max_seconds, max_memory=self.max_memory, path=self.path)
        return self.result


__all__ = ["SolveJob"]
