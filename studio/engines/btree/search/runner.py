"""One search over packed states: the arrays, their growth, threads, and the strategy's loop.

``Search.advance(budget)`` expands and inserts until ``budget`` more states were added or the
search ends, so the caller can report progress, watch the clock and honour a cancel between
calls. Expansion runs the kernel on ``jobs`` threads at once (or the plain engine on one);
insertion is sequential and in parent order, so a search gives the same states, the same line
and the same counts whatever ``jobs`` is.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from . import collapse
from . import kernels as k
from .stacks import Stacks, stack_rehash
from .layout import Layout, header_fields
from .plain import PlainExpander
from .vm import machine

ROUND = 256
"""Parents per thread per expansion round of breadth-first (its queue order does not depend on
how a round is cut)."""
DFS_BATCH = 512
BEST_BATCH = 64
"""Parents popped per round by depth-first and by best-first / A*, shared among the threads. Which
states are popped together changes what is searched, so the batch does not depend on ``jobs``:
the same search on any number of cores (the sizes are those two threads used before)."""
STRATEGIES = {"bfs": k.BFS, "dfs": k.DFS, "astar": k.ASTAR, "best": k.BEST}


class Restart(Exception):
    """The search must start again another way: ``kind`` is random, fallback or layout."""

    def __init__(self, kind: str, detail: Any = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.detail = detail


def _pow2(n: int) -> int:
    return 1 << max(4, (n - 1).bit_length())


def _store(cap: int, width: int, heap: int, scored: bool) -> k.Store:
    """Room for ``cap`` states of ``width`` words (``scored``: with A*'s values and flags)."""
    z = np.zeros
    per = cap if scored else 1
    return k.Store(words=z((cap, width), np.uint64), parent=z(cap, np.int32), choice=z(cap, np.int32),
                   depth=z(cap, np.int32), hval=z(per, np.int32), closed=z(per, np.uint8),
                   table=z(_pow2(2 * cap), np.int32), meta=z(8, np.int64), heap_key=z(heap, np.int64),
                   heap_idx=z(heap, np.int32), dfs=z(heap, np.int32), tmp=z((1, width), np.uint64))


def _children(cap: int, width: int, enc: int) -> k.Children:
    z = np.zeros
    return k.Children(words=z((cap, width), np.uint64), parent=z(cap, np.int32), choice=z(cap, np.int32),
                      h=z(cap, np.int32), quiet=z(cap, np.uint8), stk=z(cap, np.int32), slen=z(cap, np.int32),
                      sdata=z(cap * enc, np.int32), meta=z(4, np.int64), full=z((1, width), np.uint64))


def _nbytes(value: Any) -> int:
    return sum(a.nbytes for a in value)


class Search:
    """A search from one packed root state.

    Args:
        tables: the kernel tables (``tables.build``).
        layout: the packing.
        strategy: ``bfs``, ``dfs``, ``astar`` or ``best``.
        weight: A*'s heuristic weight (1: admissible heuristics give shortest lines). Above 1 a
            state once expanded is not expanded again when a shorter way to it turns up: the
            line was never promised shortest, and re-expanding cost Block Dude 6 a quarter of
            its time (59 s → 44 s by weight 3).
        jobs: expansion threads (kernel only).
        plain: expand with this engine-based expander instead of the kernel.
        max_states, max_memory: limits (states; bytes of the search's arrays).
        rng0: the RNG used to expand states stored without one (see ``layout``).
        quiet: quiet moves keep their parent's value (``quiet``; the value is ``reach``).
        macro: with ``quiet``, a state a quiet move makes joins the walk queue (``kernels``),
            expanded before the heap's next state: a popped state's walks are searched whole.
    """

    def __init__(self, tables: Any, layout: Layout, *, strategy: str = "bfs", weight: int = 1,
                 jobs: int = 1, plain: PlainExpander | None = None, max_states: int = 10**9,
                 max_memory: int | None = None, rng0: float = 0.0, quiet: bool = False,
                 macro: bool = False) -> None:
        self.t = tables
        self.tk = tables.kernel
        self.layout = layout
        self.strategy = STRATEGIES[strategy]
        self.weight = weight
        self.plain = plain
        self.jobs = 1 if plain is not None else max(1, jobs)
        self.max_memory = max_memory
        self.want_h = self.strategy >= k.ASTAR
        self.quiet = quiet and self.want_h
        self.macro = self.quiet and macro
        width = layout.width
        self.enc = int(tables.dims[4]) * (5 + int(tables.dims[5]))
        self.chunks = collapse.chunks(width, layout.header)
        self.store = _store(1024, collapse.stored_width(self.chunks), 1024, self.want_h)
        self.store.meta[k.M_MASK] = len(self.store.table) - 1
        self.store.meta[k.M_MAX] = max_states
        self.stacks = Stacks(data=np.zeros(1 << 14, np.int32), off=np.zeros(1025, np.int64),
                               table=np.zeros(2048, np.int32), meta=np.zeros(2, np.int64))
        self.buffers = [_children(4096, width, self.enc) for _ in range(self.jobs)]
        self.machines = [] if plain is not None else [machine(tables.dims) for _ in range(self.jobs)]
        for m in self.machines:
            m[2][1] = rng0
        if plain is not None:
            plain.stacks = self.stacks
            plain.full_row = self.full_row
        self.pool = ThreadPoolExecutor(self.jobs) if self.jobs > 1 else None
        self.pending: list[list[Any]] = []  # [buffer, next position] still to insert
        self.head = 0
        self.found = -1
        self.order = np.zeros(max(self.jobs * ROUND, DFS_BATCH, BEST_BATCH), np.int32)
        self.empty = np.zeros(0, np.int32)

    # -- bookkeeping ------------------------------------------------------------------------------

    @property
    def count(self) -> int:
        return int(self.store.meta[k.M_COUNT])

    @property
    def deepest(self) -> int:
        return int(self.store.meta[k.M_DEEPEST])

    def nbytes(self) -> int:
        """Bytes held by the search's arrays (states, table, stacks, buffers, machines)."""
        return (_nbytes(self.store) + _nbytes(self.stacks) + _nbytes(self.chunks)
                + sum(_nbytes(b) for b in self.buffers) + sum(_nbytes(m) for m in self.machines))

    def state_bytes(self) -> int:
        """Bytes per state of the state arrays, table and chunks (room for more included)."""
        s = self.store
        held = (s.words.nbytes + s.parent.nbytes + s.choice.nbytes + s.depth.nbytes + s.hval.nbytes
                + s.closed.nbytes + s.table.nbytes + _nbytes(self.chunks))
        return int(round(held / max(len(s.parent), self.count, 1)))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def full_row(self, index: int) -> np.ndarray:
        """State ``index``'s full words (stored states may be collapsed)."""
        if not self.chunks.meta[collapse.C_ON]:
            return self.store.words[index]
        full = np.zeros((1, int(self.chunks.meta[collapse.C_WIDTH])), np.uint64)
        collapse.decompress(self.chunks, self.store.words, index, full, 0)
        return full[0]

    def add_root(self, row: np.ndarray, h: int = 0) -> int:
        """Insert the start state (``h``: its heuristic value); returns its result code."""
        s = self.store
        if self.chunks.meta[collapse.C_ON]:
            while not collapse.compress(self.chunks, row.reshape(1, -1), 0, s.words, 0):
                self.chunks = collapse.grow(self.chunks)
        else:
            s.words[0] = row
        slot = k.table_slot(s, s.words, 0)
        s.parent[0], s.choice[0], s.depth[0] = -1, -1, 0
        if self.want_h:
            s.hval[0] = h
        s.table[slot] = 1
        s.meta[k.M_COUNT] = 1
        code = header_fields(row[0])[1]
        if self.strategy >= k.ASTAR:
            k.heap_push(s, k.priority(self.strategy, self.weight, 0, 0), 0)
        elif self.strategy == k.DFS and code == 0:
            s.dfs[0] = 0
            s.meta[k.M_DFS] = 1
        return code

    # -- growth -----------------------------------------------------------------------------------

    def _fits(self, extra: int) -> bool:
        return self.max_memory is None or self.nbytes() + extra <= self.max_memory

    def _grow_store(self) -> bool:
        s = self.store
        cap = len(s.parent)
        new = cap * 2
        grown = _store(new, s.words.shape[1], len(s.heap_key), self.want_h)
        if not self._fits(_nbytes(grown) - _nbytes(s)):
            return False
        n = int(s.meta[k.M_COUNT])
        for name in ("words", "parent", "choice", "depth") + (("hval", "closed") if self.want_h else ()):
            getattr(grown, name)[:n] = getattr(s, name)[:n]
        grown.meta[:] = s.meta
        grown.meta[k.M_MASK] = len(grown.table) - 1
        for name in ("heap_key", "heap_idx", "dfs"):
            getattr(grown, name)[:] = getattr(s, name)
        k.rehash(grown)
        self.store = grown
        return True

    def _grow_heap(self) -> bool:
        s = self.store
        size = len(s.heap_key) * 2
        if not self._fits(size * 8):
            return False
        self.store = s._replace(heap_key=np.resize(s.heap_key, size), heap_idx=np.resize(s.heap_idx, size),
                                dfs=np.resize(s.dfs, size))
        return True

    def _grow_stacks(self) -> None:
        st = self.stacks
        grown = Stacks(data=np.resize(st.data, 2 * len(st.data)), off=np.resize(st.off, 2 * len(st.off)),
                         table=np.zeros(2 * len(st.table), np.int32), meta=st.meta)
        stack_rehash(grown)
        self.stacks = grown
        if self.plain is not None:
            self.plain.stacks = grown

    # -- the loop ---------------------------------------------------------------------------------

    def _expand_one(self, j: int, order: np.ndarray, first: int, count: int) -> int:
        buf = self.buffers[j]
        blind = not self.layout.rng_keyed
        reverse = self.strategy == k.DFS  # pushed last, popped first: choice 0 is tried first
        if self.plain is not None:
            return self.plain.expand(self.store.words, order, first, count, buf, self.want_h, blind,
                                     reverse, self.quiet, self.store.hval)
        return k.expand(self.tk, self.machines[j], self.stacks, self.chunks, self.store.words, order,
                        first, count, buf, self.want_h, blind, reverse, self.quiet, self.store.hval,
                        self.store, np.zeros((1, self.store.words.shape[1]), np.uint64))

    def _expand(self, order: np.ndarray, first: int, count: int) -> None:
        """Expand ``count`` parents into the buffers (split over the threads), queue them."""
        share = -(-count // self.jobs)
        parts = [(j, first + j * share, min(share, count - j * share)) for j in range(self.jobs)]
        parts = [p for p in parts if p[2] > 0]
        while True:
            if self.pool is not None and len(parts) > 1:
                done = list(self.pool.map(lambda p: self._expand_one(p[0], order, p[1], p[2]), parts))
            else:
                done = [self._expand_one(j, order, a, n) for j, a, n in parts]
            redo = []
            for (j, a, n), got in zip(parts, done):
                status = int(self.buffers[j].meta[2])
                if status == k.X_FULL:
                    need = max(2 * len(self.buffers[j].parent), int(self.buffers[j].meta[3]) + 1)
                    self.buffers[j] = _children(need, self.layout.width, self.enc)
                    redo.append((j, a, n))
                elif status == k.X_RANDOM:
                    raise Restart("random")
                elif status == k.X_FALLBACK:
                    raise Restart("fallback", int(self.buffers[j].meta[3]))
                elif status == k.X_LAYOUT:
                    raise Restart("layout")
                elif got != n:
                    raise RuntimeError("expansion stopped early without a reason")
            if not redo:
                break
            parts = redo
        self.pending = [[self.buffers[j], 0] for j, _, _ in parts]

    def _next(self) -> str | None:
        """Expand the next round of parents; a word when the search ends instead."""
        s = self.store
        if self.strategy == k.BFS:
            count = min(self.jobs * ROUND, self.count - self.head)
            if count <= 0:
                return "exhausted"
            first = self.head
            self.head += count
            self._expand(self.empty, first, count)
            return None
        limit = DFS_BATCH if self.strategy == k.DFS else BEST_BATCH
        n, found = k.next_batch(self.tk, s, self.strategy, limit, self.order)
        if found >= 0:
            self.found = int(found)
            return "found"
        if n == 0:
            return "exhausted"
        self._expand(self.order, 0, int(n))
        return None

    def advance(self, budget: int) -> str:
        """Search until ``budget`` new states: ``budget``, ``found``, ``exhausted``, ``limit``,
        ``memory`` (the arrays would outgrow ``max_memory``).

        Raises:
            Restart: the search must be redone another way (see ``solver``).
        """
        target = self.count + budget
        while True:
            while self.pending:
                if self.count >= target:
                    return "budget"
                buf, pos = self.pending[0]
                pos, status, found = k.insert(self.tk, self.store, self.stacks, self.chunks, buf, pos,
                                              target - self.count, self.strategy, self.weight,
                                              self.weight == 1, self.macro)
                self.pending[0][1] = pos
                if status == k.I_OK:
                    self.pending.pop(0)
                    continue
                if status == k.I_GROW:
                    if not self._grow_store():
                        return "memory"
                    continue
                if status == k.I_GROW_HEAP:
                    if not self._grow_heap():
                        return "memory"
                    continue
                if status == k.I_GROW_STACKS:
                    self._grow_stacks()
                    continue
                if status == k.I_GROW_CHUNKS:
                    if not self._fits(_nbytes(self.chunks)):
                        return "memory"
                    self.chunks = collapse.grow(self.chunks)
                    continue
                if status == k.I_FOUND:
                    self.found = int(found)
                    return "found"
                if status == k.I_LIMIT:
                    return "limit"
                return "budget"
            if self.count >= target:
                return "budget"
            ended = self._next()
            if ended is not None:
                return ended

    def line(self, index: int) -> list[int]:
        """The choices from the root to state ``index``."""
        s = self.store
        line = []
        while s.parent[index] >= 0:
            line.append(int(s.choice[index]))
            index = int(s.parent[index])
        return line[::-1]
