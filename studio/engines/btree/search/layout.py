"""Packed solver states: which cells can change, and how an engine state fits in a few words.

A solver state is a row of 64-bit words: a header (stack id, result code, board frame, the call
result ``prev``), the engine RNG when it matters, then the board's *variable* cells, each in as
few bits as the tiles it can ever hold need. Which cells are variable comes from a fixpoint over
the game's rewrites: a rewrite can write its rhs only where every checked lhs tile may already
be, so walls, voids and cells no rewrite can reach stay out of the state (Sokoban level 1: 418
cells, about 60 variable ones of 2 bits).

A *frame* is one board shape (layer names in order, rows, columns): the start board's, and one
per shape of the game's ``set-board`` patterns, so levels that load the next level stay packed.
Cells are numbered ``layer * cells_max + row * cols + col`` over the union of the layer names.
Whatever else would change the board (``layer-template``, appends) leaves the layout; the
solver then hands the search to the plain engine, which checks every state it packs.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from studio.engines.btree.runtime.nodes import Node
from studio.engines.btree.runtime.pattern import Pattern

VOID = "."
RESULT_SHIFT, FRAME_SHIFT, PREV_SHIFT = 32, 52, 60
RESULT_MASK, FRAME_MASK = (1 << 20) - 1, 0xFF
PREV_CODE = {None: 0, False: 1, True: 2}
PREV_VALUE = (None, False, True)
# Frame aux tags of the stack encoding (see ``encode_frames``).
AUX_NONE, AUX_FALSE, AUX_TRUE, AUX_INT, AUX_LIST = 0, 1, 2, 3, 4
MAX_FRAMES = 64


class LayoutError(Exception):
    """An engine state that does not fit the layout (another board shape, an unforeseen tile)."""


def rewrite_pairs(nodes: Sequence[Node]) -> list[tuple[int, Pattern, Pattern]]:
    """``(node id, lhs, rhs)`` of every ``rewrite`` and ``rewrite-all`` (player moves included)."""
    pairs = []
    for node in nodes:
        if node.type in ("rewrite", "rewrite-all"):
            lhs, rhs = node.patterns.get("lhs"), node.patterns.get("rhs")
            if lhs is not None and rhs is not None:
                pairs.append((node.id, lhs, rhs))
    return pairs


def program_tiles(nodes: Sequence[Node]) -> list[str]:
    """Every tile a pattern or a ``layer-template`` of the program names, first seen first."""
    seen: dict[str, None] = {VOID: None}
    for node in nodes:
        for pat in node.patterns.values():
            for grid in pat.layers.values():
                for row in grid:
                    seen.update(dict.fromkeys(row))
        if node.type == "layer-template":
            seen[str(node.get("with"))] = None
    return list(seen)


def _shape(layers: dict[str, Sequence[Sequence[str]]]) -> tuple[tuple[str, ...], int, int] | None:
    """(layer names, rows, cols) of a board whose layers all have one size; None otherwise."""
    grids = list(layers.values())
    if not grids or not grids[0] or not grids[0][0]:
        return None
    rows, cols = len(grids[0]), len(grids[0][0])
    if any(len(g) != rows or any(len(r) != cols for r in g) for g in grids):
        return None
    return tuple(str(n) for n in layers), rows, cols


class Layout:
    """The packing of one game's states, fixed by the start board and the ``set-board`` nodes.

    Args:
        nodes: the program's nodes.
        layers: the start board, ``{layer: grid}`` in document order.
        rng_keyed: keep the engine RNG in the state (once the game's randomness was seen to
            matter; see ``search.vm``).
    """

    def __init__(self, nodes: Sequence[Node], layers: dict[str, Sequence[Sequence[str]]],
                 rng_keyed: bool = False) -> None:
        start = _shape(layers)
        if start is None:
            raise LayoutError("the board's layers differ in size")
        boards = [(None, layers, start)]
        for node in nodes:
            pat = node.patterns.get("pattern") if node.type == "set-board" else None
            shape = _shape(pat.layers) if pat is not None else None
            if shape is not None:
                boards.append((node.id, pat.layers, shape))
        self.names = list(dict.fromkeys(n for _, _, shape in boards for n in shape[0]))
        self.layer_index = {name: i for i, name in enumerate(self.names)}
        self.tiles = program_tiles(nodes)
        for _, grids, _ in boards:
            for grid in grids.values():
                for row in grid:
                    self.tiles += [t for t in dict.fromkeys(row) if t not in self.tiles]
        self.code = {tile: i for i, tile in enumerate(self.tiles)}
        self.shapes: list[tuple[tuple[str, ...], int, int]] = []
        for _, _, shape in boards:
            if shape not in self.shapes:
                self.shapes.append(shape)
        if len(self.shapes) > MAX_FRAMES:
            raise LayoutError(f"more than {MAX_FRAMES} board shapes")
        self.span = max(r * c for _, r, c in self.shapes)
        self.rng_keyed = rng_keyed
        self.header = 2 if rng_keyed else 1
        self.set_boards: dict[int, tuple[int, np.ndarray]] = {}
        bases: list[list[np.ndarray]] = [[] for _ in self.shapes]
        for node_id, grids, shape in boards:
            frame = self.shapes.index(shape)
            codes = self._encode(frame, grids)
            bases[frame].append(codes)
            if node_id is not None:
                self.set_boards[node_id] = (frame, codes)
        self.base = np.stack([b[0] for b in bases])
        rules = rewrite_pairs(nodes)
        self.possible = [self._possible(f, bases[f], rules) for f in range(len(self.shapes))]
        """Per frame, ``possible[cell, tile]``: the fixpoint (``deadcells`` reads it too)."""
        placed = [self._place(poss) for poss in self.possible]
        self.var_off = np.cumsum([0] + [len(p[0]) for p in placed]).astype(np.int32)
        widest = max([p[1].shape[1] for p in placed] + [1])
        self.var_cell = np.concatenate([p[0] for p in placed]).astype(np.int32)
        self.local_of = np.concatenate([p[1] for p in placed]).astype(np.int16) if len(self.var_cell) \
            else np.full((0, len(self.tiles)), -1, np.int16)
        self.tile_of = np.zeros((len(self.var_cell), widest), np.int16)
        for p, start_at in zip(placed, self.var_off):
            self.tile_of[start_at:start_at + len(p[0]), :p[2].shape[1]] = p[2]
        self.var_word = np.concatenate([p[3] for p in placed]).astype(np.int32)
        self.var_shift = np.concatenate([p[4] for p in placed]).astype(np.int32)
        self.var_bits = np.concatenate([p[5] for p in placed]).astype(np.int32)
        self.width = max(p[6] for p in placed)

    @property
    def cells(self) -> int:
        return len(self.names) * self.span

    # -- the fixpoint ---------------------------------------------------------------------------

    def _possible(self, frame: int, bases: list[np.ndarray], rules: list) -> np.ndarray:
        """``possible[cell, tile]`` of one frame: may some reachable state hold ``tile`` there?"""
        names, rows, cols = self.shapes[frame]
        present = [self.layer_index[n] for n in names]
        poss = np.zeros((len(self.names), rows, cols, len(self.tiles)), dtype=bool)
        for base in bases:
            for layer in present:
                grid = base[layer * self.span:layer * self.span + rows * cols].reshape(rows, cols)
                np.put_along_axis(poss[layer], grid[..., None].astype(np.int64), True, axis=2)
        coded = [rule for _, lhs, rhs in rules if (rule := self._rule(lhs, rhs, names, rows, cols))]
        changed = bool(coded)
        while changed:
            changed = False
            for pr, pc, checks, writes in coded:
                span_r, span_c = rows - pr + 1, cols - pc + 1
                valid = np.ones((span_r, span_c), dtype=bool)
                for layer, i, j, tile in checks:
                    valid &= poss[layer, i:i + span_r, j:j + span_c, tile]
                if not valid.any():
                    continue
                for layer, i, j, tile in writes:
                    region = poss[layer, i:i + span_r, j:j + span_c, tile]
                    if (valid & ~region).any():
                        region |= valid
                        changed = True
        out = np.zeros((len(self.names), self.span, len(self.tiles)), dtype=bool)
        out[:, :rows * cols] = poss.reshape(len(self.names), rows * cols, len(self.tiles))
        return out.reshape(len(self.names) * self.span, len(self.tiles))

    def _rule(self, lhs: Pattern, rhs: Pattern, names: tuple[str, ...], rows: int, cols: int) -> tuple | None:
        """A rewrite in layer/tile codes for one frame, or None when it can never write there."""
        pr, pc = lhs.rows, lhs.cols
        if pr == 0 or pc == 0 or pr > rows or pc > cols:
            return None
        checks = []
        for name, i, j, tile in lhs.checks:
            if name not in names:
                return None  # a checked layer the board lacks: no match anywhere
            checks.append((self.layer_index[name], i, j, self.code[tile]))
        writes = []
        for name, i, cells in rhs.writes:
            if name not in names:
                return None  # a run-time error, left to the plain engine
            for j, tile in cells:
                if i >= pr or j >= pc:
                    return None
                writes.append((self.layer_index[name], i, j, self.code[tile]))
        return pr, pc, checks, writes

    # -- the packing ----------------------------------------------------------------------------

    def _place(self, possible: np.ndarray) -> tuple:
        counts = possible.sum(axis=1)
        var = np.flatnonzero(counts > 1)
        local_of = np.full((len(var), len(self.tiles)), -1, dtype=np.int16)
        widest = int(counts[var].max()) if len(var) else 1
        tile_of = np.zeros((len(var), widest), dtype=np.int16)
        words, shifts, bits_of = (np.zeros(len(var), np.int32) for _ in range(3))
        word, shift = self.header, 0
        for k, cell in enumerate(var):
            kinds = np.flatnonzero(possible[cell])
            local_of[k, kinds] = np.arange(len(kinds), dtype=np.int16)
            tile_of[k, :len(kinds)] = kinds
            bits = (len(kinds) - 1).bit_length()
            if shift + bits > 64:
                word, shift = word + 1, 0
            words[k], shifts[k], bits_of[k] = word, shift, bits
            shift += bits
        return var, local_of, tile_of, words, shifts, bits_of, word + (1 if shift else 0)

    def _encode(self, frame: int, layers: dict[str, Sequence[Sequence[str]]]) -> np.ndarray:
        out = np.zeros(self.cells, dtype=np.int16)
        _, rows, cols = self.shapes[frame]
        code = self.code
        for name, grid in layers.items():
            at = self.layer_index[name] * self.span
            for row in grid:
                for tile in row:
                    c = code.get(tile)
                    if c is None:
                        raise LayoutError(f"tile {tile!r} was never seen in the game")
                    out[at] = c
                    at += 1
        return out

    def encode_layers(self, layers: dict[str, Sequence[Sequence[str]]]) -> tuple[int, np.ndarray]:
        """(frame, tile codes) of a board; LayoutError if no frame has its shape."""
        shape = _shape(layers)
        if shape not in self.shapes:
            raise LayoutError("the board took a shape the game's set-board nodes never give")
        frame = self.shapes.index(shape)
        return frame, self._encode(frame, layers)

    def pack(self, frame: int, board: np.ndarray, stack_id: int, result: int, prev: Any,
             rng: float) -> np.ndarray:
        """One state's words (plain Python: the kernel packs for itself)."""
        words = [0] * self.width
        words[0] = stack_id | (result << RESULT_SHIFT) | (frame << FRAME_SHIFT) | (PREV_CODE[prev] << PREV_SHIFT)
        if self.rng_keyed:
            words[1] = int(rng)
        a, b = int(self.var_off[frame]), int(self.var_off[frame + 1])
        names, rows, cols = self.shapes[frame]
        fixed = np.ones(self.cells, dtype=bool)
        fixed[self.var_cell[a:b]] = False
        for name in self.names:
            if name not in names:
                fixed[self.layer_index[name] * self.span:(self.layer_index[name] + 1) * self.span] = False
        if not np.array_equal(board[fixed], self.base[frame][fixed]):
            raise LayoutError("a cell the layout holds constant changed")
        local = self.local_of[np.arange(a, b), board[self.var_cell[a:b]]]
        if (local < 0).any():
            raise LayoutError("a cell took a tile the layout did not foresee")
        for k, value in zip(range(a, b), local.tolist()):
            words[self.var_word[k]] |= value << int(self.var_shift[k])
        return np.array(words, dtype=np.uint64)

    def board(self, words: np.ndarray) -> tuple[int, np.ndarray]:
        """(frame, tile codes) of a packed state's board."""
        frame = (int(words[0]) >> FRAME_SHIFT) & FRAME_MASK
        board = self.base[frame].copy()
        ints = [int(w) for w in words]
        for k in range(int(self.var_off[frame]), int(self.var_off[frame + 1])):
            local = (ints[self.var_word[k]] >> int(self.var_shift[k])) & ((1 << int(self.var_bits[k])) - 1)
            board[self.var_cell[k]] = self.tile_of[k, local]
        return frame, board

    def board_json(self, frame: int, board: np.ndarray) -> dict[str, list[list[str]]]:
        """Tile codes back to the JSON shape ``{layer: [[tile, ...], ...]}``."""
        names, rows, cols = self.shapes[frame]
        tiles = np.asarray(self.tiles, dtype=object)
        out = {}
        for name in names:
            at = self.layer_index[name] * self.span
            out[name] = tiles[board[at:at + rows * cols]].reshape(rows, cols).tolist()
        return out

    def board_layers(self, frame: int, board: np.ndarray) -> dict[str, list[tuple[str, ...]]]:
        """Tile codes back to the engine's layer lists of row tuples."""
        return {n: [tuple(r) for r in g] for n, g in self.board_json(frame, board).items()}


