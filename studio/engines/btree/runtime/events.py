"""What one engine step did, for the debugger and the UI (highlight, animate) and for tests."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StepEvent:
    """What one ``step()`` did.

    Attributes:
        node: id of the node called (or pushed, for the first step); ``None`` if nothing ran.
        type: that node's type.
        returned: the call's value: True/False (the node finished) or None (pending).
        counted: whether the step counted against the step budget.
        wait: ``"choice"``/``"display"`` if this step started a wait.
        result: the game result if this step ended the game.
        changed: ``(layer, row, col)`` of every cell a rewrite changed.
        board_replaced: the board was replaced or reshaped (set-board, layer-template, append).
    """

    node: int | None = None
    type: str | None = None
    returned: bool | None = None
    counted: bool = False
    wait: str | None = None
    result: dict | None = None
    changed: tuple = ()
    board_replaced: bool = False
