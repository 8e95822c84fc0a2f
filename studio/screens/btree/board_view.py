"""The board widget as the behaviour-tree screens show it: cut edges marked
(:mod:`studio.widgets.board_edges`), never focused, as play and the debugger take every key
themselves (the board cursor included)."""

from __future__ import annotations

from studio.widgets.board import Board
from studio.widgets.board_edges import MARK_STYLE, MARKS, EdgeMarks  # noqa: F401  (named here first)


class EdgeBoard(EdgeMarks, Board, can_focus=False):
    """A :class:`Board` that marks the edges where the pane cuts the board, never focused."""
