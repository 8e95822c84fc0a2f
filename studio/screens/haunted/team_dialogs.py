"""Dialogs of the Teams & AIs screen and the AI editor: a form of fields, and a pick list."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from studio.screens.formatting import inert
from studio.widgets.dialogs import Dialog


@dataclass(frozen=True)
class Field:
    """One field of a :class:`FormDialog`: text, or one of ``choices`` (a drop-down)."""

    key: str
    label: str
    value: str = ""
    choices: tuple[str, ...] = ()
    placeholder: str = ""


Submit = Callable[[dict[str, str]], str]
"""Applies the form's values; returns "" when done, or the problem (the form stays open)."""


class FormDialog(Dialog[bool]):
    """Fields in a grid; ``enter`` submits, ``escape`` cancels; a refused value keeps the form
    open with the message, so nothing typed is lost. Returns whether it was applied."""

    DEFAULT_CSS = """
    FormDialog > Vertical { width: 72; }
    FormDialog Grid { grid-size: 2; grid-columns: 14 1fr; grid-rows: 1; height: auto;
                      grid-gutter: 0 1; }
    FormDialog Grid Label { color: $text-muted; }
    FormDialog .note { color: $text-muted; margin-top: 1; }
    FormDialog .problem { margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, fields: Sequence[Field], submit: Submit, action: str = "OK",
                 note: str = "") -> None:
        super().__init__()
        self._title = title
        self.fields = list(fields)
        self._submit = submit
        self._action = action
        self._note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            # Titles, notes and problems quote names from files: text, never markup.
            yield Label(inert(self._title), classes="title", markup=False)
            with Grid():
                for field in self.fields:
                    yield Label(field.label)
                    if field.choices:
                        yield Select([(choice, choice) for choice in field.choices],
                                     value=field.value, allow_blank=False, compact=True,
                                     id=f"field-{field.key}")
                    else:
                        yield Input(field.value, placeholder=field.placeholder, compact=True,
                                    id=f"field-{field.key}")
            if self._note:
                yield Static(inert(self._note, log=True), classes="note", markup=False)
            yield Static("", classes="problem", id="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button(self._action, variant="primary", id="ok", compact=True)

    def on_mount(self) -> None:
        inputs = self.query(Input)
        (inputs.first() if inputs else self.query_one("#ok", Button)).focus()

    def values(self) -> dict[str, str]:
        """The fields' current text, by key."""
        out = {}
        for field in self.fields:
            widget = self.query_one(f"#field-{field.key}")
            out[field.key] = str(widget.value)
        return out

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted)
    def accept(self) -> None:
        problem = self._submit(self.values())
        if problem:
            self.query_one("#problem", Static).update(inert(problem, log=True))
            return
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)


class PickDialog(Dialog["str | None"]):
    """Choose one of a list with the arrows and ``enter``, or by its key; ``escape`` cancels."""

    DEFAULT_CSS = """
    PickDialog OptionList { height: auto; max-height: 14; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: Sequence[tuple[str, str]], current: str = "",
                 keys: Sequence[str] = (), disabled: Collection[str] = ()) -> None:
        """``choices``: (value, label) in list order; ``current`` is highlighted first;
        ``keys``: one key per choice that picks it at once (shown before its label);
        ``disabled``: values listed (their label says why) that cannot be picked."""
        super().__init__()
        self._title = title
        self._choices = list(choices)
        self._disabled = frozenset(disabled)
        self._current = current
        self._keys = dict(zip(keys, (value for value, _ in self._choices)))

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(inert(self._title), classes="title", markup=False)
            keys = {value: key for key, value in self._keys.items()}
            yield OptionList(*(Option(Text(inert(f"{keys[value]}  {label}" if value in keys
                                                 else label)), id=value,
                                      disabled=value in self._disabled)
                               for value, label in self._choices))

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        values = [value for value, _ in self._choices]
        options.highlighted = values.index(self._current) if self._current in values else 0
        options.focus()

    def on_key(self, event) -> None:
        if event.key in self._keys:
            event.stop()
            self.dismiss(self._keys[event.key])

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
