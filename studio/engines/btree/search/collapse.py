"""Collapsed states: the board words of a state cut into chunks, each chunk stored once.

A big board packs into many words, yet the states of one search share most of them (a move
changes a few cells). Each chunk of ``CHUNK`` words is interned in a table of its own and a
state keeps 32-bit chunk ids instead, two per word: Block Dude level 8 goes from 25 words a state
to 7. The header words stay as they are, so a state's result, frame and stack read the same.
(Model checkers call this collapse compression.) Written for numba (see ``studio.engines.jit``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from studio.engines.jit import kernel

CHUNK = 2
"""Words per chunk."""
MIN_WIDTH = 5
"""States of fewer words are stored as they are."""

Chunks = namedtuple("Chunks", ["words", "table", "meta"])
# meta: count, header words, chunks per state, full width, collapsing (0/1)
C_COUNT, C_HEADER, C_CHUNKS, C_WIDTH, C_ON = range(5)
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)


def chunks(width: int, header: int, capacity: int = 1024) -> Chunks:
    """An empty chunk store for states of ``width`` words (collapsing only wide ones)."""
    on = width >= MIN_WIDTH
    per = -(-(width - header) // CHUNK) if on else 0
    meta = np.array([0, header, per, width, int(on)], np.int64)
    return Chunks(words=np.zeros((capacity if on else 1, CHUNK), np.uint64),
                  table=np.zeros(2 * capacity if on else 2, np.int32), meta=meta)


def stored_width(c: Chunks) -> int:
    """Words of a state as the store keeps it."""
    meta = c.meta
    return int(meta[C_WIDTH]) if not meta[C_ON] else int(meta[C_HEADER] + (meta[C_CHUNKS] + 1) // 2)


@kernel(inline=True)
def _chunk_hash(a, b):
    h = (a * _M1) ^ (b + (b << np.uint64(17)))
    h = (h ^ (h >> np.uint64(31))) * _M2
    return h ^ (h >> np.uint64(29))


@kernel(inline=True)
def _chunk_slot(c, a, b):
    """The table slot of chunk (a, b), or the empty slot where it would go."""
    mask = np.uint64(len(c.table) - 1)
    slot = _chunk_hash(a, b) & mask
    while True:
        entry = c.table[slot]
        if entry == 0 or (c.words[entry - 1, 0] == a and c.words[entry - 1, 1] == b):
            return slot
        slot = (slot + np.uint64(1)) & mask


@kernel
def chunk_id(c, a, b):
    """The id of chunk (a, b), added if new; -1 when the store must grow first."""
    slot = _chunk_slot(c, a, b)
    if c.table[slot] != 0:
        return c.table[slot] - 1
    count = c.meta[C_COUNT]
    if count >= c.words.shape[0] or 2 * (count + 1) > len(c.table):
        return -1
    c.words[count, 0] = a
    c.words[count, 1] = b
    c.table[slot] = count + 1
    c.meta[C_COUNT] = count + 1
    return count


@kernel
def chunk_find(c, a, b):
    """The id of chunk (a, b), or -1 when it is not stored (read only: safe beside other readers)."""
    return c.table[_chunk_slot(c, a, b)] - 1


@kernel(inline=True)
def _compress(c, src, si, dst, di, add):
    header, per, width = c.meta[C_HEADER], c.meta[C_CHUNKS], c.meta[C_WIDTH]
    for w in range(dst.shape[1]):
        dst[di, w] = src[si, w] if w < header else np.uint64(0)
    for j in range(per):
        at = header + j * CHUNK
        second = src[si, at + 1] if at + 1 < width else np.uint64(0)
        cid = chunk_id(c, src[si, at], second) if add else chunk_find(c, src[si, at], second)
        if cid < 0:
            return False
        dst[di, header + j // 2] |= np.uint64(cid) << np.uint64(32 * (j % 2))
    return True


@kernel
def compress(c, src, si, dst, di):
    """``src[si]`` (a full state) into ``dst[di]``; False when the chunk store must grow."""
    return _compress(c, src, si, dst, di, True)


@kernel
def compress_known(c, src, si, dst, di):
    """``compress`` without adding chunks: False when a chunk is new (so is the state)."""
    return _compress(c, src, si, dst, di, False)


@kernel
def decompress(c, src, si, dst, di):
    """A stored state ``src[si]`` back to its full words in ``dst[di]``."""
    header, per, width = c.meta[C_HEADER], c.meta[C_CHUNKS], c.meta[C_WIDTH]
    for w in range(header):
        dst[di, w] = src[si, w]
    for j in range(per):
        cid = np.int64((src[si, header + j // 2] >> np.uint64(32 * (j % 2))) & np.uint64(0xFFFFFFFF))
        at = header + j * CHUNK
        dst[di, at] = c.words[cid, 0]
        if at + 1 < width:
            dst[di, at + 1] = c.words[cid, 1]


@kernel
def chunk_rehash(c):
    for i in range(len(c.table)):
        c.table[i] = 0
    mask = np.uint64(len(c.table) - 1)
    for cid in range(c.meta[C_COUNT]):
        slot = _chunk_hash(c.words[cid, 0], c.words[cid, 1]) & mask
        while c.table[slot] != 0:
            slot = (slot + np.uint64(1)) & mask
        c.table[slot] = cid + 1


def grow(c: Chunks) -> Chunks:
    """Twice the room, same chunks and ids."""
    words = np.zeros((2 * c.words.shape[0], CHUNK), np.uint64)
    words[:c.words.shape[0]] = c.words
    grown = Chunks(words=words, table=np.zeros(2 * len(c.table), np.int32), meta=c.meta)
    chunk_rehash(grown)
    return grown
