"""Interned stacks: the engine's resumable position (a frame stack, a few ints long) is shared by
many states, so states hold a stack id into this small table instead of the ints.

A ``Stacks`` is ``data`` (every stack's ints, end to end), ``off`` (where stack i starts; i + 1's
start is its end), an open-addressing ``table`` of ids + 1, and ``meta`` (count, ints used).
Written in the subset of Python numba compiles.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from studio.engines.jit import kernel

Stacks = namedtuple("Stacks", ["data", "off", "table", "meta"])
M1 = np.uint64(0x9E3779B97F4A7C15)
M2 = np.uint64(0xBF58476D1CE4E5B9)
"""The hash's two mixing constants (splitmix64's), shared with the state table's hash."""


@kernel
def hash_ints(data, start, length):
    h = np.uint64(length)
    for i in range(start, start + length):
        h = (h ^ np.uint64(data[i])) * M1  # the values are never negative
        h ^= h >> np.uint64(31)
    return (h * M2) ^ (h >> np.uint64(29))


@kernel
def stack_find(st, data, start, length):
    """The id of the stack ``data[start:start+length]``, or -1."""
    mask = np.uint64(len(st.table) - 1)
    slot = hash_ints(data, start, length) & mask
    while True:
        entry = st.table[slot]
        if entry == 0:
            return -1
        sid = entry - 1
        a, b = st.off[sid], st.off[sid + 1]
        if b - a == length:
            same = True
            for i in range(length):
                if st.data[a + i] != data[start + i]:
                    same = False
                    break
            if same:
                return sid
        slot = (slot + np.uint64(1)) & mask


@kernel
def stack_intern(st, data, start, length):
    """The stack's id, added if new; -1 when the table needs to grow first."""
    sid = stack_find(st, data, start, length)
    if sid >= 0:
        return sid
    count, used = st.meta[0], st.meta[1]
    if count + 2 >= len(st.off) or used + length > len(st.data) or 2 * (count + 1) > len(st.table):
        return -1
    for i in range(length):
        st.data[used + i] = data[start + i]
    st.off[count + 1] = used + length
    mask = np.uint64(len(st.table) - 1)
    slot = hash_ints(data, start, length) & mask
    while st.table[slot] != 0:
        slot = (slot + np.uint64(1)) & mask
    st.table[slot] = count + 1
    st.meta[0] = count + 1
    st.meta[1] = used + length
    return count


@kernel
def stack_rehash(st):
    for i in range(len(st.table)):
        st.table[i] = 0
    mask = np.uint64(len(st.table) - 1)
    for sid in range(st.meta[0]):
        a, b = st.off[sid], st.off[sid + 1]
        slot = hash_ints(st.data, a, b - a) & mask
        while st.table[slot] != 0:
            slot = (slot + np.uint64(1)) & mask
        st.table[slot] = sid + 1
