"""Field widgets of the tree editor and the pattern editor, with the keys users reach for.

Textual's inputs take ``ctrl+a`` to the start of the line (Emacs); in a form users expect it
to select everything, to type a new value over the old one. Its buttons act on ``enter``
only; a choice field that cycles also takes ``space`` and ``left``/``right``.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Button, Input, TextArea


class FieldInput(Input):
    """A one-line field where ``ctrl+a`` selects all (``home`` still goes to the start)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+a", "select_all", "Select all", show=False),
    ]


class PatternText(TextArea):
    """The pattern editor's text form, where ``ctrl+a`` selects all."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+a", "select_all", "Select all", show=False),
    ]


class CycleButton(Button):
    """A button standing for one of a few choices: ``enter`` or a click (``Pressed``) and
    ``space`` or ``right`` (:class:`Cycled`) go to the next, ``left`` to the previous."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,right", "cycle(1)", "Next", show=False),
        Binding("left", "cycle(-1)", "Previous", show=False),
    ]

    class Cycled(Message):
        """The button asks for the choice ``step`` places on (1 next, -1 previous)."""

        def __init__(self, button: CycleButton, step: int) -> None:
            super().__init__()
            self.button = button
            self.step = step

        @property
        def control(self) -> CycleButton:
            return self.button

    def action_cycle(self, step: int) -> None:
        self.post_message(self.Cycled(self, step))
