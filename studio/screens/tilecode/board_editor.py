"""What the map and paint editors share: a board with a cursor, ``w a s d``, the pen.

With the pen down every cursor move paints, and the whole stroke is one undo step: edits made
during a stroke share a merge key in the document's history.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import count
from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType

from studio.screens.tilecode.base import TilecodeScreen
from studio.widgets.board import Board

_strokes = count(1)


class BoardEditorScreen(TilecodeScreen):
    """A TileCode editor drawn on a :class:`Board`; subclasses paint one cell at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "nudge(0, -1)", "Up", show=False),
        Binding("s", "nudge(0, 1)", "Down", show=False),
        Binding("a", "nudge(-1, 0)", "Left", show=False),
        Binding("d", "nudge(1, 0)", "Right", show=False),
        Binding("enter,space,z", "apply", "Paint"),
        Binding("shift+space,p", "pen", "Pen down/up"),
        Binding("f", "fill", "Fill"),
        Binding("i", "pick", "Eyedropper"),
    ]

    def __init__(self, document) -> None:
        super().__init__(document)
        self.pen = False
        self.stroke: int | None = None

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    @property
    def cursor(self) -> tuple[int, int]:
        return self.board.cursor or (0, 0)

    @property
    def merge_key(self) -> Hashable | None:
        """What edits of the current stroke share (None between strokes)."""
        return None if self.stroke is None else ("stroke", self.stroke)

    def paint(self, x: int, y: int, stroke: bool) -> None:
        """Apply the brush at (x, y); ``stroke`` when the pen drew there (subclasses)."""

    def show_status(self) -> None:
        """Redraw the status line (subclasses)."""

    def action_nudge(self, dx: int, dy: int) -> None:
        self.board.action_cursor(dx, dy)

    def action_apply(self) -> None:
        self.paint(*self.cursor, stroke=self.stroke is not None)

    def action_pen(self) -> None:
        self.pen = not self.pen
        if self.pen:
            self.stroke = next(_strokes)
            self.action_apply()
        else:
            self.stroke = None
            self.document.end_stroke()
        self.show_status()

    @on(Board.CursorMoved)
    def _board_cursor_moved(self, message: Board.CursorMoved) -> None:
        if self.pen:
            self.paint(message.x, message.y, stroke=True)
        self.show_status()

    @on(Board.CellClicked)
    def _board_clicked(self, message: Board.CellClicked) -> None:
        self.board.move_cursor(message.x, message.y)
        self.action_apply()
