"""RNG-independent successor sets (the corpus ``successors/`` data, README §successors).

Every engine draw is replaced by an exhaustive decision: every match of a ``rewrite``, every order
in which ``random-try`` can try its children (decided lazily, one child at a time, which gives the
same sets as every shuffle), every Fisher–Yates outcome of ``rewrite-all``. An *observation* is the
engine at a choice wait or at game over; display waits are cleared (with a budget reset, as in the
traces) and are not observations.

A decision is taken at the start of a node call, before the call changes anything: the oracle RNG
raises ``NeedDecision``; the engine is then left just before that call, and the explorer restores
that state once per option with the option forced.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.runtime.snapshot import Snapshot

MAX_SHUFFLE = 8  # rewrite-all with more matches would need more than 8! orders


class NeedDecision(BaseException):
    """Raised by the oracle RNG at an undecided draw site: ``options`` outcomes exist.

    A ``BaseException`` so that the engine's error handling (authoring errors become a result)
    lets it through.
    """

    def __init__(self, options: int) -> None:
        super().__init__(options)
        self.options = options


class OracleRng:
    """Stands in for ``Rng``: every draw site asks for a forced decision."""

    def __init__(self) -> None:
        self.state = 0.0
        self.forced: int | None = None

    def seed(self, seed: int) -> None:
        """Ignored: the oracle has no seed."""

    def _decide(self, options: int) -> int:
        if options == 1 and self.forced is None:
            return 0  # nothing to branch on
        forced = self.forced
        if forced is None:
            raise NeedDecision(options)
        self.forced = None
        return forced

    def index(self, n: int) -> int:
        """``rewrite``: every match is an option."""
        return self._decide(n)

    def try_order(self, n: int) -> list[int]:
        """``random-try``: the children still to try, kept sorted (decided at each take)."""
        return list(range(n))

    def take(self, order: list[int]) -> int:
        """``random-try``: any remaining child may come next."""
        return order.pop(self._decide(len(order)))

    def shuffle(self, items: list) -> None:
        """``rewrite-all``: every Fisher–Yates outcome is an option."""
        n = len(items)
        if n <= 1:
            return
        if n > MAX_SHUFFLE:
            raise ValueError(f"rewrite-all with {n} matches: too many orders to enumerate")
        option = self._decide(math.factorial(n))
        # Decode the option as the Fisher–Yates draws j_i in [0, i], i = n-1 .. 1.
        for i in range(n - 1, 0, -1):
            option, j = divmod(option, i + 1)
            items[i], items[j] = items[j], items[i]


def observation(engine: Engine) -> dict[str, Any]:
    """The observable part of a state: board, result, choices (``None`` at game over)."""
    board = engine.board
    return {
        "board": None if board is None else board.to_json(),
        "result": engine.result,
        "choices": None if engine.result is not None else [c.to_json() for c in engine.choices],
    }


def canonical(obs: Mapping[str, Any]) -> str:
    """Canonical JSON text of an observation (keys sorted, pids as strings)."""

    def norm(value: Any, key: str | None = None) -> Any:
        if key in ("pid", "player") and isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(int(value)) if float(value).is_integer() else str(value)
        if isinstance(value, dict):
            return {k: norm(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [norm(v) for v in value]
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    return json.dumps(norm(dict(obs)), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Explorer:
    """Exhaustive exploration of one game.

    Attributes:
        engine: the engine, with its RNG replaced by an ``OracleRng``.
        runs: how many partial runs were made (comparable in spirit to ``oracle_runs``).
    """

    engine: Engine
    runs: int = 0
    _views: dict[str, dict] = field(default_factory=dict)

    @classmethod
    def for_game(cls, compiled: Mapping[str, Any] | Program) -> "Explorer":
        engine = Engine(compiled)
        engine.rng = OracleRng()  # type: ignore[assignment]
        return cls(engine)

    def _run(self) -> None:
        engine = self.engine
        while True:
            waiting = engine.run_to_wait()
            if waiting != "display":
                return
            engine.clear_display(reset=True)

    def explore(self, start: Snapshot, choice: int | None = None) -> dict[str, list[Snapshot]]:
        """Observations reachable from ``start`` (after applying ``choice`` there, if given).

        Returns canonical observation text → engine states (snapshots) showing it.
        """
        engine = self.engine
        found: dict[str, dict[Any, Snapshot]] = {}
        seen: set = set()
        todo: list[tuple[Snapshot, int | None, bool]] = [(start, None, True)]
        while todo:
            snap, forced, first = todo.pop()
            engine.restore(snap)
            if first and choice is not None:
                engine.choose(choice, reset=True)
            marker = (engine.key(), forced)
            if marker in seen:
                continue
            seen.add(marker)
            engine.rng.forced = forced
            self.runs += 1
            try:
                self._run()
            except NeedDecision as need:
                pre = engine.snapshot()
                for option in reversed(range(need.options)):
                    todo.append((pre, option, False))
                continue
            obs = observation(engine)
            text = canonical(obs)
            self._views.setdefault(text, obs)
            found.setdefault(text, {}).setdefault(engine.key(), engine.snapshot())
        return {text: list(states.values()) for text, states in found.items()}

    def view(self, text: str) -> dict:
        """The observation (dict) of a canonical text returned by ``explore``."""
        return self._views[text]


def successors(compiled: Mapping[str, Any] | Program, levels: int) -> dict[str, Any]:
    """Levels of observations and the edges between them (the ``successors/`` shape).

    Node ids are ``"level.index"`` with observations sorted by canonical text.
    """
    explorer = Explorer.for_game(compiled)
    start = explorer.engine.snapshot()
    current = explorer.explore(start)
    out_levels = []
    edges = []
    level = 0
    while True:
        names = sorted(current)
        ids = {text: f"{level}.{i}" for i, text in enumerate(names)}
        out_levels.append(
            {"level": level, "count": len(names),
             "nodes": [{"id": ids[t], **explorer.view(t)} for t in names]}
        )
        if level == levels:
            break
        following: dict[str, list[Snapshot]] = {}
        pending = []
        for text in names:
            obs = explorer.view(text)
            if obs["result"] is not None:
                continue
            for c in range(len(obs["choices"])):
                targets: set[str] = set()
                for snap in current[text]:
                    for target, states in explorer.explore(snap, c).items():
                        targets.add(target)
                        following.setdefault(target, []).extend(states)
                pending.append((ids[text], c, targets))
        next_ids = {text: f"{level + 1}.{i}" for i, text in enumerate(sorted(following))}
        edges.extend({"from": f, "choice": c, "to": sorted(next_ids[t] for t in ts)} for f, c, ts in pending)
        current = following
        level += 1
    return {"format": "btree-successors/1", "exhaustive": True, "oracle_runs": explorer.runs,
            "levels_requested": levels, "levels": out_levels, "edges": edges}
