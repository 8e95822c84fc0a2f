"""The solver's batch kernels: expand states with the machine, insert children into the table.

States live in one array of packed words (``Store``); the hash table holds indices into it,
parents and choices are indices too, so a visited state costs its words plus a few ints. An
expansion (the expensive part) reads the store only and writes a per-thread ``Children`` buffer,
so several threads can expand at once (numba releases the GIL); insertion is sequential and
consumes the buffers in order, which keeps every search deterministic whatever the threads do.

States hold a stack id (``stacks``). Written in the subset of Python numba compiles.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from studio.engines.jit import kernel

from .layout import RESULT_MASK, RESULT_SHIFT
from .collapse import C_ON, compress, compress_known, decompress
from .machine import choose, doomed, encode_stack, heuristic, load, pack, rewind, run, save_point
from .quiet import settled
from .stacks import M1, M2, stack_find, stack_intern
from .tables import O_CODE_WIN
from .vm import FALLBACK, M_CH_C, M_CH_OFFER, M_CH_R, M_ENC, M_PC_C, M_PC_OFFER, M_PC_R, R_EFFECT, \
    R_FALLBACK, R_JN, R_JOURNAL, R_JOVER, R_NCH, R_RESULT, R_STEPS

Store = namedtuple("Store", ["words", "parent", "choice", "depth", "hval", "closed", "table", "meta",
                             "heap_key", "heap_idx", "dfs", "tmp"])
Children = namedtuple("Children", ["words", "parent", "choice", "h", "quiet", "stk", "slen", "sdata", "meta",
                                   "full"])
# Store.meta slots (M_WALK_HEAD, M_WALK_END: the walk queue of a macro search, in ``dfs``).
M_COUNT, M_MASK, M_MAX, M_HEAP, M_DFS, M_DEEPEST, M_WALK_HEAD, M_WALK_END = range(8)
# Strategies.
BFS, DFS, ASTAR, BEST = 0, 1, 2, 3
# What an expansion (Children.meta[2]) and an insertion end in.
X_OK, X_FULL, X_FALLBACK, X_RANDOM, X_LAYOUT = 0, 1, 2, 3, 4
I_OK, I_BUDGET, I_FOUND, I_LIMIT, I_GROW, I_GROW_STACKS, I_GROW_HEAP, I_GROW_CHUNKS = range(8)
G_MAX = 0x7FFFFFFF


@kernel(inline=True)
def hash_words(words, row):
    width = words.shape[1]
    h = np.uint64(width)
    for w in range(width):
        h = (h ^ words[row, w]) * M1
        h ^= h >> np.uint64(31)
    return (h * M2) ^ (h >> np.uint64(29))


@kernel
def expand(t, m, st, c, words, order, first, count, out, want_h, blind, reverse, quiet, hv, s, probe):
    """Expand parents ``order[first:first+count]`` (or ``first..`` when ``order`` is empty).

    Every child goes to ``out`` with its parent and choice index (and heuristic value). Returns
    how many parents were done; ``out.meta[2]`` says why it stopped early (X_*). A parent is
    loaded once: between its children the machine rewinds through its write journal. ``quiet``:
    a child that a quiet move made (see ``quiet``) takes its parent's value from ``hv``. A child
    already in the store ``s`` gets no value: ``insert`` keeps the stored one (most children of a
    late search are such; the store is only read while the threads expand). ``probe``: one row
    of the store's width, the thread's own.
    """
    out.meta[0] = 0
    out.meta[1] = 0
    out.meta[2] = X_OK
    o = 0
    used = 0
    q = 0
    kept = np.uint64(0)  # the parent's settled hash
    k = -1  # -1: list the parent's choices; then the choice to take
    n = 0
    mi, reg, _ = m
    while q < count:
        p = order[first + q] if len(order) > 0 else first + q
        if k < 0 or reg[R_JOVER]:
            if c.meta[C_ON]:
                decompress(c, words, p, out.full, 0)
                load(t, m, out.full, 0, st.data, st.off)
            else:
                load(t, m, words, p, st.data, st.off)
        else:
            rewind(t, m)
        if k < 0:
            if reg[R_RESULT] != 0 or doomed(t, m):
                q += 1  # finished games and states that cannot win are not expanded
                continue
            if run(t, m) == FALLBACK:  # the player's first call again: its offer
                out.meta[2] = X_FALLBACK
                out.meta[3] = reg[R_FALLBACK]
                return q
            n = reg[R_NCH]
            if o + n > len(out.parent):
                out.meta[2] = X_FULL
                out.meta[3] = n
                return q
            for e in range(n):
                mi[reg[M_PC_OFFER] + e] = mi[reg[M_CH_OFFER] + e]
                mi[reg[M_PC_R] + e] = mi[reg[M_CH_R] + e]
                mi[reg[M_PC_C] + e] = mi[reg[M_CH_C] + e]
            save_point(t, m)
            kept = settled(t, m) if quiet else np.uint64(0)
            k = 0
        i = n - 1 - k if reverse else k
        reg[R_JOURNAL], reg[R_JN], reg[R_JOVER] = 1, 0, 0
        if not choose(t, m, i):
            out.meta[2] = X_FALLBACK
            out.meta[3] = reg[R_FALLBACK]
            return q
        reg[R_EFFECT] = 0
        reg[R_STEPS] = 0
        if run(t, m) == FALLBACK:
            out.meta[2] = X_FALLBACK
            out.meta[3] = reg[R_FALLBACK]
            return q
        if blind and reg[R_EFFECT]:
            out.meta[2] = X_RANDOM
            return q
        length = encode_stack(t, m, reg[M_ENC])
        sid = stack_find(st, mi, reg[M_ENC], length)
        out.stk[o] = -1
        if sid < 0:
            for e in range(length):
                out.sdata[used + e] = mi[reg[M_ENC] + e]
            out.stk[o] = used
            out.slen[o] = length
            used += length
            sid = 0
        if not pack(t, m, out.words, o, sid):
            out.meta[2] = X_LAYOUT
            return q
        out.parent[o] = p
        out.choice[o] = i
        out.quiet[o] = 0
        if kept != 0 and settled(t, m) == kept:
            out.h[o] = hv[p]
            out.quiet[o] = 1
        elif want_h and not (out.stk[o] < 0 and known(s, c, out.words, o, probe)):
            out.h[o] = heuristic(t, m)
        else:
            out.h[o] = 0
        o += 1
        out.meta[0] = o
        out.meta[1] = used
        k += 1
        if k == n:
            k = -1
            q += 1
    return count


@kernel
def heap_push(s, key, idx):
    n = s.meta[M_HEAP]
    s.heap_key[n] = key
    s.heap_idx[n] = idx
    while n > 0:
        up = (n - 1) // 2
        if s.heap_key[up] <= s.heap_key[n]:
            break
        s.heap_key[up], s.heap_key[n] = s.heap_key[n], s.heap_key[up]
        s.heap_idx[up], s.heap_idx[n] = s.heap_idx[n], s.heap_idx[up]
        n = up
    s.meta[M_HEAP] += 1


@kernel
def heap_pop(s):
    """(key, index) of the smallest entry (the heap must not be empty)."""
    key, idx = s.heap_key[0], s.heap_idx[0]
    n = s.meta[M_HEAP] - 1
    s.meta[M_HEAP] = n
    s.heap_key[0], s.heap_idx[0] = s.heap_key[n], s.heap_idx[n]
    i = 0
    while True:
        a, b = 2 * i + 1, 2 * i + 2
        small = i
        if a < n and s.heap_key[a] < s.heap_key[small]:
            small = a
        if b < n and s.heap_key[b] < s.heap_key[small]:
            small = b
        if small == i:
            break
        s.heap_key[small], s.heap_key[i] = s.heap_key[i], s.heap_key[small]
        s.heap_idx[small], s.heap_idx[i] = s.heap_idx[i], s.heap_idx[small]
        i = small
    return key, idx


@kernel
def priority(strategy, weight, g, h):
    f = h if strategy == BEST else g + weight * h
    return (np.int64(f) << np.int64(32)) | np.int64(G_MAX - g)


@kernel
def table_slot(s, words, row):
    """The table slot holding state ``words[row]``, or the empty slot where it would go."""
    mask = np.uint64(s.meta[M_MASK])
    slot = hash_words(words, row) & mask
    width = words.shape[1]
    while True:
        entry = s.table[slot]
        if entry == 0:
            return np.int64(slot)
        same = True
        for w in range(width):
            if s.words[entry - 1, w] != words[row, w]:
                same = False
                break
        if same:
            return np.int64(slot)
        slot = (slot + np.uint64(1)) & mask


@kernel
def known(s, c, words, row, probe):
    """Whether state ``words[row]`` (full words) is in the store, without changing anything."""
    if c.meta[C_ON]:
        if not compress_known(c, words, row, probe, 0):
            return False
        words, row = probe, 0
    return s.table[table_slot(s, words, row)] != 0


@kernel
def insert(t, s, st, c, out, start, budget, strategy, weight, reopen, macro):
    """Add ``out``'s children from ``start`` on: (next position, I_* status, found index).

    A* lowers a state's depth when it finds a shorter way; ``reopen``: an expanded state goes back
    to be expanded again (needed for shortest lines), else only states not yet expanded move.
    ``macro``: a new state a quiet move made (``out.quiet``) joins the walk queue, not the heap.
    """
    end = out.meta[0]
    ti, _, to = t
    win = to[O_CODE_WIN]
    rshift = np.uint64(RESULT_SHIFT)
    rmask = np.uint64(RESULT_MASK)
    for o in range(start, end):
        if out.stk[o] >= 0:
            sid = stack_intern(st, out.sdata, out.stk[o], out.slen[o])
            if sid < 0:
                return o, I_GROW_STACKS, -1
            out.words[o, 0] = (out.words[o, 0] & ~np.uint64(0xFFFFFFFF)) | np.uint64(sid)
            out.stk[o] = -1
        parent = out.parent[o]
        g = s.depth[parent] + 1
        src, row = out.words, o
        if c.meta[C_ON]:
            if not compress(c, out.words, o, s.tmp, 0):
                return o, I_GROW_CHUNKS, -1
            src, row = s.tmp, 0
        slot = table_slot(s, src, row)
        entry = s.table[slot]
        result = np.int64((out.words[o, 0] >> rshift) & rmask)
        if entry != 0:
            idx = entry - 1
            if strategy == ASTAR and g < s.depth[idx] and (reopen or not s.closed[idx]):
                if s.meta[M_HEAP] >= len(s.heap_key):
                    return o, I_GROW_HEAP, -1
                s.depth[idx], s.parent[idx], s.choice[idx] = g, parent, out.choice[o]
                s.closed[idx] = 0
                heap_push(s, priority(strategy, weight, g, s.hval[idx]), idx)
            continue
        count = s.meta[M_COUNT]
        if count >= s.meta[M_MAX]:
            return o, I_LIMIT, -1
        if count >= len(s.parent) or 2 * (count + 1) > len(s.table):
            return o, I_GROW, -1
        if (strategy >= ASTAR and s.meta[M_HEAP] >= len(s.heap_key)) or \
                (strategy == DFS and s.meta[M_DFS] >= len(s.dfs)) or \
                (macro and s.meta[M_WALK_END] >= len(s.dfs)):
            return o, I_GROW_HEAP, -1
        for w in range(s.words.shape[1]):
            s.words[count, w] = src[row, w]
        s.parent[count], s.choice[count], s.depth[count] = parent, out.choice[o], g
        if strategy >= ASTAR:  # only best-first and A* keep values and flags per state
            s.hval[count] = out.h[o]
            s.closed[count] = 0
        s.table[slot] = count + 1
        s.meta[M_COUNT] = count + 1
        if g > s.meta[M_DEEPEST]:
            s.meta[M_DEEPEST] = g
        if strategy <= DFS and ti[win + result]:
            return o + 1, I_FOUND, count
        if macro and out.quiet[o] and result == 0:
            s.dfs[s.meta[M_WALK_END]] = count
            s.meta[M_WALK_END] += 1
        elif strategy >= ASTAR:
            heap_push(s, priority(strategy, weight, g, out.h[o]), count)
        elif strategy == DFS and result == 0:
            s.dfs[s.meta[M_DFS]] = count
            s.meta[M_DFS] += 1
        budget -= 1
        if budget == 0:
            return o + 1, I_BUDGET, -1
    return end, I_OK, -1


@kernel
def next_batch(t, s, strategy, limit, order):
    """Pop up to ``limit`` states to expand into ``order``: (how many, found index or -1).

    Best-first and A* test for a win when a state is popped (so A* lines are shortest when the
    heuristic is admissible); a win popped behind other states goes back for the next batch.
    States in the walk queue (a macro search's) come first, and alone: the heap waits until the
    walks from the states it gave are all expanded (none of them is a win: those go to the heap).
    """
    n = 0
    rmask = np.uint64(RESULT_MASK)
    while n < limit and s.meta[M_WALK_HEAD] < s.meta[M_WALK_END]:
        idx = s.dfs[s.meta[M_WALK_HEAD]]
        s.meta[M_WALK_HEAD] += 1
        if not s.closed[idx]:
            s.closed[idx] = 1
            order[n] = idx
            n += 1
    if s.meta[M_WALK_HEAD] == s.meta[M_WALK_END]:
        s.meta[M_WALK_HEAD] = 0
        s.meta[M_WALK_END] = 0
    if n > 0:
        return n, -1
    if strategy == DFS:
        while n < limit and s.meta[M_DFS] > 0:
            s.meta[M_DFS] -= 1
            order[n] = s.dfs[s.meta[M_DFS]]
            n += 1
        return n, -1
    while n < limit and s.meta[M_HEAP] > 0:
        key, idx = heap_pop(s)
        g = G_MAX - np.int64(key & np.int64(0xFFFFFFFF))
        if s.closed[idx] or g != s.depth[idx]:
            continue  # stale: the state was reached more cheaply since
        result = np.int64((s.words[idx, 0] >> np.uint64(RESULT_SHIFT)) & rmask)
        if t[0][t[2][O_CODE_WIN] + result]:
            if n == 0:
                return 0, idx
            heap_push(s, key, idx)
            break
        s.closed[idx] = 1
        if result == 0:
            order[n] = idx
            n += 1
    return n, -1


@kernel
def rehash(s):
    """Rebuild the state table (after the arrays grew)."""
    for i in range(len(s.table)):
        s.table[i] = 0
    mask = np.uint64(s.meta[M_MASK])
    for i in range(s.meta[M_COUNT]):
        slot = hash_words(s.words, i) & mask
        while s.table[slot] != 0:
            slot = (slot + np.uint64(1)) & mask
        s.table[slot] = i + 1
