"""A row-cursor table that leaves ``enter`` to its screen."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from studio.engines.common.inert import inert
from studio.widgets.inert import inert_line


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

    def add_row(self, *cells: Any, height: int | None = 1, key: str | None = None,
                label: Any = None) -> RowKey:
        """Add a row whose text is shown as it is: names from files, CSVs and replays fill
        these tables, so a cell's control characters show as escapes and a ``[`` in a str cell
        is a bracket (DataTable reads str cells as markup)."""
        shown = [inert_line(cell) if isinstance(cell, Text)
                 else Text(inert(cell)) if isinstance(cell, str) else cell for cell in cells]
        return super().add_row(*shown, height=height, key=key, label=label)
