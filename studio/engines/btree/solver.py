"""Breadth-first search over player choices: shortest wins and reachable boards.

Each edge is one choice at a choice wait followed by running on to the next choice wait or the
end (display waits cleared without resetting the step budget, as the headless runner does).
States are deduplicated by the engine's ``key()``; engine randomness is not branched: it is fixed
by the seed, exactly like the reference's BFS agent (``script/game_agent.py``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Board = dict[str, list[list[str]]]
Parents = dict[Any, "tuple[Any, int] | None"]


class StateLimit(Exception):
    """The search met its state limit before it was done."""


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


@dataclass
class Reached:
    """One distinct (board, result) pair of :func:`enumerate_reachable`."""

    board: Board | None
    result: dict[str, Any] | None
    depth: int
    """The fewest choices that reach it."""


def _states(engine: Any, max_states: int, parents: Parents) -> Iterator[int]:
    """Visit every state reachable by choices, breadth first; yields each one's depth.

    When a depth is yielded the engine *is* in that state (so the caller can look at it), and
    ``parents`` maps every state met so far to (parent key, choice index). The start state is
    the first observation: the engine run to its first choice wait or the end.
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


def solve(
    engine: Any,
    max_states: int = 200_000,
    player: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SolveResult:
    """The shortest choice sequence from the engine's state to a win (of ``player`` if given).

    The engine is left as it was. ``progress(states, depth)`` is called every 1,000 states so
    that a UI can show it, and a worker can cancel by raising from it.
    """
    origin = engine.snapshot()
    parents: Parents = {}
    try:
        for depth in _states(engine, max_states, parents):
            if _is_winning(engine.result, player):
                return SolveResult(True, _line(parents, engine.key()), engine.result, len(parents))
            if progress is not None and len(parents) % 1000 == 0:
                progress(len(parents), depth)
    except StateLimit:
        return SolveResult(False, states=len(parents))
    finally:
        engine.restore(origin)
    return SolveResult(False, states=len(parents), exhausted=True)


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
