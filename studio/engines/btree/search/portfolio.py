"""Several strategies at once, so nobody has to know which one fits a puzzle (issue 32).

Breadth first proves lines shortest but drowns in big spaces; A* at weight 3 and greedy best
first find long lines quickly where breadth first never ends. The portfolio runs them side by
side on threads of their own (the kernel releases the GIL, so they share the cores), each on an
engine of its own, under one time limit and one memory limit split between them:

* the first line any member finds is kept, and replaced whenever a member finds a shorter one;
* a line breadth first finds is shortest, and so is one of A* at weight 1 with an admissible
  heuristic: everything stops there;
* a member that searched every reachable state proves there is no line at all (the dead-cell
  pruning only skips states that cannot win): everything stops there too;
* otherwise the run ends when every member has ended or the time is up.

Each member is deterministic, so the lines are the same from run to run; which member has found
its line by the time limit can depend on the machine, and the result says who found it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.search.solver import SolveResult, cancel_predicate, solve

DEFAULT_SECONDS = 60.0
"""The time a portfolio takes at most when none is given."""
DEFAULT_MEMORY = 3 << 30
"""All members' arrays together, when no limit is given."""


class Member(NamedTuple):
    strategy: str
    weight: int = 1
    macro: bool = False
    """Walks whole (``solve``'s ``macro``): where moves only walk the piece, their closure is
    searched before the next state of the heap; nothing changes where no move is quiet."""
    share: float = 1.0
    """The part of the run's time this member searches for; then it leaves its core to the
    others."""

    @property
    def name(self) -> str:
        names = {"bfs": "breadth first", "best": "best first", "dfs": "depth first"}
        if self.strategy == "astar":
            name = "A*" if self.weight == 1 else f"A* weight {self.weight}"
        else:
            name = names.get(self.strategy, self.strategy)
        return f"{name} (macro moves)" if self.macro else name


MEMBERS = (Member("bfs", share=0.25), Member("astar", 3), Member("best", macro=True))
"""Breadth first for the proof; A* at weight 3 for a short line soon; greedy over macro moves for
the big ones. On Block Dude, A* at weight 3 and plain best first search nearly the same states
(the values, thousands, outweigh the depth), so greedy takes macro moves there: another order,
which finds level 4 in a tenth of the states (level 7 takes twice as many: A* finds that one).
Breadth first proves Block Dude 0–3 and Sokoban small in under 3 s here; the only other corpus
level it proves within a minute alone (Block Dude 5, 50 s) it did not prove sharing the cores
either. Past a quarter of the time it leaves its core to the two that find long lines."""


@dataclass
class PortfolioResult:
    """What :func:`solve_portfolio` found, and what each member did."""

    best: SolveResult
    """The shortest line found (``best.found``), or, with none, the member whose report says
    most (the one that proved there is none, else breadth first)."""
    found_by: str = ""
    """The name of the member whose line ``best`` is."""
    proven: bool = False
    """The line is shortest (breadth first's, or admissible A*'s)."""
    none_exists: bool = False
    """A member searched every reachable state without a win."""
    members: list[tuple[Member, SolveResult]] = field(default_factory=list)
    elapsed: float = 0.0
    reason: str = ""
    """``proven``, ``none``, ``ended`` (every member stopped), ``time`` or ``cancelled``."""
    first_after: float | None = None
    """Seconds until the first line was found."""
    found_after: float | None = None
    """Seconds until the line kept (``best``) was found."""


class Found(NamedTuple):
    """One improvement, as reported to ``on_line`` while the portfolio goes on."""

    member: Member
    moves: int
    elapsed: float
    proven: bool