def header_fields(word: int) -> tuple[int, int, Any]:
    """(stack id, result code, prev) of a header word."""
    word = int(word)
    return word & 0xFFFFFFFF, (word >> RESULT_SHIFT) & RESULT_MASK, PREV_VALUE[(word >> PREV_SHIFT) & 3]


def encode_frames(frames: Iterable[Sequence[Any]]) -> tuple[int, ...]:
    """An engine stack as ints: per frame node, index, any, aux tag, aux value (+ list items)."""
    out: list[int] = []
    for node, index, anyflag, aux in frames:
        out += (node, index, 1 if anyflag else 0)
        if aux is None:
            out += (AUX_NONE, 0)
        elif aux is True or aux is False:
            out += (AUX_TRUE if aux else AUX_FALSE, 0)
        elif isinstance(aux, int):
            out += (AUX_INT, aux)
        else:
            out += (AUX_LIST, len(aux), *aux)
    return tuple(out)


def decode_frames(code: Sequence[int]) -> list[list[Any]]:
    """The engine's live frames of an encoded stack (inverse of :func:`encode_frames`)."""
    frames = []
    pos = 0
    while pos < len(code):
        node, index, anyflag, tag, value = (int(v) for v in code[pos:pos + 5])
        pos += 5
        if tag == AUX_LIST:
            aux: Any = [int(v) for v in code[pos:pos + value]]
            pos += value
        else:
            aux = (None, False, True, value)[tag]
        frames.append([node, index, bool(anyflag), aux])
    return frames
