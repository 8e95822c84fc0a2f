"""Random playouts: every choice drawn uniformly with a SplitMix64 until the game ends.

:func:`plain_playout` on ``Engine`` is the reference; :class:`Playouts` plays the same games on
the solver's numba kernel (:mod:`.playout_kernel`): same generator, same draws, so the same
moves, length and result. Where the kernel cannot go (numba missing, a board the packing cannot
describe, a node it leaves to the plain engine, a run-time error to report) the playout is
played, or played again from its start, on the plain engine, and :attr:`Playout.path` says so.
A game's start runs on the plain engine up to where the kernel can take over: the first wait,
or, for a level generator that draws before it, the first draw (``Playouts._find_early``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from studio.engines import jit
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.common.splitmix import SplitMix64
from .layout import PREV_CODE, Layout, LayoutError, encode_frames
from .tables import build, result_of

CHECK_EVERY = 16
"""Moves between calls of a playout's ``stop`` (it is asked before moves 15, 31, ...)."""
_EARLY_STEPS = 10_000
"""Steps a game's start may take before its first draw for the kernel to take over there (the
start is stepped once, with a snapshot a step; the generators seen take tens)."""
_FALLBACKS = 3
"""Kernel playouts handed back before a game's playouts all go to the plain engine: a node the
kernel cannot run is usually on every line (a level loader), and each one costs a replay."""


@dataclass(frozen=True)
class Playout:
    """One playout: its end, how many choices were made, which, and on which path.

    Attributes:
        result: the engine's result; ``None`` when cut short (a move cap, or ``stop``).
        moves: choices made.
        choices: each choice's index, in order (empty unless asked for).
        path: ``"kernel"`` or ``"plain"``.
    """

    result: dict | None
    moves: int
    choices: tuple[int, ...]
    path: str


def _settle(engine: Engine, display_reset: bool) -> None:
    """Run to the next choice wait or the end, clearing display waits."""
    while engine.run_to_wait() == "display":
        engine.clear_display(reset=display_reset)


def plain_playout(engine: Engine, chooser: SplitMix64, cap: int | None = None,
                  display_reset: bool = False, stop: Callable[[], bool] | None = None,
                  record: bool = False) -> Playout:
    """A random playout on ``engine`` from its state (the reference of the kernel's).

    Args:
        engine: where the playout starts; it is left where the playout ended.
        chooser: draws each choice (``chooser.below(len(choices))``).
        cap: at most this many choices (``None``: to the end).
        display_reset: whether clearing a display wait resets the step budget.
        stop: asked every ``CHECK_EVERY`` moves; True cuts the playout short.
        record: keep the choices made.
    """
    made: list[int] = []
    moves = 0
    while True:
        _settle(engine, display_reset)
        if engine.waiting != "choice":
            return Playout(engine.result, moves, tuple(made), "plain")
        if (cap is not None and moves >= cap) or (
                stop is not None and moves % CHECK_EVERY == CHECK_EVERY - 1 and stop()):
            return Playout(None, moves, tuple(made), "plain")
        index = chooser.below(len(engine.choices))
        if record:
            made.append(index)
        engine.choose(index)
        moves += 1


class _Board:
    """The kernel's tables for one board shape, and a machine to run them."""

    def __init__(self, program: Program, layers: dict) -> None:
        from . import playout_kernel, vm  # noqa: PLC0415 - numba loads with them

        self.k = playout_kernel
        self.layout = Layout(program.nodes, layers)
        self.tables = build(program.nodes, self.layout, None)
        self.machine = vm.machine(self.tables.dims)
        self.rows: dict[tuple, np.ndarray] = {}  # row tuple -> tile codes (rows are shared)

    def encode(self, layers: dict) -> tuple[int, np.ndarray]:
        """(frame, tile codes) of a board; LayoutError when the layout cannot hold it."""
        names = tuple(layers)
        first = next(iter(layers.values()))
        shape = (names, len(first), len(first[0]) if first else 0)
        if shape not in self.layout.shapes:
            raise LayoutError("a board shape the layout does not know")
        frame = self.layout.shapes.index(shape)
        out = np.zeros(self.layout.cells, np.int32)
        span, cells = self.layout.span, shape[1] * shape[2]
        code, cache = self.layout.code, self.rows
        for name, grid in layers.items():
            parts = []
            for row in grid:
                codes = cache.get(row)
                if codes is None:
                    try:
                        codes = cache[row] = np.array([code[tile] for tile in row], np.int32)
                    except KeyError as exc:
                        raise LayoutError(f"tile {exc} was never seen in the game") from None
                parts.append(codes)
            at = self.layout.layer_index[name] * span
            out[at:at + cells] = np.concatenate(parts)
        return frame, out


