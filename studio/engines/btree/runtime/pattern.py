"""Patterns compiled once per node: the cells to check, the cells to write, a hashable key."""

from __future__ import annotations

from typing import Any, Mapping

from studio.engines.btree.model.board import Grid


class Pattern:
    """A layer pattern prepared for matching and writing.

    Attributes:
        layers: the pattern as ``{layer: grid}`` of tuples (document order kept).
        rows, cols: the size of the first layer.
        checks: ``(layer, i, j, tile)`` for every non-``.`` cell; all-``.`` layers contribute none,
            so they are never checked (§7.4).
        anchors: one ``(layer, tile, i, j)`` per distinct (layer, tile) of ``checks`` (first
            occurrence): the candidates for anchoring a search on the rarest tile.
        writes: ``(layer, i, ((j, tile), ...))`` per pattern row that writes something.
        write_layers: the layers a write touches (must exist on the board, §9.4).
        key: a hashable identity of the pattern content (layer order included).
    """

    __slots__ = ("layers", "rows", "cols", "checks", "anchors", "writes", "write_layers", "key", "source")

    def __init__(self, source: Mapping[str, Any]) -> None:
        self.source = source
        self.layers: dict[str, Grid] = {
            str(name): tuple(tuple(str(t) for t in row) for row in grid) for name, grid in source.items()
        }
        first = next(iter(self.layers.values()), ())
        self.rows = len(first)
        self.cols = len(first[0]) if first else 0
        checks = []
        anchors: dict[tuple[str, str], tuple[str, str, int, int]] = {}
        writes = []
        for name, grid in self.layers.items():
            for i, row in enumerate(grid[: self.rows]):
                cells = tuple((j, t) for j, t in enumerate(row[: self.cols]) if t != ".")
                if cells:
                    writes.append((name, i, cells))
                for j, t in cells:
                    checks.append((name, i, j, t))
                    anchors.setdefault((name, t), (name, t, i, j))
        self.checks = tuple(checks)
        self.anchors = tuple(anchors.values())
        self.writes = tuple(writes)
        self.write_layers = tuple(dict.fromkeys(name for name, _, _ in writes))
        self.key = tuple(self.layers.items())

    def to_json(self) -> dict[str, list[list[str]]]:
        """The JSON shape ``{layer: [[tile, ...], ...]}`` (fresh lists)."""
        return {name: [list(row) for row in grid] for name, grid in self.layers.items()}

    def __repr__(self) -> str:
        return f"Pattern({self.rows}x{self.cols}, {list(self.layers)})"
