"""Breadth-first search over player choices: shortest wins and reachable boards.

Each edge is one choice at a choice wait followed by running on to the next choice wait or the
end (display waits cleared without resetting the step budget, as the headless runner does).
States are deduplicated by the engine's ``key()``; engine randomness is not branched: it is fixed
by the seed, exactly like the reference's BFS agent (``script/game_agent.py``).

:func:`solve` reports progress by count and by time (a slow game still updates a screen) and can
be cancelled from another thread (§11.5).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .engine import Engine

Board = dict[str, list[list[str]]]
Parents = dict[Any, "tuple[Any, int] | None"]
Tick = Callable[[int, int], None]

PROGRESS_EVERY = 1000  # states between two progress reports at most
PROGRESS_INTERVAL = 0.25  # seconds between two progress reports at most (a slow game)


class StateLimit(Exception):
    """The search met its state limit before it was done."""


class _Cancelled(Exception):
    """The caller asked the search to stop."""


@dataclass
class SolveResult:
    """Outcome of :func:`solve`."""

    found: bool
    """Whether a winning line was found."""
    choices: list[int] = field(default_factory=list)
    """Choice indices of the shortest winning line, first move first."""
    result: dict[str, Any] | None = None
    """The engine result at the end of the line."""
    states: int = 0
    """Distinct states met."""
    exhausted: bool = False
    """True when the whole reachable space was searched (so 'not found' is definitive)."""
    cancelled: bool = False
    """True when the search was cancelled before it was done."""
    depth: int = 0
    """The deepest BFS level reached (choices from the start)."""
    elapsed: float = 0.0
    """Seconds spent searching."""

    @property
    def rate(self) -> float:
        """States per second (0 when nothing measurable was timed)."""
        return self.states / self.elapsed if self.elapsed > 0 else 0.0


@dataclass
class Reached:
    """One distinct (board, result) pair of :func:`enumerate_reachable`."""

    board: Board | None
    result: dict[str, Any] | None
    depth: int
    """The fewest choices that reach it."""


def _states(engine: Any, max_states: int, parents: Parents, tick: Tick | None = None) -> Iterator[int]:
    """Visit every state reachable by choices, breadth first; yields each one's depth.

    When a depth is yielded the engine *is* in that state (so the caller can look at it), and
    ``parents`` maps every state met so far to (parent key, choice index). The start state is
    the first observation: the engine run to its first choice wait or the end. ``tick(states,
    depth)`` is called after every edge, also those that lead to a known state, so that a
    long run of duplicates still reports progress and sees a cancel.
    """
    engine.run_to_choice()
    parents[engine.key()] = None
    queue = deque([(engine.key(), engine.snapshot(), 0)])
    yield 0
    while queue:
        key, snapshot, depth = queue.popleft()
        engine.restore(snapshot)
        if engine.result is not None or engine.waiting != "choice":
            continue  # finished games are not expanded
        for index in range(len(engine.choices)):
            engine.restore(snapshot)
            engine.choose(index)
            engine.run_to_choice()
            if tick is not None:
                tick(len(parents), depth + 1)
            child = engine.key()
            if child in parents:
                continue
            if len(parents) >= max_states:
                raise StateLimit(max_states)
            parents[child] = (key, index)
            queue.append((child, engine.snapshot(), depth + 1))
            yield depth + 1


def _is_winning(result: dict[str, Any] | None, player: str | None) -> bool:
    if not result or result.get("result") != "win":
        return False
    return player is None or str(result.get("player")) == player


def _cancel_check(cancel: Any) -> Callable[[], bool]:
    """``cancel`` as a predicate: a ``threading.Event`` (or anything with ``is_set``), a callable."""
    if cancel is None:
        return lambda: False
    if hasattr(cancel, "is_set"):
        return cancel.is_set
    return cancel


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
) -> SolveResult:
    """The shortest choice sequence from the engine's state to a win (of ``player`` if given).

    The engine is left as it was.

    Args:
        engine: the engine to search from (restored afterwards).
        max_states: give up (not exhausted) past this many distinct states.
        player: only a win of this pid (compared as a string) counts.
        progress: ``progress(states, depth)``, called at the start, whenever ``every`` more
            states were met and at least every ``interval`` seconds (of ``clock``) while searching, so a slow
            game still updates a screen. It runs on the searching thread; raising from it
            stops the search with that exception.
        cancel: a ``threading.Event`` or a callable returning True to stop; checked after every
            edge, so a cancel from another thread is seen within one choice's run.
        every, interval, clock: the progress cadence (tests pass a fake clock).

    Returns:
        The result; ``cancelled`` is set (and ``found`` false) when stopped by ``cancel``.
    """
    origin = engine.snapshot()
    parents: Parents = {}
    stop = _cancel_check(cancel)
    start = clock()
    deepest = 0
    due_states = every
    due_time = start + interval

    def tick(states: int, depth: int) -> None:
        nonlocal due_states, due_time
        if stop():
            raise _Cancelled
        if progress is None:
            return
        now = clock()
        if states >= due_states or now >= due_time:
            progress(states, depth)
            due_states = (states // every + 1) * every
            due_time = now + interval

    def done(**fields: Any) -> SolveResult:
        return SolveResult(states=len(parents), depth=deepest, elapsed=clock() - start, **fields)

    try:
        tick(0, 0)
        if progress is not None:
            progress(0, 0)  # at once, so a screen shows the search has started
        for depth in _states(engine, max_states, parents, tick):
            deepest = depth
            if _is_winning(engine.result, player):
                return done(found=True, choices=_line(parents, engine.key()), result=engine.result)
    except StateLimit:
        return done(found=False)
    except _Cancelled:
        return done(found=False, cancelled=True)
    finally:
        engine.restore(origin)
    return done(found=False, exhausted=True)


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
    result: SolveResult | None = None
    """Set by :meth:`run`."""

    def run(self, progress: Callable[[int, int], None] | None = None, cancel: Any = None) -> SolveResult:
        """Search breadth first from the snapshot (``progress`` and ``cancel`` as :func:`solve`)."""
        engine = Engine(self.program)
        engine.restore(self.snapshot)
        self.result = solve(engine, self.max_states, self.player, progress, cancel=cancel)
        return self.result


def _line(parents: Parents, key: Any) -> list[int]:
    line = []
    step = parents[key]
    while step is not None:
        key, index = step
        line.append(index)
        step = parents[key]
    return line[::-1]


def enumerate_reachable(engine: Any, max_states: int = 1_000_000) -> Iterator[Reached]:
    """Every distinct (board, result) pair reachable by choices, with its smallest depth.

    The contract of the corpus ``reachable/`` files. Raises :class:`StateLimit` past
    ``max_states`` states. The engine is left as it was.
    """
    origin = engine.snapshot()
    seen: set[tuple[Any, Any]] = set()
    try:
        for depth in _states(engine, max_states, {}):
            pair = (engine.board_key(), _result_key(engine.result))
            if pair not in seen:
                seen.add(pair)
                yield Reached(engine.board_dict(), engine.result, depth)
    finally:
        engine.restore(origin)


def _result_key(result: dict[str, Any] | None) -> Any:
    if result is None:
        return None
    return tuple(sorted((k, str(v)) for k, v in result.items()))
