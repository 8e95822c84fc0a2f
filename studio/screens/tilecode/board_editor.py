"""What the map and paint editors share: the TileCode keys (``w a s d``, the pen, fill and the
eyedropper) over the board editing every kind shares (:mod:`studio.screens.board_editing`)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from studio.screens.board_editing import BoardEditing
from studio.screens.tilecode.base import TilecodeScreen


class BoardEditorScreen(TilecodeScreen, BoardEditing):
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
