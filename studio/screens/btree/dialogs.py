"""Small dialogs of the behaviour-tree screens."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from studio.engines.btree.model.schema import ALL_TYPES
from studio.engines.btree.model.type_notes import note
from studio.engines.btree.editing.tree_edit import category
from studio.widgets.dialogs import Dialog

ORDER = ("control", "tile", "transform")


class TypeDialog(Dialog["str | None"]):
    """Choose a node type: typing filters the list, ``enter`` takes the highlighted type."""

    DEFAULT_CSS = """
    TypeDialog OptionList { height: 12; }
    TypeDialog .note { color: $text-muted; }
    TypeDialog #about { height: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, allowed: "frozenset[str] | set[str] | None") -> None:
        super().__init__()
        self._title = title
        self.allowed = set(allowed) if allowed is not None else set(ALL_TYPES)

    def types(self, text: str = "") -> list[str]:
        ranked = sorted(self.allowed, key=lambda t: (ORDER.index(category(t)), t))
        return [t for t in ranked if text.lower() in t]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self._title, classes="title")
            yield Input(placeholder="type to filter", id="filter", compact=True)
            yield OptionList(*self._options(""), id="types")
            yield Static("", id="about", markup=False)  # what the highlighted type does
            yield Static("control ◆ · tile ■ · transform ◇", classes="note")

    def _options(self, text: str) -> list[Option]:
        marks = {"control": "◆", "tile": "■", "transform": "◇"}
        return [Option(f"{marks[category(t)]} {t}", id=t) for t in self.types(text)]

    def on_mount(self) -> None:
        self.query_one("#filter", Input).focus()
        self.query_one(OptionList).highlighted = 0

    @on(OptionList.OptionHighlighted)
    def _about(self) -> None:
        options = self.query_one(OptionList)
        shown = options.highlighted is not None and options.option_count
        picked = options.get_option_at_index(options.highlighted).id if shown else ""
        self.query_one("#about", Static).update(note(picked or ""))

    @on(Input.Changed, "#filter")
    def _filter(self, event: Input.Changed) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options(event.value))
        options.highlighted = 0 if options.option_count else None
        self._about()  # the same index may not count as a new highlight

    def on_key(self, event) -> None:
        options = self.query_one(OptionList)
        if event.key in ("down", "up") and options.option_count:
            event.stop()
            current = options.highlighted or 0
            step = 1 if event.key == "down" else -1
            options.highlighted = min(max(current + step, 0), options.option_count - 1)

    @on(Input.Submitted, "#filter")
    def _take(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is not None and options.option_count:
            self.dismiss(options.get_option_at_index(options.highlighted).id)

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
