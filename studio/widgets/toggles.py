"""Checkboxes and radio buttons whose state shows in their shape, not only in their colour.

Textual draws a toggle as ``▐X▌`` (a radio as ``▐●▌``) whether it is on or off, and tells the two
apart by colour alone: in the ANSI theme and on a monochrome terminal an unticked box read as
ticked. These draw the mark only when on (``▐X▌`` / ``▐ ▌``, ``▐●▌`` / ``▐ ▌``).
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Checkbox as _Checkbox
from textual.widgets import RadioButton as _RadioButton


class Checkbox(_Checkbox):
    """A checkbox with an ``X`` only when ticked."""

    @property
    def BUTTON_INNER(self) -> str:  # noqa: N802 - Textual's name, read per draw
        return "X" if self.value else " "


class RadioButton(_RadioButton):
    """A radio button with a ``●`` only when chosen."""

    @property
    def BUTTON_INNER(self) -> str:  # noqa: N802 - Textual's name, read per draw
        return "●" if self.value else " "


class FormCheckbox(Checkbox, inherit_bindings=False):
    """A checkbox of a form: ``space`` ticks it, ``enter`` is the form's (apply)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "toggle_button", "Toggle",
                                                     show=False)]
