"""A row-cursor table that leaves ``enter`` to its screen."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable


class RowTable(DataTable, inherit_bindings=False):
    """A :class:`DataTable` without its own ``enter``, so the screen's ``enter`` acts on the row.

    The alternative, a priority ``enter`` on the screen, overtakes keys typed just before it
    that are still on their way to the table: over SSH "down, enter" often arrives in one
    packet, and the row above the wanted one opened. As an ordinary screen binding ``enter``
    waits its turn, and still shows in the footer.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        binding for binding in DataTable.BINDINGS
        if not (isinstance(binding, Binding) and binding.key == "enter")
    ]
