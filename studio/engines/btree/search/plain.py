"""The plain-Python expansion: ``Engine`` itself produces the children of packed states.

Same contract as ``kernels.expand`` (it fills a ``Children`` buffer), so the same insertion and
strategies run on top of it. It is the reference the kernel is tested against, and the path the
solver takes where numba cannot load or where the kernel leaves a node to the engine
(``set-board`` in the middle of a game, run-time errors).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from studio.engines.btree.runtime.boardstate import BoardState
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.runtime.pattern import Pattern
from studio.engines.btree.runtime.rng import Rng
from studio.engines.btree.runtime.snapshot import Snapshot, freeze_frame
from .kernels import X_FULL, X_OK, X_RANDOM, Children
from .layout import (
    FRAME_MASK, FRAME_SHIFT, Layout, LayoutError, decode_frames, encode_frames, header_fields,
)
from .quiet import settled_on
from .reach import SCRATCH, reach_on
from .tables import H_COUNT, H_DISTANCE, H_PRESENT, H_REACH, stalemate_code, stepout_code


class WatchedRng(Rng):
    """The engine RNG, noting whether a draw decided anything (two or more options)."""

    __slots__ = ("effective",)

    def __init__(self, state: float = 0.0) -> None:
        super().__init__(state)
        self.effective = False

    def index(self, n: int) -> int:
        self.effective |= n >= 2
        return super().index(n)

    def shuffle(self, items: Any) -> None:
        self.effective |= len(items) >= 2
        super().shuffle(items)


def result_code(engine: Engine) -> int:
    """The engine's result as the kernel codes it (LayoutError for an error result)."""
    result = engine.result
    if result is None:
        return 0
    n = len(engine.nodes)
    kind = result.get("result")
    if kind == "stalemate":
        return stalemate_code(n)
    if kind == "stepout":
        return stepout_code(n)
    path = engine.path()
    if kind in ("win", "lose", "draw") and path and engine.nodes[path[-1]].type == kind:
        return path[-1] + 1
    raise LayoutError(f"the game can end in an error: {result.get('message', result)}")


def heuristic_value(engine: Engine, terms: Sequence[tuple[Pattern, int]], prune: Any, cols: int,
                    frame: int, ways: Any = None) -> int:
    """``machine.heuristic`` with the engine; ``ways``: ``(tables, codes)`` of the kernel tables
    and the board's tile codes, for a ``reach`` term."""
    h = 0
    for pat, kind in terms:
        if kind == H_REACH:
            if frame == 0:
                (ti, _, to), codes = ways
                scratch = np.zeros((1 + SCRATCH) * len(codes), np.int32)
                scratch[:len(codes)] = codes
                h += int(reach_on(ti, to, scratch, 0, len(codes)))
            continue
        found = engine._board.find(pat)
        if kind == H_DISTANCE and frame == 0:
            h += sum(int(prune.distance[r * cols + c]) for r, c in found)
        elif kind in (H_COUNT, H_DISTANCE):
            h += len(found)
        else:
            h += int((len(found) > 0) == (kind == H_PRESENT))
    return h


