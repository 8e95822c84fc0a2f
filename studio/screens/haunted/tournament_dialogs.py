"""The tournament screen's small questions: pick a team to enter, type a value."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from studio.screens.formatting import inert
from studio.widgets.dialogs import Dialog


class PickDialog(Dialog["str | None"]):
    """Choose one of a few names (the teams not entered yet); ``escape`` cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    PickDialog OptionList { height: auto; max-height: 12; }
    """

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        """``choices``: (name returned, line shown)."""
        super().__init__()
        self._title = title
        self._choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            # Names of teams and maps from files: text, never markup.
            yield Label(inert(self._title), classes="title", markup=False)
            yield OptionList(*(Option(Text(inert(shown)), id=name)
                               for name, shown in self._choices), id="choices")
            yield Static("enter adds · escape cancels", classes="problem")

    def on_mount(self) -> None:
        self.query_one("#choices", OptionList).focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ValueDialog(Dialog["str | None"]):
    """Type one value; ``check`` returns what is wrong with it ("" when it is fine)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, initial: str, check: Callable[[str], str],
                 note: str = "") -> None:
        super().__init__()
        self._title = title
        self._initial = initial
        self._check = check
        self._note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(inert(self._title), classes="title", markup=False)
            if self._note:
                yield Static(inert(self._note, log=True), markup=False)
            yield Input(self._initial, id="value")
            yield Static("", classes="problem", id="problem")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("OK", variant="primary", id="ok")

    def on_mount(self) -> None:
        self.query_one("#value", Input).focus()

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted, "#value")
    def accept(self) -> None:
        text = self.query_one("#value", Input).value
        problem = self._check(text)
        if problem:
            self.query_one("#problem", Static).update(Text(inert(problem, log=True)))
            return
        self.dismiss(text)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
