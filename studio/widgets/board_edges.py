"""A board cut by its pane says so: the marks of the cut edges, for any :class:`Board`.

A board wider or taller than its pane is drawn from the camera on, and a cut edge looked like
the board's own edge (soko-emoji at 80×24 lost its left half and read as a smaller level; a
32×24 TileCode map at 60×20 read as a smaller map). Each cut edge gets a mark: ``‹``/``›`` down a
cut side, ``▲``/``▼`` in the middle of a cut top or bottom line. The marks follow the camera,
which moves with the board cursor.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from studio.widgets.board import Board

MARKS = {"left": "‹", "right": "›", "up": "▲", "down": "▼"}
MARK_STYLE = Style(bold=True, reverse=True)
"""Reverse video: a mark reads apart from any tile, in every theme and in monochrome."""


class EdgeMarks:
    """Mixin for a :class:`Board`: marks the edges where the pane cuts the board."""

    def cut_edges(self) -> set[str]:
        """Which of left, right, up, down the board goes on past the pane."""
        r = self.renderer
        cx, cy = self.camera
        cols, rows = self.full_cells
        edges = set()
        if cx > 0:
            edges.add("left")
        if cx + cols < r.width:
            edges.add("right")
        if cy > 0:
            edges.add("up")
        if cy + rows < r.height:
            edges.add("down")
        return edges

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)  # type: ignore[misc]
        edges = self.cut_edges()
        width = self.size.width
        if not edges or width < 3:
            return strip
        row = self.camera[1] + y // self.renderer.cell_size[1]
        on_board = 0 <= row < self.renderer.height
        marks: dict[int, str] = {}
        if on_board and "left" in edges:
            marks[0] = MARKS["left"]
        if on_board and "right" in edges:
            marks[width - 1] = MARKS["right"]
        if y == 0 and "up" in edges:
            marks[width // 2] = MARKS["up"]
        if y == self.size.height - 1 and "down" in edges:
            marks[width // 2] = MARKS["down"]
        for x, mark in sorted(marks.items()):
            strip = Strip.join([strip.crop(0, x), Strip([Segment(mark, MARK_STYLE)], 1),
                                strip.crop(x + 1, width)])
        return strip


class MarkedBoard(EdgeMarks, Board):
    """A :class:`Board` with its cut edges marked."""
