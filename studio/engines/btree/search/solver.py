"""The solver (§8, §11.5): shortest winning lines and reachable boards, over packed states.

Each edge is one choice at a choice wait followed by running on to the next choice wait or the
end (display waits cleared without resetting the step budget, as the headless runner does).
Engine randomness is not branched: it is fixed by the seed, as in the reference's BFS agent
(``script/game_agent.py``). States are equal when ``Engine.key()`` is, except that the RNG is
left out of the key for as long as no draw has decided anything (see ``search.vm``).

How states are stored and expanded (``search``): packed in a few 64-bit words each, hashed
into one table, parents and choices as indices; expanded by a numba kernel that runs the tree
like ``Engine`` (on ``jobs`` threads), or by ``Engine`` itself where numba cannot load or the
kernel leaves a node to it; games whose board changes shape fall back to the reference search
over engine snapshots. Every run says which path it took and why.

Strategies: ``bfs`` (shortest, the default), ``astar`` (shortest with an admissible heuristic),
``best`` (greedy best-first) and ``dfs`` (depth first with a visited set). Limits on states,
seconds and memory end a run with a report instead of exhausting the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from studio.engines import jit

from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.search.layout import LayoutError
from studio.engines.btree.search.packed import PackedRun
from studio.engines.btree.search.reference import ReferenceSearch
from studio.engines.btree.search.runner import STRATEGIES, Restart

Board = dict[str, list[list[str]]]

PROGRESS_EVERY = 1000  # states between two progress reports at most
PROGRESS_INTERVAL = 0.25  # seconds between two progress reports at most (a slow game)
REASONS = {"found": "a winning line was found", "exhausted": "every reachable state was searched",
           "limit": "the state limit was reached", "memory": "the memory limit was reached",
           "time": "the time limit was reached", "cancelled": "cancelled"}


class StateLimit(Exception):
    """The search met its state limit before it was done."""


class _Cancelled(Exception):
    """The caller asked the search to stop."""


class _TimeUp(Exception):
    """``max_seconds`` passed."""


@dataclass
class SolveResult:
    """Outcome of :func:`solve`."""

    found: bool
    """Whether a winning line was found."""
    choices: list[int] = field(default_factory=list)
    """Choice indices of the winning line, first move first (shortest for ``bfs``)."""
    result: dict[str, Any] | None = None
    """The engine result at the end of the line."""
    states: int = 0
    """Distinct states met."""
    exhausted: bool = False
    """True when the whole reachable space was searched (so 'not found' is definitive)."""
    cancelled: bool = False
    """True when the search was cancelled before it was done."""
    depth: int = 0
    """The deepest level reached (choices from the start)."""
    elapsed: float = 0.0
    """Seconds spent searching."""
    reason: str = ""
    """Why it stopped: found, exhausted, limit, time, memory or cancelled."""
    strategy: str = "bfs"
    admissible: bool = False
    """For ``astar``: the weight was 1 and the heuristic never overestimates."""
    path: str = ""
    """``kernel`` (numba), ``plain`` (Engine expansions, packed states) or ``reference``."""
    note: str = ""
    """Why the path is not the kernel, or how states were keyed; empty when nothing to say."""
    bytes_per_state: int = 0
    """Bytes the state arrays and table hold per state."""
    memory: int = 0
    """Bytes of all the search's arrays at the end."""
    jobs: int = 1

    @property
    def rate(self) -> float:
        """States per second (0 when nothing measurable was timed)."""
        return self.states / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def shortest(self) -> bool:
        """Whether a found line is known to be shortest: breadth first, or A* at weight 1 with
        an admissible heuristic."""
        return self.found and (self.strategy == "bfs" or (self.strategy == "astar" and self.admissible))

    def report(self) -> str:
        """One line: states explored, depth reached and why the search stopped."""
        why = REASONS.get(self.reason, self.reason)
        return (f"{self.states:,} states explored, depth {self.depth} reached in {self.elapsed:.1f} s "
                f"({self.rate:,.0f}/s, {self.path} path, {self.bytes_per_state} bytes/state): {why}")


@dataclass
class Reached:
    """One distinct (board, result) pair of :func:`enumerate_reachable`."""

    board: Board | None
    result: dict[str, Any] | None
    depth: int
    """The fewest choices that reach it."""


