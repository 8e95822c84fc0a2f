"""What a board draws (:class:`CellRenderer`, a kind's contract with :class:`~studio.widgets.board.Board`)
and the default look of its cursor; apart from the widget, which only knows cells and a camera."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol

from rich.segment import Segment
from rich.style import Style

CURSOR_STYLE = Style(reverse=True, bold=True)


class CellRenderer(Protocol):
    """What a board draws: the cells of one game, as segments.

    A renderer may also define ``render_cursor(y, x, line, segments) -> segments`` to draw the
    cursor cell its own way (the default is reverse video, which suits glyph cells).
    """

    width: int
    """Board width in cells."""
    height: int
    """Board height in cells."""
    cell_size: tuple[int, int]
    """Terminal columns and lines per cell (2×1 glyph mode, 4×2 art mode...)."""

    def row_key(self, y: int) -> Hashable:
        """A value that changes whenever anything drawn in board row ``y`` changes."""

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        """Terminal line ``line`` (0 .. lines per cell - 1) of cells ``x0 .. x1 - 1`` of row ``y``.

        The segments must be exactly ``(x1 - x0) * columns per cell`` cells wide.
        """


def reverse_cursor(segments: list[Segment]) -> list[Segment]:
    """The default cursor look: the cell in reverse video (works in 16-colour terminals too)."""
    return list(Segment.apply_style(segments, post_style=CURSOR_STYLE))
