"""What every board editor shares, whatever the kind: a cursor on a :class:`Board`, the pen,
and clicks that paint.

With the pen down every cursor move paints, and the whole stroke is one undo step: edits made
during a stroke share a merge key in the document's history. Subclasses bind the keys (each
kind has its own letters) and say what painting a cell does.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import count

from textual import on

from studio.screens.document_screen import DocumentScreen
from studio.widgets.board import Board

_strokes = count(1)


class BoardEditing(DocumentScreen):
    """A document screen drawn on one :class:`Board`; subclasses paint one cell at a time."""

    def __init__(self, document) -> None:
        super().__init__(document)
        self.pen = False
        self.stroke: int | None = None

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    @property
    def cursor(self) -> tuple[int, int]:
        """The cursor cell as the board has it: (x, y)."""
        return self.board.cursor or (0, 0)

    @property
    def merge_key(self) -> Hashable | None:
        """What edits of the current stroke share (None between strokes)."""
        return None if self.stroke is None else ("stroke", self.stroke)

    def paint(self, x: int, y: int, stroke: bool) -> None:
        """Apply the brush at (x, y); ``stroke`` when the pen drew there (subclasses)."""

    def show_status(self) -> None:
        """Redraw what shows the cursor and the pen (subclasses)."""

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
            self.end_pen()
        self.show_status()

    def end_pen(self) -> None:
        """Lift the pen: the next edit starts a new undo step."""
        self.pen = False
        self.stroke = None
        self.document.end_stroke()

    def on_mount(self) -> None:
        super().on_mount()
        self.board.on_cursor_moved = self._pen_moved

    def _pen_moved(self, x: int, y: int) -> None:
        # As the cursor moves, not when its message arrives: by then a pen lifted by a key of
        # the same burst ("p down down down p") had painted only the first cell.
        if self.pen:
            self.paint(x, y, stroke=True)

    @on(Board.CursorMoved)
    def _board_cursor_moved(self, message: Board.CursorMoved) -> None:
        self.show_status()

    @on(Board.CellClicked)
    def _board_clicked(self, message: Board.CellClicked) -> None:
        self.board.move_cursor(message.x, message.y)
        self.action_apply()
