"""The reference search: breadth first over ``Engine`` snapshots keyed by ``Engine.key()``.

The solver as it first was (about 2 KB and a few hundred microseconds per state), kept because
it takes any game: boards that change size or layers, run-time errors as results. The packed
search falls back to it when a state does not fit its layout; the benchmarks measure it as the
baseline; tests check the packed search against it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from studio.engines.btree.runtime.engine import Engine

BYTES_PER_STATE = 2048
"""A rough size of one state here (key, snapshot, dict entry), for the memory limit."""


def is_winning(result: dict[str, Any] | None, player: str | None) -> bool:
    if not result or result.get("result") != "win":
        return False
    return player is None or str(result.get("player")) == player


class ReferenceSearch:
    """Breadth-first search from ``engine``'s state (which it moves; the caller restores it).

    Same interface as ``runner.Search``: ``advance(budget)``, ``count``, ``deepest``, ``line``.
    ``goal`` False searches the whole space (enumeration); ``visit(engine, depth)`` is called on
    every new state while the engine is in it.
    """

    def __init__(self, engine: Engine, max_states: int, player: str | None, goal: bool = True,
                 max_memory: int | None = None, visit: Any = None) -> None:
        self.engine = engine
        self.max_states = max_states
        self.player = player
        self.goal = goal
        self.max_memory = max_memory
        self.visit = visit
        self.parents: dict[Any, tuple[Any, int] | None] = {}
        self.deepest = 0
        self.found: Any = None
        self.result: dict[str, Any] | None = None
        self.start_reason: str | None = None
        self._walk = self._states()

    @property
    def count(self) -> int:
        return len(self.parents)

    def state_bytes(self) -> int:
        return BYTES_PER_STATE

    def nbytes(self) -> int:
        return BYTES_PER_STATE * self.count

    def close(self) -> None:
        pass

    def _states(self) -> Iterator[str | None]:
        engine, parents = self.engine, self.parents
        engine.run_to_choice()
        parents[engine.key()] = None
        queue = deque([(engine.key(), engine.snapshot(), 0)])
        yield self._met(0)
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
                if len(parents) >= self.max_states:
                    yield "limit"
                    return
                if self.max_memory is not None and self.nbytes() + BYTES_PER_STATE > self.max_memory:
                    yield "memory"
                    return
                parents[child] = (key, index)
                queue.append((child, engine.snapshot(), depth + 1))
                yield self._met(depth + 1)
        yield "exhausted"

    def _met(self, depth: int) -> str | None:
        self.deepest = depth
        engine = self.engine
        if self.visit is not None:
            self.visit(engine, depth)
        if self.goal and is_winning(engine.result, self.player):
            self.found = engine.key()
            self.result = engine.result
            return "found"
        return None

    def advance(self, budget: int) -> str:
        """Search until ``budget`` new states, or the end (``found``, ``exhausted``, ``limit``)."""
        for _ in range(budget):
            ended = next(self._walk, "exhausted")
            if ended is not None:
                return ended
        return "budget"

    def line(self, key: Any) -> list[int]:
        line = []
        step = self.parents[key]
        while step is not None:
            key, index = step
            line.append(index)
            step = self.parents[key]
        return line[::-1]
