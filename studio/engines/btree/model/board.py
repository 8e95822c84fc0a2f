"""Boards: named layers (document order) of immutable rows.

Rows are tuples of tile strings, so snapshots share them and a write replaces only the rows it
touches. ``.`` on a board is a void cell: never drawn, matched only by a ``.`` (don't care).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

Row = tuple[str, ...]
Grid = tuple[Row, ...]
VOID = "."


class Board:
    """An immutable board: ``layers`` maps layer name → grid, in document order.

    The first layer defines the size. Equal boards hash equal (layer order included).
    """

    __slots__ = ("layers", "rows", "cols", "_hash")

    def __init__(self, layers: Mapping[str, Any]) -> None:
        self.layers: dict[str, Grid] = {
            name: tuple(tuple(row) for row in grid) for name, grid in layers.items()
        }
        first = next(iter(self.layers.values()), ())
        self.rows = len(first)
        self.cols = len(first[0]) if first else 0
        self._hash: int | None = None

    @classmethod
    def _from_grids(cls, layers: dict[str, Grid], rows: int, cols: int) -> "Board":
        # Trusted constructor for the engine: the grids are already tuples of tuples.
        board = cls.__new__(cls)
        board.layers = layers
        board.rows = rows
        board.cols = cols
        board._hash = None
        return board

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Board":
        """From the JSON shape ``{layer: [[tile, ...], ...]}``."""
        return cls(data)

    def to_json(self) -> dict[str, list[list[str]]]:
        """The JSON shape ``{layer: [[tile, ...], ...]}`` (fresh lists)."""
        return {name: [list(row) for row in grid] for name, grid in self.layers.items()}

    def tile(self, layer: str, row: int, col: int) -> str:
        """The tile at (row, col) of ``layer``."""
        return self.layers[layer][row][col]

    def __iter__(self) -> Iterator[str]:
        return iter(self.layers)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return list(self.layers.items()) == list(other.layers.items())

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self.layers.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Board({self.rows}x{self.cols}, layers={list(self.layers)})"

    def text(self, layer: str | None = None) -> str:
        """A plain rendering of one layer (the first by default), rows on lines."""
        name = layer if layer is not None else next(iter(self.layers), None)
        if name is None:
            return ""
        return "\n".join(" ".join(row) for row in self.layers[name])