class _Pacer:
    """Hands out state budgets so that progress, cancel and the clock are seen often enough.

    A budget never crosses the next multiple of ``every`` (when reporting) and adapts so that
    one chunk of work takes about a quarter of ``interval``: a slow game reports on time, a fast
    one does not pay for the checks.
    """

    def __init__(self, progress: Any, stop: Callable[[], bool], every: int, interval: float,
                 clock: Callable[[], float], max_seconds: float | None) -> None:
        self.progress, self.stop, self.every, self.interval = progress, stop, every, interval
        self.clock, self.max_seconds = clock, max_seconds
        self.start = self.mark = clock()
        self.due_states = every
        self.due_time = self.start + interval
        self.chunk = 1

    def begin(self) -> None:
        if self.stop():
            raise _Cancelled
        if self.progress is not None:
            self.progress(0, 0)  # at once, so a screen shows the search has started

    def budget(self, states: int) -> int:
        if self.progress is None:
            return self.chunk
        return max(1, min(self.chunk, self.due_states - states))

    def after(self, states: int, depth: int) -> None:
        if self.stop():
            raise _Cancelled
        now = self.clock()
        took = now - self.mark
        if took < self.interval / 4:
            self.chunk = min(self.chunk * 2, 1 << 20)
        elif took > self.interval:
            self.chunk = max(1, self.chunk // 2)
        self.mark = now
        if self.progress is not None and (states >= self.due_states or now >= self.due_time):
            self.progress(states, depth)
            self.due_states = (states // self.every + 1) * self.every
            self.due_time = now + self.interval
        if self.max_seconds is not None and now - self.start >= self.max_seconds:
            raise _TimeUp


def cancel_predicate(cancel: Any) -> Callable[[], bool]:
    """``cancel`` as a predicate: a ``threading.Event`` (or anything with ``is_set``), a callable."""
    if cancel is None:
        return lambda: False
    if hasattr(cancel, "is_set"):
        return cancel.is_set
    return cancel


def _drive(run: Any, pacer: _Pacer) -> str:
    while True:
        ended = run.advance(pacer.budget(run.count))
        pacer.after(run.count, run.deepest)
        if ended != "budget":
            return ended


def solve(
    engine: Any,
    max_states: int = 200_000,
    player: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    cancel: Any = None,
    every: int = PROGRESS_EVERY,
    interval: float = PROGRESS_INTERVAL,
    clock: Callable[[], float] = time.monotonic,
    strategy: str = "bfs",
    heuristic: str | None = None,
    weight: int = 1,
    jobs: int = 1,
    max_seconds: float | None = None,
    max_memory: int | None = None,
    path: str = "auto",
    macro: bool = False,
) -> SolveResult:
    """A winning choice sequence from the engine's state (of ``player`` if given).

    The engine is left as it was.

    Args:
        engine: the engine to search from (restored afterwards).
        max_states: give up (not exhausted) past this many distinct states.
        player: only a win of this pid (compared as a string) counts.
        progress: ``progress(states, depth)``, called at the start, whenever ``every`` more
            states were met and at least every ``interval`` seconds (of ``clock``), so a slow
            game still updates a screen. It runs on the searching thread; raising from it stops
            the search with that exception.
        cancel: a ``threading.Event`` or a callable returning True to stop; checked between
            chunks of work sized to take about ``interval / 4`` seconds.
        every, interval, clock: the progress cadence (tests pass a fake clock).
        strategy: ``bfs`` (shortest), ``astar``, ``best`` (greedy best-first) or ``dfs``.
        heuristic: for ``astar``/``best``: ``goal`` (default), ``zero`` or pattern terms (see
            ``search.heuristics``); ``weight`` multiplies it in A*.
        jobs: threads expanding states (the numba kernel only).
        max_seconds, max_memory: stop after this long, or before the search's arrays would pass
            this many bytes.
        path: ``auto`` (the kernel when numba loads), ``kernel`` (the kernel even as plain
            Python: tests), ``plain`` (engine expansions of packed states) or ``reference``
            (the snapshot search).
        macro: for ``astar``/``best`` with the ``reach`` value: search macro moves, as Sokoban
            solvers search pushes rather than steps: the states a walk from a popped state
            reaches (quiet moves, see ``search.quiet``) are all expanded before the heap gives
            the next one, so the heap orders only moves that change the board. The lines are
            the same kind (every step is kept, and replayed); elsewhere it changes nothing.

    Returns:
        The result; ``reason`` says why it stopped, ``path`` and ``note`` how it ran.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}: one of {', '.join(STRATEGIES)}")
    origin = engine.snapshot()
    pacer = _Pacer(progress, cancel_predicate(cancel), every, interval, clock, max_seconds)
    out = SolveResult(found=False, strategy=strategy, jobs=jobs)
    notes: list[str] = []
    kind = path if path in ("kernel", "plain", "reference") else ("kernel" if jit.available() else "plain")
    if kind == "plain" and path == "auto":
        notes.append(f"plain path: {jit.reason()}")
    keyed = False
    run: Any = None
    try:
        pacer.begin()
        while True:
            probe = Engine(engine.program)
            probe.restore(origin)
            try:
                if kind == "reference":
                    run = ReferenceSearch(probe, max_states, player, max_memory=max_memory)
                else:
                    run = PackedRun(probe, strategy=strategy, player=player, heuristic=heuristic,
                                    weight=weight, jobs=jobs, plain=kind == "plain", keyed=keyed,
                                    max_states=max_states, max_memory=max_memory, macro=macro)
                    if run.heuristic and f"heuristic: {run.heuristic}" not in notes:
                        notes.append(f"heuristic: {run.heuristic}")
                    if run.pruning and "dead cells" not in " ".join(notes):
                        notes.append("states with the win's pattern on dead cells are not expanded")
                out.reason = run.start_reason or _drive(run, pacer)
                break
            except Restart as again:
                run.close()
                if again.kind == "random":
                    keyed = True
                    notes.append("the game's randomness decides moves: states keyed with the RNG")
                elif again.kind == "fallback":
                    node = engine.nodes[again.detail]
                    kind = "plain"
                    notes.append(f"plain path: the kernel leaves node {node.id} ({node.type}) to the engine")
                else:
                    kind = "reference"
                    notes.append("reference path: a state left the packed layout")
            except LayoutError as exc:
                if run is not None:
                    run.close()
                kind = "reference"
                notes.append(f"reference path: {exc}")
            if kind == "reference" and strategy != "bfs":
                notes.append("the reference path searches breadth first only")
    except _Cancelled:
        out.reason = "cancelled"
    except _TimeUp:
        out.reason = "time"
    finally:
        engine.restore(origin)
        if run is not None:
            run.close()
    out.path = kind
    out.admissible = weight == 1 and bool(getattr(run, "admissible", False))
    out.note = "; ".join(notes)
    out.elapsed = clock() - pacer.start
    if run is not None:
        out.states, out.depth = run.count, run.deepest
        out.bytes_per_state, out.memory = run.state_bytes(), run.nbytes()
        if out.reason == "found":
            out.found = True
            out.choices = run.line(run.found)
            out.result = run.result if kind == "reference" else run.result_of(run.found)
    out.exhausted = out.reason == "exhausted"
    out.cancelled = out.reason == "cancelled"
    return out


def enumerate_reachable(engine: Any, max_states: int = 1_000_000, *, path: str = "auto") -> Iterator[Reached]:
    """Every distinct (board, result) pair reachable by choices, with its smallest depth.

    The contract of the corpus ``reachable/`` files, in breadth-first order. Raises
    :class:`StateLimit` past ``max_states`` states. The engine is left as it was.
    """
    origin = engine.snapshot()
    yield from _reachable(engine.program, origin, max_states, path)


def _reachable(program: Any, origin: Any, max_states: int, path: str) -> list[Reached]:
    kind = path if path in ("kernel", "plain", "reference") else ("kernel" if jit.available() else "plain")
    keyed = False
    while kind != "reference":
        probe = Engine(program)
        probe.restore(origin)
        try:
            run = PackedRun(probe, strategy="bfs", player=None, goal=False, plain=kind == "plain",
                            keyed=keyed, max_states=max_states)
            try:
                ended = run.start_reason or run.advance(max_states + 1)
            finally:
                run.close()
        except Restart as again:
            if again.kind == "fallback":
                kind = "plain"
                continue
            if again.kind == "random":
                keyed = True
                continue
            break
        except LayoutError:
            break
        if ended == "limit":
            raise StateLimit(max_states)
        return [Reached(board, result, depth) for board, result, depth in run.reachable()]
    seen: dict[Any, Reached] = {}

    def visit(eng: Engine, depth: int) -> None:
        pair = (eng.board_key(), _result_key(eng.result))
        if pair not in seen:
            seen[pair] = Reached(eng.board_dict(), eng.result, depth)

    probe = Engine(program)
    probe.restore(origin)
    search = ReferenceSearch(probe, max_states, None, goal=False, visit=visit)
    if search.advance(max_states + 1) == "limit":
        raise StateLimit(max_states)
    return list(seen.values())


def _result_key(result: dict[str, Any] | None) -> Any:
    if result is None:
        return None
    return tuple(sorted((k, str(v)) for k, v in result.items()))


__all__ = ["REASONS", "Reached", "cancel_predicate", "SolveResult", "StateLimit", "enumerate_reachable", "solve"]
