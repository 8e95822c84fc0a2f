"""Behaviour-tree boards for :class:`~studio.widgets.board.Board` (btree.md §11.3).

A cell shows the tile of the first visible layer that is neither void (``.``) nor hidden (``_…``,
unless shown), or a dim ``·`` when there is none, padded to the cell width, then one separating
column. Choices are part of the renderer's input: every offered rectangle is tinted in the
player's colour (separators inside a rectangle too, never between two), a rectangle offered by
several choices shows their count in its first separator, and the selected (or hovered) choice
previews its rhs in italics inside its rectangle.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style

from studio.engines.btree.model.board import Board
from studio.engines.btree.model.text import text_width
from studio.widgets.canvas import UIStyles

EMPTY = "·"
"""Drawn in a cell with no visible tile: an all-``_`` board (a fresh tic-tac-toe) showed as
nothing at all, and offered cells merged into one tinted block; the dots show its shape."""
PLAYER_COLOURS = ("#1f6feb", "#d29922", "#2ea043", "#a371f7", "#db61a2", "#39c5cf")
"""Outline colours of players without a sprite colour, in order of appearance."""


@dataclass(frozen=True)
class Preview:
    """A choice's rhs shown in place."""

    row: int
    col: int
    rhs: Mapping[str, tuple[tuple[str, ...], ...]] | Mapping[str, list[list[str]]]


def cell_width_of(boards: Iterable[Board | None], glyphs: Mapping[str, str], wanted: int) -> int:
    """The cell width: ``wanted`` if set, else the widest tile (after glyphs) seen, at least 1."""
    if wanted:
        return wanted
    widest = 1
    for board in boards:
        if board is None:
            continue
        for grid in board.layers.values():
            for row in grid:
                for tile in row:
                    widest = max(widest, text_width(glyphs.get(tile, tile)))
    return widest


class BtreeRenderer:
    """Draws one board state with the current offer of choices.

    Args:
        board: the board (None before the game made one: drawn as one blank cell).
        styles: the theme.
        width: cell width in terminal cells (see :func:`cell_width_of`).
        glyphs, colours: the project's ``[display]`` tables.
        show_hidden: draw ``_…`` tiles.
        hidden_layers: layers switched off in the layers panel.
        rects: offered rectangles ``(row, col, rows, cols)`` → number of choices there.
        tint: the outline colour of the player to move.
        preview: the choice to preview, if any.
    """

    def __init__(self, board: Board | None, styles: UIStyles, width: int,
                 glyphs: Mapping[str, str] | None = None,
                 colours: Mapping[str, str] | None = None, show_hidden: bool = False,
                 hidden_layers: Iterable[str] = (), rects: Mapping[tuple, int] | None = None,
                 tint: str | None = None, preview: Preview | None = None) -> None:
        self.board = board
        self.styles = styles
        self.cell = max(width, 1)
        self.glyphs = dict(glyphs or {})
        self.colours = dict(colours or {})
        self.show_hidden = show_hidden
        self.hidden_layers = frozenset(hidden_layers)
        self.rects = dict(rects or {})
        self.tint = Style(bgcolor=styles.colour(tint)) if tint else Style(reverse=True)
        self.preview = preview
        self.width = board.cols if board is not None and board.rows else 1
        self.height = board.rows if board is not None and board.rows else 1
        self.cell_size = (self.cell + 1, 1)
        self._covered: dict[int, set[int]] = {}
        self._joined: dict[int, set[int]] = {}
        """Per row, the cells whose right separator lies inside one offered rectangle: only
        those separators are tinted, so neighbouring one-cell moves stay apart."""
        self._badges: dict[tuple[int, int], int] = {}
        for (row, col, rows, cols), count in self.rects.items():
            for r in range(row, row + rows):
                self._covered.setdefault(r, set()).update(range(col, col + cols))
                self._joined.setdefault(r, set()).update(range(col, col + cols - 1))
            if count > 1:
                self._badges[(row, col)] = count

    def tile_at(self, row: int, col: int) -> str:
        """The tile drawn at (row, col) (``""`` for a blank cell), with the preview applied."""
        previewed = self._preview_tile(row, col)
        return self._board_tile(row, col) if previewed is None else previewed

    def _visible(self, tile: str) -> bool:
        return tile != "." and not (tile.startswith("_") and not self.show_hidden)

    def _board_tile(self, row: int, col: int) -> str:
        if self.board is None or not self.board.rows:
            return ""
        for name, grid in self.board.layers.items():
            if name not in self.hidden_layers and self._visible(grid[row][col]):
                return grid[row][col]
        return ""

    def _preview_tile(self, row: int, col: int) -> str | None:
        """The tile the previewed choice would leave at (row, col); None outside its rhs.

        Layer by layer, as drawing does: the rhs tile where it writes one (``.`` leaves the
        board's), the first visible one wins, else the cell is blank.
        """
        preview = self.preview
        if preview is None or self.board is None or not self.board.rows:
            return None
        r, c = row - preview.row, col - preview.col
        first = next(iter(preview.rhs.values()), [])
        if not (0 <= r < len(first) and 0 <= c < len(first[r])):
            return None
        for name, grid in self.board.layers.items():
            tile = grid[row][col]
            written = preview.rhs.get(name)
            if written is not None and r < len(written) and c < len(written[r]) \
                    and written[r][c] != ".":
                tile = written[r][c]
            if name not in self.hidden_layers and self._visible(tile):
                return tile
        return ""

    def row_key(self, y: int) -> Hashable:
        board = self.board
        cells = () if board is None or not board.rows else tuple(
            grid[y] for grid in board.layers.values())
        preview = None
        if self.preview is not None:
            preview = tuple(self._preview_tile(y, x) for x in range(self.width))
        badges = tuple(sorted((c, n) for (r, c), n in self._badges.items() if r == y))
        covered = tuple(sorted(self._covered.get(y, ())))
        joined = tuple(sorted(self._joined.get(y, ())))
        # Which tiles are drawn at all changes every row (l, _); the tint only covered cells.
        return (cells, covered, joined, badges, preview, self.hidden_layers, self.show_hidden,
                self.tint if covered else None)

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        styles = self.styles
        covered = self._covered.get(y, set())
        joined = self._joined.get(y, set())
        out: list[Segment] = []
        for x in range(x0, x1):
            tile = self.tile_at(y, x)
            shown = self.glyphs.get(tile, tile) if tile else EMPTY
            pad = max(self.cell - text_width(shown), 0)
            text = shown + " " * pad if text_width(shown) <= self.cell else "…" + " " * (
                self.cell - 1)
            style = styles.text if tile else styles.muted
            colour = self.colours.get(tile)
            if colour:
                style = Style(color=styles.colour(colour), bold=True)
            if self._preview_tile(y, x) is not None:
                style = style + Style(italic=True, dim=True)
            if x in covered:
                style = style + self.tint
            badge = self._badges.get((y, x))
            separator = str(badge) if badge and badge < 10 else ("+" if badge else " ")
            sep_style = (styles.accent + self.tint) if badge else (
                self.tint if x in joined else Style())
            out.append(Segment(text, style))
            out.append(Segment(separator, sep_style))
        return out
