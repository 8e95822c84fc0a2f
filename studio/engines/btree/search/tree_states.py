"""Where the computer seat's positions live and its moves run: engine snapshots or kernel states.

:class:`PlainStates` keeps a position as an ``Engine`` snapshot and runs a move on the engine
(restore, choose, run to the next choice wait): the reference. :class:`KernelStates` keeps it as
a flat state of :mod:`.tree_kernel` and runs a move, and the playouts from it, on the numba
kernel without going back to the engine; the same runs, the same draws from the search's
generator, so the same search, many times faster. Both answer the same questions, so
:class:`.mcts.Computer` does not know which it drives. Where the kernel meets a node it leaves
to the plain engine, :class:`KernelStates` raises :class:`KernelFallback` and the search starts
again on the plain path (same seed: the same search as if it had been there from the start).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from studio.engines.btree.runtime.engine import Engine, Program
from .layout import PREV_CODE
from .playout import Playouts
from .tables import result_of
from .vm import CHOICE, FALLBACK, M_ENC


class KernelFallback(Exception):
    """The kernel cannot run this move or playout: search on the plain engine instead."""


def _plain_key(engine: Engine) -> tuple:
    key = engine.key()
    return key[:3] + key[4:]  # without the RNG state: what comes next never depends on it (mcts)


class PlainStates:
    """Positions as engine snapshots, moves on the engine (the reference path)."""

    path = "plain"

    def __init__(self, program: Program, playouts: Playouts, display_reset: bool) -> None:
        self.engine = Engine(program)
        self.playouts = playouts
        self.display_reset = display_reset

    def root(self, snapshot: Any) -> bool:
        """Set at the search's position; False when it is not at a choice wait."""
        self.engine.restore(snapshot)
        return self.engine.waiting == "choice"

    def step(self, snap: Any, index: int, rng: float | None) -> bool:
        """Move ``index`` from a position (with this engine RNG, or its own); True when the
        run drew from the engine RNG."""
        engine = self.engine
        engine.restore(snap)
        if rng is not None:
            engine.rng.state = rng
        before = engine.rng.state
        engine.choose(index)
        while engine.run_to_wait() == "display":
            engine.clear_display(reset=self.display_reset)
        return engine.rng.state != before

    def key(self) -> tuple:
        """The key of the position reached (the root, or the last step)."""
        return _plain_key(self.engine)

    def made(self) -> tuple[Any, str | None, int, dict | None]:
        """(state, player to move, choices, result) of the position reached."""
        engine = self.engine
        player = None if engine.choice_player is None else str(engine.choice_player)
        count = len(engine.choices) if engine.waiting == "choice" else 0
        return (engine.snapshot(), player, count,
                None if engine.result is None else dict(engine.result))

    def playout(self, snap: Any, rng: float, chooser: Any, cap: int,
                stop: Callable[[], bool]) -> dict | None:
        engine = self.engine
        engine.restore(snap)
        engine.rng.state = rng
        return self.playouts.run(engine, chooser, cap, self.display_reset, stop).result


class KernelStates:
    """Positions as flat kernel states with their engine RNG, moves and playouts on the kernel."""

    path = "kernel"

    def __init__(self, program: Program, playouts: Playouts, display_reset: bool) -> None:
        from .tree_kernel import expand  # noqa: PLC0415 - numba loads with it

        self._expand = expand
        self.program = program
        self.playouts = playouts
        self.display_reset = display_reset
        self.engine = Engine(program)
        self.board: Any = None
        self._io = np.zeros(3, np.int64)
        self._fio = np.zeros(1)
        self._out = np.zeros(0, np.int32)
        self._status = 0

    def root(self, snapshot: Any) -> bool:
        """Set at the search's position; False when the kernel cannot hold it (or not at a
        choice wait): the search goes to the plain engine."""
        engine = self.engine
        engine.restore(snapshot)
        if engine.waiting != "choice" or not engine._stack:
            return False
        held = self.playouts.encoded(engine)
        if held is None:
            return False
        board, frame, codes, stack = held
        room = int(board.machine[1][M_ENC + 1] - board.machine[1][M_ENC])  # the stack's buffer
        if len(stack) > room:
            return False
        self.board = board
        head = np.array([frame, PREV_CODE[engine._prev] - 1, 0, len(stack)], np.int32)
        state = np.concatenate([head, codes, stack]).astype(np.int32)
        self._out = np.zeros(len(head) + len(codes) + room, np.int32)
        self._out[:len(state)] = state
        self._io[:] = (len(state), len(engine.choices), engine._stack[-1][0])
        self._fio[0] = engine.rng.state
        self._status = CHOICE
        return True

    def step(self, node_state: tuple[np.ndarray, float], index: int, rng: float | None) -> bool:
        state, own = node_state
        start = own if rng is None else rng
        board = self.board
        self._status = self._expand(board.tables.kernel, board.machine, state, start, index,
                                    self.display_reset, self._out, self._io, self._fio)
        if self._status == FALLBACK:
            raise KernelFallback("a move the kernel leaves to the plain engine")
        return self._fio[0] != start

    def key(self) -> bytes:
        return self._out[:self._io[0]].tobytes()

    def made(self) -> tuple[Any, str | None, int, dict | None]:
        state = self._out[:self._io[0]].copy()
        if self._status == CHOICE:
            pid = self.program.nodes[int(self._io[2])].data.get("pid")
            player = None if pid is None else str(pid)
            return (state, float(self._fio[0])), player, int(self._io[1]), None
        return (state, float(self._fio[0])), None, 0, result_of(int(state[2]), self.program.nodes)

    def playout(self, node_state: tuple[np.ndarray, float], rng: float, chooser: Any, cap: int,
                stop: Callable[[], bool]) -> dict | None:
        out = self.playouts.run_state(self.board, node_state[0], rng, chooser, cap,
                                      self.display_reset, stop)
        if out is None:
            raise KernelFallback("a playout the kernel leaves to the plain engine")
        return out.result
