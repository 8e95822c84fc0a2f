"""Step mode (§11.4): single steps, actions and choices, their undos, breakpoints, the call stack.

A :class:`Debugger` drives an :class:`Engine` node call by node call and keeps a snapshot before
every step (the last 1,000, §8) so each kind of step can be undone:

* ``undo_step()`` returns to the state before the last step (or the last choice/display clear);
* ``undo_action()`` returns to the last *action boundary* before now: the state just after a tile
  node returned, a wait started or was cleared, the game ended, or where the debugger started;
* ``undo_choice()`` returns to the last state before now that was waiting (for a choice or a
  display), i.e. where ``next_choice()`` stopped before.

When no such state is left in the bounded history, the undo goes to the oldest state kept. Every
undo returns how many steps it undid (0: nothing to undo).

Breakpoints are authored nodes (``(file key, path)`` as the compiler's ``origin``; a plain path
means the top-level file, key ``""``). ``run()`` stops *before* the first call of any compiled
node whose origin is marked: the node has just been pushed and is on top of the stack.
Pure: the screen only renders it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

from studio.engines.btree.runtime.engine import STEP_LIMIT, Engine
from studio.engines.btree.runtime.events import StepEvent
from studio.engines.btree.runtime.nodes import TILE_TYPES

HISTORY = 1000  # step snapshots kept (§8, Decision 15)
NodeRef = tuple[str, str]


class Companion(Protocol):
    """Whoever owns the engine's wider state (a ``PlaySession``): it follows the debugger's undos.

    Choices and display clears go through it so that it records them.
    """

    def debug_save(self) -> Any: ...

    def debug_load(self, saved: Any) -> None: ...

    def choose(self, index: int) -> None: ...

    def clear_display(self) -> None: ...


@dataclass(frozen=True)
class Frame:
    """One frame of the call stack, for the debugger panel.

    Attributes:
        id: compiled node id.
        type: node type.
        desc: the compiled node's ``desc`` (rewrites), or ``None``.
        comment: the authored node's comment, or ``None`` (compiled nodes carry none).
        origin: the authored node it came from, ``(file key, path)``; ``None`` without the map.
        via: transform/link/include nodes that produced it, innermost first.
    """

    id: int
    type: str
    desc: str | None
    comment: str | None
    origin: NodeRef | None
    via: tuple[NodeRef, ...]

    @property
    def label(self) -> str:
        """What to show next to the type: the desc, else the comment, else nothing."""
        return self.desc or self.comment or ""


@dataclass(frozen=True)
class RunStop:
    """Why ``run()`` stopped: ``"breakpoint"`` (before ``node``), ``"wait"``, ``"end"`` or ``"halted"``
    (nothing could run: a wait or the result was already pending)."""

    reason: str
    steps: int
    node: int | None = None


@dataclass(frozen=True)
class _Entry:
    snapshot: Any
    saved: Any
    action: bool  # an action boundary
    wait: bool  # the engine was waiting


class Debugger:
    """Step mode over ``engine``.

    Args:
        engine: the engine to drive (shared with the play screen's session, if any).
        companion: the session owning the engine (choices go through it, it follows undos).
        history: step snapshots kept for undo.
    """

    STEP_LIMIT = STEP_LIMIT

    def __init__(self, engine: Engine, companion: Companion | None = None, history: int = HISTORY) -> None:
        self.engine = engine
        self.companion = companion
        self.breakpoints: set[NodeRef] = set()
        self._history: deque[_Entry] = deque(maxlen=max(1, history))
        self._at_action = True  # where the debugger starts counts as a boundary

    # -- state ------------------------------------------------------------------------------

    @property
    def halted(self) -> bool:
        """Whether stepping does nothing now: a wait or the result is pending."""
        return self.engine.waiting is not None or self.engine.result is not None

    @property
    def step_count(self) -> int:
        """Counted steps since the last budget reset (§7.2)."""
        return self.engine.step_count

    @property
    def steps_left(self) -> int:
        """Counted steps left before ``stepout``."""
        return max(0, STEP_LIMIT - 1 - self.engine.step_count)

    @property
    def rng_state(self) -> float:
        """The engine RNG state (§7.7): an integer below 2^31 held in a float."""
        return self.engine.rng.state

    @property
    def history_size(self) -> int:
        """Step snapshots available for undo."""
        return len(self._history)

    def stack(self) -> list[Frame]:
        """The call stack, root first."""
        engine = self.engine
        source = engine.program.compiled
        frames = []
        for node_id in engine.path():
            node = engine.nodes[node_id]
            origin = engine.origin(node_id)
            comment = None
            if source is not None and origin is not None:
                comment = source.authored.get(tuple(origin), {}).get("comment") or None
            desc = node.get("desc")
            frames.append(Frame(node_id, node.type, None if desc in (None, "") else str(desc),
                                comment, None if origin is None else tuple(origin), engine.via(node_id)))
        return frames

    # -- breakpoints ------------------------------------------------------------------------

    def toggle_breakpoint(self, path: str | NodeRef) -> bool:
        """Mark or unmark an authored node; returns whether it is marked now."""
        ref = _ref(path)
        if ref in self.breakpoints:
            self.breakpoints.discard(ref)
            return False
        self.breakpoints.add(ref)
        return True

    def at_breakpoint(self) -> bool:
        """Whether the node on top of the stack comes from a marked authored node."""
        path = self.engine.path()
        return bool(path) and self._marked(path[-1])

    def _marked(self, node_id: int) -> bool:
        origin = self.engine.origin(node_id)
        return origin is not None and tuple(origin) in self.breakpoints

    # -- moving forward -----------------------------------------------------------------------

    def step(self) -> StepEvent:
        """One node call (``n``); an empty event when halted."""
        if self.halted:
            return StepEvent()
        self._push()
        event = self.engine.step()
        self._at_action = (
            (event.returned is not None and event.type in TILE_TYPES)
            or event.wait is not None or event.result is not None
        )
        return event

    def next_action(self) -> list[StepEvent]:
        """Steps until a tile node returns, a wait starts or the game ends (``N``)."""
        events = []
        while not self.halted:
            events.append(self.step())
            if self._at_action:
                break
        return events

    def next_choice(self) -> list[StepEvent]:
        """Steps until a wait or the result (``c``)."""
        events = []
        while not self.halted:
            events.append(self.step())
        return events

    def run(self) -> RunStop:
        """Steps until a marked node is about to be called, a wait or the result (``g``).

        At least one step is taken, so running again from a breakpoint moves on.
        """
        if self.halted:
            return RunStop("halted", 0)
        steps = 0
        engine = self.engine
        while True:
            depth = len(engine.path())
            self.step()
            steps += 1
            if engine.result is not None:
                return RunStop("end", steps)
            if engine.waiting is not None:
                return RunStop("wait", steps)
            path = engine.path()
            if len(path) > depth and self._marked(path[-1]):  # just pushed: not called yet
                return RunStop("breakpoint", steps, path[-1])

    def choose(self, index: int) -> None:
        """Clear the choice wait with ``index`` (through the companion when there is one)."""
        if self.engine.waiting != "choice":
            raise ValueError("the engine is not waiting for a choice")
        self._push()
        if self.companion is not None:
            self.companion.choose(index)
        else:
            self.engine.choose(index)
        self._at_action = True

    def clear_display(self) -> None:
        """Clear the display wait (through the companion when there is one)."""
        if self.engine.waiting != "display":
            raise ValueError("the engine is not waiting for a display")
        self._push()
        if self.companion is not None:
            self.companion.clear_display()
        else:
            self.engine.clear_display()
        self._at_action = True

    # -- undo -------------------------------------------------------------------------------

    def undo_step(self) -> int:
        """Back to the state before the last step (``p``); returns 1, or 0 if nothing to undo."""
        return self._undo_to(len(self._history) - 1)

    def undo_action(self) -> int:
        """Back to the last action boundary before now (``P``); returns the steps undone."""
        return self._undo_to(self._latest(lambda e: e.action))

    def undo_choice(self) -> int:
        """Back to the last waiting state before now (``C``); returns the steps undone."""
        return self._undo_to(self._latest(lambda e: e.wait))

    def clear_history(self) -> None:
        """Forget the step history (e.g. after the session restarted or undid a choice)."""
        self._history.clear()
        self._at_action = True

    def _latest(self, wanted: Any) -> int:
        for i in range(len(self._history) - 1, -1, -1):
            if wanted(self._history[i]):
                return i
        return 0  # the oldest state kept

    def _undo_to(self, index: int) -> int:
        if not self._history or index < 0:
            return 0
        undone = len(self._history) - index
        entry = self._history[index]
        for _ in range(undone):
            self._history.pop()
        self.engine.restore(entry.snapshot)
        if self.companion is not None:
            self.companion.debug_load(entry.saved)
        self._at_action = entry.action
        return undone

    def _push(self) -> None:
        saved = self.companion.debug_save() if self.companion is not None else None
        self._history.append(_Entry(self.engine.snapshot(), saved, self._at_action, self.engine.waiting is not None))


def _ref(path: str | NodeRef) -> NodeRef:
    """A breakpoint key: a plain path names a node of the top-level file."""
    if isinstance(path, str):
        return ("", path)
    key, where = path
    return (str(key), str(where))