class Playouts:
    """Random playouts of one game, on the kernel where it can run them.

    Args:
        program: the game.
        kernel: use the kernel when numba loads (False: always the plain engine, e.g. while a
            screen's warm-up has not compiled it yet).
    """

    def __init__(self, program: Any, kernel: bool = True) -> None:
        self.program = program if isinstance(program, Program) else Program(program)
        self.kernel = kernel and jit.available()
        self.reason = "" if self.kernel else (jit.reason() or "the kernel was not asked for")
        """Why playouts go to the plain engine ("" while the kernel plays them)."""
        self.fallbacks = 0
        self._boards: dict[tuple, _Board | None] = {}
        self._start: tuple | None = None
        self._early: tuple | Literal[False] | None = None  # see _find_early; None: not looked for
        self._chooser = np.zeros(1, np.uint64)
        self._io = np.zeros(1, np.int64)
        self._none = np.zeros(0, np.int32)

    def run(self, engine: Engine, chooser: SplitMix64, cap: int | None = None,
            display_reset: bool = False, stop: Callable[[], bool] | None = None,
            record: bool = False) -> Playout:
        """As :func:`plain_playout` (same arguments, same playout), on the kernel if it can.

        On the kernel path ``engine`` stays where the playout started, or at its first wait;
        ``chooser`` moves on exactly as the plain engine moves it.
        """
        fresh = engine._stack is None and engine._board.layers is None and engine.result is None
        if fresh and self.kernel and self._early is None:
            self._early = self._find_early()
        if fresh and self.kernel and self._early:
            board, frame, codes, stack, prev, steps = self._early
            out = self._play(board, frame, codes, stack, prev, steps, engine.rng.state, chooser,
                             cap, display_reset, stop, record)
            if out is not None:
                return out
            # The kernel met a node it leaves alone after the early start (a level loader
            # drawing first, say): from now on the plain engine runs to the first wait.
            self._early = False
        if fresh and self._start is not None and self.kernel:
            board, frame, codes, stack, prev = self._start  # the game's start, without its run
        else:
            rng = engine.rng.state
            _settle(engine, display_reset)
            board = self._board(engine) if self.kernel and engine.waiting == "choice" else None
            if board is None:
                return plain_playout(engine, chooser, cap, display_reset, stop, record)
            try:
                frame, codes = board.encode(engine._board.layers)
            except LayoutError as exc:
                self._give_up(f"the kernel's packing: {exc}")
                return plain_playout(engine, chooser, cap, display_reset, stop, record)
            stack = np.array(encode_frames(engine._stack), np.int32)
            prev = PREV_CODE[engine._prev] - 1
            if fresh and engine.rng.state == rng:
                # No draw before the first wait: every game starts there, whatever its seed.
                self._start = board, frame, codes, stack, prev
        start = chooser.state
        out = self._play(board, frame, codes, stack, prev, 0, engine.rng.state, chooser, cap,
                         display_reset, stop, record)
        if out is not None:
            return out
        # a node for the plain engine: the whole playout again there, from the same start
        self.fallbacks += 1
        if self.fallbacks >= _FALLBACKS:
            self._give_up("nodes the kernel leaves to the plain engine")
        chooser.state = start
        return plain_playout(engine, chooser, cap, display_reset, stop, record)

    def _play(self, board: _Board, frame: int, codes: np.ndarray, stack: np.ndarray, prev: int,
              steps: int, rng: float, chooser: SplitMix64, cap: int | None, display_reset: bool,
              stop: Callable[[], bool] | None, record: bool) -> Playout | None:
        """The playout on the kernel from a machine state; None (``chooser`` untouched) where
        it met a node for the plain engine."""
        t, m = board.tables.kernel, board.machine
        board.k.set_machine(t, m, frame, codes, stack, prev, rng)
        m[1][board.k.R_STEPS] = steps  # the step budget already spent, as the engine counts it
        return self._drive(board, chooser, cap, display_reset, stop, record)

    def run_state(self, board: _Board, state: np.ndarray, rng: float, chooser: SplitMix64,
                  cap: int | None, display_reset: bool,
                  stop: Callable[[], bool] | None) -> Playout | None:
        """The playout on the kernel from a flat state of :mod:`.tree_kernel` (the search tree's
        positions), with this engine RNG; None (``chooser`` untouched) where it met a node for
        the plain engine."""
        from .tree_kernel import load_state  # noqa: PLC0415 - numba loads with it

        load_state(board.tables.kernel, board.machine, state, rng)
        return self._drive(board, chooser, cap, display_reset, stop, False)

    def _drive(self, board: _Board, chooser: SplitMix64, cap: int | None, display_reset: bool,
               stop: Callable[[], bool] | None, record: bool) -> Playout | None:
        """Random moves on a machine set at a state, up to the end, ``cap`` or ``stop``."""
        t, m = board.tables.kernel, board.machine
        k = board.k
        self._chooser[0] = chooser.state
        self._io[0] = 0
        out = np.zeros(cap if cap is not None else 256, np.int32) if record else self._none
        while True:
            moves = int(self._io[0])
            limit = cap if cap is not None else 1 << 62
            if stop is not None:  # pause where the plain engine asks ``stop``
                gap = CHECK_EVERY - 1 - moves % CHECK_EVERY
                limit = min(limit, moves + (gap or CHECK_EVERY))
            if record:
                if moves == len(out):
                    out = np.resize(out, 2 * len(out))
                limit = min(limit, len(out))
            status = k.advance(t, m, self._chooser, limit, out, self._io, display_reset)
            moves = int(self._io[0])
            ended = status == k.DONE or (status == k.PAUSE and (
                (cap is not None and moves >= cap) or (stop is not None and moves % CHECK_EVERY
                                                       == CHECK_EVERY - 1 and stop())))
            if ended:
                chooser.state = int(self._chooser[0])
                result = result_of(int(m[1][k.R_RESULT]), self.program.nodes) if status == k.DONE else None
                return Playout(result, moves, tuple(out[:moves].tolist()) if record else (), "kernel")
            if status != k.PAUSE:
                return None

    def _find_early(self) -> tuple | Literal[False]:
        """Where the kernel can take over a game's start before its first wait: just before the
        first call that draws from the engine RNG, when the board is there by then.

        Level generators (Minesweeper's mines, a roguelike's rooms) draw long before the first
        choice, so the first wait differs with the seed and cannot be kept like ``_start``;
        but what runs before their first draw (set-board, layer-template: nodes the kernel
        leaves to the plain engine) is the same for every seed, so it is run once here and
        the kernel runs the generator. False where there is no such point: the first wait or
        the end comes first (``_start`` covers it), or the layout cannot hold the board.
        """
        probe = Engine(self.program)
        probe.seed(1)  # any seed: the probe stops before its first draw
        for _ in range(_EARLY_STEPS):
            before = probe.snapshot()
            rng = probe.rng.state
            probe.step()
            if probe.rng.state != rng:
                probe.restore(before)
                break
            if probe.waiting is not None or probe.result is not None:
                return False
        else:
            return False
        held = self.encoded(probe)
        if held is None:
            return False
        return (*held, PREV_CODE[probe._prev] - 1, probe.step_count)

    def encoded(self, engine: Engine) -> tuple[Any, int, Any, np.ndarray] | None:
        """``engine``'s position as the kernel holds it: its board's tables, the frame, the
        board's codes and the encoded stack; None where the packing cannot hold it."""
        board = self._board(engine) if engine._stack else None
        if board is None:
            return None
        try:
            frame, codes = board.encode(engine._board.layers)
        except LayoutError:
            return None
        return board, frame, codes, np.array(encode_frames(engine._stack), np.int32)

    @property
    def path(self) -> str:
        """Where playouts go now: ``"kernel"`` or ``"plain"``."""
        return "kernel" if self.kernel else "plain"

    def _board(self, engine: Engine) -> _Board | None:
        layers = engine._board.layers
        if not layers:
            return None
        first = next(iter(layers.values()))
        shape = (tuple(layers), len(first), len(first[0]) if first else 0)
        if shape not in self._boards:
            try:
                self._boards[shape] = _Board(self.program, layers)
            except LayoutError:
                self._boards[shape] = None
        return self._boards[shape]

    def _give_up(self, why: str) -> None:
        self.kernel = False
        self.reason = why
