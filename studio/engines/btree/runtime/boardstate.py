"""The engine's mutable board: layer lists of immutable rows, plus the lazily built tile index.

A write replaces only the rows it touches; a copy copies the layer lists (O(rows × layers)) and
shares every row tuple.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from studio.engines.btree.runtime import match
from studio.engines.btree.model.board import Board, Row
from studio.engines.btree.runtime.fastmatch import Index, build_index, find_indexed, matches_at
from studio.engines.btree.runtime.pattern import Pattern


class RunError(Exception):
    """A run-time authoring error (§9.4): becomes the game result ``error``."""


class BoardState:
    """The current board (``layers is None`` before any board exists)."""

    __slots__ = ("layers", "rows", "cols", "_index", "reference")

    def __init__(self, reference: bool = False) -> None:
        self.layers: dict[str, list[Row]] | None = None
        self.rows = 0
        self.cols = 0
        self._index: Index | None = None
        self.reference = reference
        """Match with the plain reference matcher instead of the index (benchmarks, checks)."""

    def copy(self) -> "BoardState":
        """A copy sharing the row tuples (the index is rebuilt lazily when needed)."""
        other = BoardState.__new__(BoardState)
        other.layers = None if self.layers is None else {n: list(g) for n, g in self.layers.items()}
        other.rows = self.rows
        other.cols = self.cols
        other._index = None
        other.reference = self.reference
        return other

    def freeze(self) -> Board | None:
        """An immutable ``Board`` sharing the rows (``None`` before any board)."""
        if self.layers is None:
            return None
        return Board._from_grids({n: tuple(g) for n, g in self.layers.items()}, self.rows, self.cols)

    def key(self) -> tuple | None:
        """A hashable identity of the board (layer order included)."""
        if self.layers is None:
            return None
        return tuple((n, tuple(g)) for n, g in self.layers.items())

    def load(self, layers: Mapping[str, Sequence[Sequence[str]]]) -> None:
        """Replace the whole board by a copy of ``layers`` (document order kept)."""
        self.layers = {str(n): [tuple(row) for row in grid] for n, grid in layers.items()}
        self._reshaped()

    def _reshaped(self) -> None:
        first = next(iter(self.layers.values()), []) if self.layers is not None else []
        self.rows = len(first)
        self.cols = len(first[0]) if first else 0
        self._index = None

    # -- matching ---------------------------------------------------------------------------

    def find(self, pat: Pattern) -> list[tuple[int, int]]:
        """All matches of ``pat``, row-major (§7.4)."""
        if self.layers is None:
            return []
        if self.reference:
            return match.find(self.layers, self.rows, self.cols, pat.source)
        index = self._index
        if index is None:
            index = self._index = build_index(self.layers, self.cols)
        return find_indexed(self.layers, self.rows, self.cols, index, pat)

    def matches_at(self, pat: Pattern, r: int, c: int) -> bool:
        """Whether ``pat`` matches at (r, c)."""
        return self.layers is not None and matches_at(self.layers, pat, r, c)

    # -- changes ----------------------------------------------------------------------------

    def check_writable(self, pat: Pattern) -> None:
        """Raise ``RunError`` unless every layer ``pat`` writes exists (checked before writing)."""
        layers = self.layers
        for name in pat.write_layers:
            if layers is None or name not in layers:
                raise RunError(f"rhs writes layer {name!r}, which the board does not have")

    def write(self, pat: Pattern, r: int, c: int, track: list | None = None) -> None:
        """Write the non-``.`` tiles of ``pat`` at (r, c); ``track`` collects changed cells."""
        self.check_writable(pat)
        layers = self.layers
        index = self._index
        cols = self.cols
        for name, i, cells in pat.writes:
            grid = layers[name]
            rr = r + i
            old_row = grid[rr]
            new_row = None
            for j, tile in cells:
                cc = c + j
                old = old_row[cc]
                if old == tile:
                    continue
                if new_row is None:
                    new_row = list(old_row)
                new_row[cc] = tile
                if index is not None:
                    by_tile = index[name]
                    code = rr * cols + cc
                    by_tile[old].discard(code)
                    cells_of = by_tile.get(tile)
                    if cells_of is None:
                        by_tile[tile] = {code}
                    else:
                        cells_of.add(code)
                if track is not None:
                    track.append((name, rr, cc))
            if new_row is not None:
                grid[rr] = tuple(new_row)

    def layer_template(self, layer: str, tile: str) -> None:
        """Add/replace ``layer`` shaped like ``main``: ``.`` where main is ``.``, else ``tile``."""
        if self.layers is None:
            raise RunError("layer-template needs a board, but no board exists yet")
        main = self.layers.get("main")
        if main is None:
            raise RunError("layer-template needs a 'main' layer, which the board does not have")
        self.layers[layer] = [tuple("." if t == "." else tile for t in row) for row in main]
        self._reshaped()

    def append_rows(self, pattern: Mapping[str, Sequence[Sequence[str]]]) -> bool:
        """§7.5 ``append-rows``; False (no change) when the layer sets differ."""
        if self.layers is None:
            self.load(pattern)
            return True
        if set(pattern) != set(self.layers):
            return False
        cols = self.cols
        for name, grid in self.layers.items():
            for prow in pattern[name]:
                if not prow:
                    raise RunError("append-rows pattern has an empty row")
                width = len(prow)
                grid.append(tuple(prow[i % width] for i in range(cols)))
        self._reshaped()
        return True

    def append_columns(self, pattern: Mapping[str, Sequence[Sequence[str]]]) -> bool:
        """§7.5 ``append-columns``; False (no change) when the layer sets differ."""
        if self.layers is None:
            self.load(pattern)
            return True
        if set(pattern) != set(self.layers):
            return False
        for name, grid in self.layers.items():
            prows = pattern[name]
            if not prows:
                raise RunError("append-columns pattern has no rows")
            for r, row in enumerate(grid):
                grid[r] = row + tuple(prows[r % len(prows)])
        self._reshaped()
        return True
