"""A row-cursor table that leaves ``enter`` to its screen."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable


class RowTable(DataTable, inherit_bindings=False):
    """A :class:`DataTable` without its own ``enter``, so the screen's ``enter`` acts on the row;
    ``home`` and ``end`` go to the first and last row.

    The alternative, a priority ``enter`` on the screen, overtakes keys typed just before it
    that are still on their way to the table: over SSH "down, enter" often arrives in one
    packet, and the row above the wanted one opened. As an ordinary screen binding ``enter``
    waits its turn, and still shows in the footer.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(binding for binding in DataTable.BINDINGS
          if not (isinstance(binding, Binding) and binding.key in ("enter", "home", "end"))),
        # A list of rows: home and end go to the first and last row (DataTable's own scroll
        # sideways and leave the cursor, so "home, enter" opened the row it was on).
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]