def solve_portfolio(
    engine: Any,
    *,
    player: str | None = None,
    max_seconds: float | None = DEFAULT_SECONDS,
    max_states: int = 10**9,
    max_memory: int | None = DEFAULT_MEMORY,
    members: tuple[Member, ...] = MEMBERS,
    heuristic: str | None = None,
    cancel: Any = None,
    progress: Callable[[int, int], None] | None = None,
    on_line: Callable[[Found], None] | None = None,
    path: str = "auto",
    clock: Callable[[], float] = time.monotonic,
) -> PortfolioResult:
    """Run ``members`` side by side from the engine's state (left as it was).

    Args:
        max_seconds: the whole run's time (each member stops then); None: until they end.
        max_states: each member's state limit.
        max_memory: split evenly between the members.
        cancel: a ``threading.Event`` or a callable: stop everything, keeping what was found.
        progress: ``progress(states, depth)`` with the members' states summed and the deepest
            depth, called from the members' threads (at most one at a time).
        on_line: called (from a member's thread) each time a shorter line is found.
        path: as :func:`solve` (tests pass ``plain`` or ``kernel``).
    """
    origin = engine.snapshot()
    start = clock()
    stop = threading.Event()
    user_stop = cancel_predicate(cancel)
    lock = threading.Lock()
    counts: dict[int, tuple[int, int]] = {}
    results: dict[int, SolveResult] = {}
    state = {"best": None, "by": None, "first": None, "at": None}
    errors: list[BaseException] = []
    share = None if max_memory is None else max(1 << 20, max_memory // len(members))

    def stopped() -> bool:
        return stop.is_set() or user_stop()

    def report(slot: int, states: int, depth: int) -> None:
        if progress is None:
            return
        with lock:
            counts[slot] = (states, depth)
            total = sum(s for s, _ in counts.values())
            deepest = max(d for _, d in counts.values())
            progress(total, deepest)

    def run(slot: int, member: Member) -> None:
        try:
            search(slot, member)
        except BaseException as exc:  # noqa: BLE001  (raised again on the caller's thread)
            errors.append(exc)
            stop.set()

    def search(slot: int, member: Member) -> None:
        probe = Engine(engine.program)
        probe.restore(origin)
        seconds = None if max_seconds is None else max_seconds * member.share
        out = solve(probe, max_states, player, (lambda s, d: report(slot, s, d)) if progress else None,
                    cancel=stopped, strategy=member.strategy, weight=member.weight,
                    heuristic=heuristic if member.strategy != "bfs" else None,
                    max_seconds=seconds, max_memory=share, path=path, macro=member.macro)
        with lock:
            results[slot] = out
            if out.found and _better(out, state["best"]):
                state["best"], state["by"], state["at"] = out, member, clock() - start
                if state["first"] is None:
                    state["first"] = state["at"]
                if on_line is not None:
                    on_line(Found(member, len(out.choices), state["at"], out.shortest))
            if (out.found and out.shortest) or out.exhausted:
                stop.set()

    threads = [threading.Thread(target=run, args=(slot, member), name=f"solve-{member.name}", daemon=True)
               for slot, member in enumerate(members)]
    interrupted = False
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except KeyboardInterrupt:  # ctrl+c in a shell: stop, and keep the line found so far
        interrupted = True
        stop.set()
        for thread in threads:
            thread.join()
    engine.restore(origin)
    if errors:
        raise errors[0]
    done = [(member, results[slot]) for slot, member in enumerate(members)]
    outcome = _outcome(done, state["best"], state["by"], interrupted or user_stop(), clock() - start)
    outcome.first_after, outcome.found_after = state["first"], state["at"]
    return outcome


def run_job(job: Any, progress: Callable[[int, int], None] | None, cancel: Any) -> SolveResult:
    """Run a ``job.SolveJob`` whose strategy is ``auto``: its limits apply (the time, by default,
    :data:`DEFAULT_SECONDS`); ``job.on_line`` (if set) hears of each shorter line; the whole
    outcome is kept as ``job.portfolio`` and the line as ``job.result``."""
    engine = Engine(job.program)
    engine.restore(job.snapshot)
    outcome = solve_portfolio(
        engine, player=job.player, max_states=job.max_states, path=job.path,
        max_seconds=DEFAULT_SECONDS if job.max_seconds is None else job.max_seconds,
        max_memory=DEFAULT_MEMORY if job.max_memory is None else job.max_memory,
        heuristic=job.heuristic, cancel=cancel, progress=progress, on_line=job.on_line)
    job.portfolio = outcome
    job.result = outcome.best
    return outcome.best


def _better(new: SolveResult, old: SolveResult | None) -> bool:
    """Shorter wins; at the same length a line known to be shortest wins (it proves the other)."""
    if old is None:
        return True
    if len(new.choices) != len(old.choices):
        return len(new.choices) < len(old.choices)
    return new.shortest and not old.shortest


def _outcome(done: list[tuple[Member, SolveResult]], best: SolveResult | None, by: Member | None,
             cancelled: bool, elapsed: float) -> PortfolioResult:
    proven = best is not None and best.shortest
    none = best is None and any(out.exhausted for _, out in done)
    if best is None:  # the report worth showing: the proof of no line, else breadth first's
        best = next((out for _, out in done if out.exhausted), done[0][1])
    if proven:
        reason = "proven"
    elif none:
        reason = "none"
    elif cancelled:
        reason = "cancelled"
    elif any(out.reason == "time" for _, out in done):
        reason = "time"
    else:
        reason = "ended"
    return PortfolioResult(best=best, found_by=by.name if by else "", proven=proven, none_exists=none,
                           members=done, elapsed=elapsed, reason=reason)


__all__ = ["DEFAULT_MEMORY", "DEFAULT_SECONDS", "Found", "MEMBERS", "Member", "PortfolioResult",
           "run_job", "solve_portfolio"]
