"""The list of a project's maps, opened from the map editor with ``m``: choose the map to edit,
or add, duplicate, rename or delete one (the editor does the edit, as one undo step)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from studio.engines.common.width import pad_text, text_width
from studio.screens.formatting import inert
from studio.widgets.dialogs import Dialog

PICKER_KEYS = (("enter", "edit"), ("n", "new"), ("d", "duplicate"), ("e", "rename"),
               ("del", "delete"), ("esc", "close"))


class MapPickerDialog(Dialog["tuple[str, int] | None"]):
    """Returns ``(what, index)``: what is ``open``, ``new``, ``duplicate``, ``rename`` or
    ``delete``; None when closed.

    Args:
        rows: per map, its name and a short note (size, holes, problems).
        current: the map being edited (highlighted first).
    """

    DEFAULT_CSS = """
    MapPickerDialog > Vertical { width: 76; }
    MapPickerDialog OptionList { height: auto; max-height: 16; }
    MapPickerDialog .keys { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "New map"),
        Binding("d", "choose('duplicate')", "Duplicate"),
        Binding("e", "choose('rename')", "Rename"),
        Binding("delete", "choose('delete')", "Delete"),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self, rows: list[tuple[str, str]], current: int) -> None:
        super().__init__()
        self._rows = rows
        self._current = current

    def compose(self) -> ComposeResult:
        width = max((text_width(name) for name, _ in self._rows), default=0) + 2
        with Vertical():
            yield Label(f"Maps of this project ({len(self._rows)})", classes="title")
            yield OptionList(*(Option(Text.assemble((pad_text(inert(name), width), "bold"), (note, "dim")))
                               for name, note in self._rows), id="maps")
            yield Static(" · ".join(f"{key} {what}" for key, what in PICKER_KEYS), classes="keys")

    def on_mount(self) -> None:
        maps = self.query_one("#maps", OptionList)
        maps.highlighted = self._current
        maps.focus()

    @on(OptionList.OptionSelected, "#maps")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(("open", event.option_index))

    def action_choose(self, what: str) -> None:
        highlighted = self.query_one("#maps", OptionList).highlighted
        self.dismiss((what, self._current if highlighted is None else highlighted))

    def action_close(self) -> None:
        self.dismiss(None)
