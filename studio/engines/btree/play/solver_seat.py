"""The solver's part of a play session (§11.5): a search from the game as it stands, run on a
worker, and the winning line it found, which ``solver`` seats then play."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from studio.engines.btree.play.waits import Solution

if TYPE_CHECKING:  # the solver brings numba (about 0.5 s to import): loaded when a solve starts
    from studio.engines.btree.search.job import SolveJob
    from studio.engines.btree.search.solver import SolveResult

NO_SOLVER_LINE = "no solver line from here: playing the first choice"


class SolverSeat:
    """Solver methods of :class:`~studio.engines.btree.play.session.PlaySession` (a mixin: it
    uses the session's ``program``, ``engine``, ``seats``, ``choices_made`` and ``solution``)."""

    program: Any
    engine: Any
    seats: dict[str, str]
    solution: Solution | None
    choices_made: list[int]

    def solver_job(self, max_states: int = 200_000, player: str | None = None, *, strategy: str = "bfs",
                   weight: int = 1, max_memory: int | None = None) -> SolveJob:
        """A solver run from the current state (§11.5), to run in a worker; then adopt its result.

        Make it on the thread that owns the session (it copies the state now); the session may
        go on while the job runs on its own engine. ``player``: only a win of this pid counts;
        by default the pid of the one ``solver`` seat if there is exactly one, else any win.
        ``strategy``, ``weight``, ``max_memory``: as :func:`solve`.
        """
        from studio.engines.btree.search.job import SolveJob

        if player is None:
            solvers = [pid for pid, kind in self.seats.items() if kind == "solver"]
            player = solvers[0] if len(solvers) == 1 else None
        job = SolveJob(self.program, self.engine.snapshot(), max_states, player, strategy=strategy,
                       weight=weight, max_memory=max_memory)
        job.tag = tuple(self.choices_made)  # where the line starts, for solution_choice()
        return job

    def adopt_solution(self, job: SolveJob) -> Solution | None:
        """Keep a finished job's winning line for ``solver`` seats and the screen; None if none."""
        found = job.result
        if found is None or not found.found:
            return None
        self.solution = Solution(tuple(job.tag), tuple(found.choices), found.result)
        return self.solution

    def solve_from_here(
        self,
        max_states: int = 200_000,
        player: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: Any = None,
    ) -> SolveResult:
        """Run the solver from the current state now and keep its line (see :meth:`solver_job`)."""
        job = self.solver_job(max_states, player)
        found = job.run(progress, cancel)
        self.adopt_solution(job)
        return found

    def solution_played(self) -> bool:
        """Whether the moves made are the solver's whole line (from where it searched)."""
        sol = self.solution
        return sol is not None and tuple(self.choices_made) == tuple(sol.prefix) + tuple(sol.line)

    def solution_choice(self) -> int | None:
        """The solver line's move at the current choice wait, or None when off the line."""
        sol = self.solution
        if sol is None or self.engine.waiting != "choice":
            return None
        made = self.choices_made
        start = len(sol.prefix)
        step = len(made) - start
        if step < 0 or step >= len(sol.line) or tuple(made[:start]) != sol.prefix:
            return None
        if tuple(made[start:]) != sol.line[:step]:
            return None
        index = sol.line[step]
        return index if index < len(self.engine.choices) else None