class PlainExpander:
    """Expands packed states with ``Engine`` (one thread)."""

    def __init__(self, program: Program, layout: Layout, stacks: Any, rng0: float,
                 terms: Sequence[tuple[Pattern, int]] = (),
                 prune: Any = None, tables: Any = None) -> None:
        self.engine = Engine(program)
        self.engine.rng = WatchedRng()
        self.layout = layout
        self.stacks = stacks
        self.rng0 = rng0
        self.terms = terms
        self.prune = prune
        self.tables = tables
        """The kernel tables (``Tables.kernel``): a ``reach`` term reads them."""
        self.full_row: Any = None
        """The search's ``full_row`` (stored states may be collapsed)."""

    def restore(self, words: np.ndarray) -> tuple[int, Snapshot | None]:
        """Put the engine at a packed state's choice wait; (result code, snapshot there)."""
        stack_id, code, prev = header_fields(words[0])
        if code:
            return code, None
        data, off = self.stacks.data, self.stacks.off
        frames = decode_frames(data[off[stack_id]:off[stack_id + 1]])
        board = BoardState()
        board.load(self.layout.board_layers(*self.layout.board(words)))
        rng = float(words[1]) if self.layout.rng_keyed else self.rng0
        engine = self.engine
        engine.restore(Snapshot(board=board, stack=tuple(freeze_frame(f) for f in frames), prev=prev,
                                result=None, step_count=0, rng=rng, display=(False, False, 0),
                                choice=(False, None, None, (), {}, {})))
        engine.run_to_wait()  # the player's first call again: the same offer as when packed
        if self.prune is not None and (int(words[0]) >> FRAME_SHIFT) & FRAME_MASK == 0:
            dead, cols = self.prune.dead, self.layout.shapes[0][2]
            if any(dead[r * cols + c] for r, c in engine._board.find(self.prune.pattern)):
                return 0, None  # cannot win from here: not expanded
        return 0, engine.snapshot()

    def pack(self, out: Children, o: int, used: int) -> int:
        """Pack the engine's state as child ``o``; returns the stack data used so far."""
        engine, layout = self.engine, self.layout
        if engine._board.layers is None:
            raise LayoutError("the board disappeared")
        frame, board = layout.encode_layers(engine._board.layers)
        code = encode_frames(engine._stack or [])
        if used + len(code) > len(out.sdata):
            raise LayoutError("stack buffer overflow")  # cannot happen: sized per child
        out.sdata[used:used + len(code)] = code
        out.stk[o], out.slen[o] = used, len(code)
        out.words[o] = layout.pack(frame, board, 0, result_code(engine), engine._prev, engine.rng.state)
        return used + len(code)

    def _settled(self, row: np.ndarray) -> int:
        """``quiet.settled`` of a packed state (0 off the start frame)."""
        if (int(row[0]) >> FRAME_SHIFT) & FRAME_MASK:
            return 0
        ti, _, to = self.tables
        return int(settled_on(ti, to, self.layout.board(row)[1], 0))

    def expand(self, words: np.ndarray, order: np.ndarray, first: int, count: int, out: Children,
               want_h: bool, blind: bool, reverse: bool, quiet: bool = False,
               hv: np.ndarray | None = None) -> int:
        """``kernels.expand`` with the engine (LayoutError when a child does not pack)."""
        out.meta[:3] = (0, 0, X_OK)
        o = used = 0
        engine = self.engine
        for q in range(count):
            p = int(order[first + q]) if len(order) else first + q
            row = self.full_row(p)
            code, start = self.restore(row)
            if start is None:
                continue
            kept = self._settled(row) if quiet else 0
            n = len(engine.choices)
            if o + n > len(out.parent):
                out.meta[2], out.meta[3] = X_FULL, n
                return q
            for k in range(n):
                i = n - 1 - k if reverse else k
                engine.restore(start)
                engine.rng.effective = False
                engine.choose(i)
                engine.run_to_choice()
                if blind and engine.rng.effective:
                    out.meta[0], out.meta[2] = o, X_RANDOM
                    return q
                used = self.pack(out, o, used)
                out.parent[o], out.choice[o] = p, i
                out.quiet[o] = 0
                if kept and self._settled(out.words[o]) == kept:
                    out.h[o] = hv[p]
                    out.quiet[o] = 1
                elif want_h:
                    frame = (int(out.words[o, 0]) >> FRAME_SHIFT) & FRAME_MASK
                    cols = self.layout.shapes[0][2]
                    ways = (self.tables, self.layout.board(out.words[o])[1]) if self.tables else None
                    out.h[o] = heuristic_value(engine, self.terms, self.prune, cols, frame, ways)
                else:
                    out.h[o] = 0
                o += 1
                out.meta[0], out.meta[1] = o, used
        return count
