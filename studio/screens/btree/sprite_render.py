"""Behaviour-tree boards drawn with the game's sprite images (half-block pixels).

Each board cell becomes a block of ``2h`` columns and ``h`` lines, two pixels a terminal cell
(``▀`` in the top pixel's colour on the bottom one's), the tile's image over the ``back``
pattern's. A tile without an image keeps its glyph, in the middle of its block. Offered moves are
framed in the player's colour at each cell's corners (``┏┓┗┛``; a count replaces the top right
one when several moves share a rectangle), the previewed move's cells with double corners
(``╔╗╚╝``), and the board cursor in the theme's accent. Drawn only where the theme has colours
to spare and the board fits at two lines a cell at least (:func:`image_lines`); otherwise the
glyph board of :mod:`board_render` is drawn.
"""

from __future__ import annotations

from rich.color import Color
from rich.segment import Segment
from rich.style import Style

from studio.engines.btree.model.sprites import Pixels, SpriteSet, over
from studio.engines.btree.model.text import text_width
from studio.screens.btree.board_render import BtreeRenderer

LINES = (4, 3, 2)
"""Lines per cell tried, the largest that fits first (a cell is twice as many columns wide, so
its pixels are square)."""
PLAIN = Style()


def image_lines(cols: int, rows: int, width: int, height: int) -> int | None:
    """Lines per cell for a board of ``cols × rows`` in a pane of ``width × height``, or None
    when even the smallest blocks do not fit (glyphs then)."""
    return next((h for h in LINES if cols * 2 * h <= width and rows * h <= height), None)


def _rgb(pixel: tuple[int, int, int]) -> Color:
    return Color.from_rgb(*pixel)


def pixel_cell(top, bottom) -> Segment:
    """Two stacked pixels as one terminal cell; transparent shows the terminal's background."""
    if top is None and bottom is None:
        return Segment(" ", PLAIN)
    if top is None:
        return Segment("▄", Style(color=_rgb(bottom)))
    if bottom is None:
        return Segment("▀", Style(color=_rgb(top)))
    return Segment("▀", Style(color=_rgb(top), bgcolor=_rgb(bottom)))


class SpriteRenderer(BtreeRenderer):
    """:class:`BtreeRenderer`'s board with the sprites' images; same arguments, and

    Args:
        sprites: the game's sprites (shared between redraws: it caches the scaled images).
        lines: lines per cell (see :func:`image_lines`).
    """

    centre_exactly = True
    """Centred in the pane to the column, as a glyph board is (:attr:`Board.pad`): centred by
    whole cells of up to 16 columns, it sat in the pane's top-left corner."""

    def __init__(self, *args, sprites: SpriteSet, lines: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sprites = sprites
        self.lines = lines
        self.cell_size = (2 * lines, lines)
        self.tint_colour = self.tint.bgcolor

    def _block(self, row: int, col: int) -> tuple[Pixels | None, str]:
        """The cell's pixels (None: blank) and the glyph to write over them ("" for none)."""
        columns, pixel_rows = self.cell_size[0], 2 * self.lines
        tile = self.tile_at(row, col)
        back_tile = self.sprites.back_tile(row, col)
        back = None
        if back_tile is not None and self.board is not None and self.board.rows \
                and any(grid[row][col] != "." for grid in self.board.layers.values()):
            back = self.sprites.pixels(back_tile, columns, pixel_rows)
        if tile and not self.sprites.drawn(tile):
            return back, self.glyphs.get(tile, tile)
        top = self.sprites.pixels(tile, columns, pixel_rows) if tile else None
        return over(top, back), ""

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        out: list[Segment] = []
        covered = self._covered.get(y, set())
        columns = self.cell_size[0]
        last = self.lines - 1
        for x in range(x0, x1):
            pixels, glyph = self._block(y, x)
            if pixels is None:
                cells = [Segment(" ", PLAIN)] * columns
            else:
                cells = [pixel_cell(t, b) for t, b in zip(pixels[2 * line], pixels[2 * line + 1])]
            marked = x in covered and line in (0, last)
            if marked:
                previewed = self._preview_tile(y, x) is not None
                corners = ("╔╗" if line == 0 else "╚╝") if previewed else (
                    "┏┓" if line == 0 else "┗┛")
                badge = self._badges.get((y, x)) if line == 0 else None
                right = (str(badge) if badge < 10 else "+") if badge else corners[1]
                cells[0] = self._mark(cells[0], corners[0])
                cells[-1] = self._mark(cells[-1], right)
            if glyph and line == self.lines // 2:
                # between the corner columns, where frames and the cursor never draw
                cells[1:-1] = self._write(cells[1:-1], glyph, self._glyph_style(glyph))
            out.extend(cells)
        return out

    def _glyph_style(self, glyph: str) -> Style:
        colour = self.colours.get(glyph)
        return Style(color=self.styles.colour(colour), bold=True) if colour else self.styles.text

    def _write(self, cells: list[Segment], text: str, style: Style) -> list[Segment]:
        """``text`` over the middle of a block's line (cut to the block)."""
        if text_width(text) > len(cells):
            cut = ""
            for char in text:
                if text_width(cut + char) > len(cells) - 1:
                    break
                cut += char
            text = cut + "…"
        width = text_width(text)
        start = (len(cells) - width) // 2
        bg = cells[start].style.bgcolor if cells[start].style else None
        return [*cells[:start], Segment(text, style + Style(bgcolor=bg)), *cells[start + width:]]

    def _mark(self, cell: Segment, char: str) -> Segment:
        """A frame corner in the player's colour over a pixel cell (its background kept)."""
        bg = cell.style.bgcolor if cell.style else None
        return Segment(char, Style(color=self.tint_colour, bgcolor=bg, bold=True))

    def render_cursor(self, y: int, x: int, line: int, segments: list[Segment]) -> list[Segment]:
        """The board cursor: a frame in the accent colour (reversing half-blocks hides them)."""
        if line not in (0, self.lines - 1):
            return segments
        cells = _cells(segments)
        accent = self.styles.accent.color
        corners = "┏┓" if line == 0 else "┗┛"
        for index, char in ((0, corners[0]), (len(cells) - 1, corners[1])):
            bg = cells[index].style.bgcolor if cells[index].style else None
            cells[index] = Segment(char, Style(color=accent, bgcolor=bg, bold=True))
        return cells


def _cells(segments: list[Segment]) -> list[Segment]:
    """Segments split into one segment per terminal cell (a glyph of two cells stays whole)."""
    out: list[Segment] = []
    for segment in segments:
        text, style = segment.text, segment.style
        if len(text) == text_width(text):
            out.extend(Segment(char, style) for char in text)
        else:
            out.append(segment)
    return out
