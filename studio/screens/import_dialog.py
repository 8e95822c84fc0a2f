"""The home screen's question before a trrbt game is imported: the new project's name, and what
a link to a missing node or file does (the CLI's ``--missing-links``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, RadioSet, Static

from studio.screens.formatting import inert
from studio.storage import ProjectError
from studio.storage.btree.settings import MISSING_LINKS
from studio.widgets.dialogs import Dialog
from studio.widgets.toggles import RadioButton


@dataclass(frozen=True)
class ImportChoice:
    """What the import dialog returns."""

    name: str
    missing_links: str = "error"


class ImportDialog(Dialog[ImportChoice | None]):
    """Name the project a trrbt game becomes, and choose what missing links do.

    As in the new-project dialog, the name field keeps the focus and ``up``/``down`` choose
    from there: a name, an arrow and ``enter`` are the whole job.

    Args:
        title: the question (names the file).
        name: the name offered.
        check: turns the typed name into the project's or raises :class:`ProjectError`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("up", "missing(-1)", "Missing links: error", show=False),
        Binding("down", "missing(1)", "Missing links: empty", show=False),
    ]

    def __init__(self, title: str, name: str, check: Callable[[str], str]) -> None:
        super().__init__()
        self._title = title
        self._name = name
        self._check = check

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(inert(self._title), classes="title", markup=False)
            yield Input(self._name, id="name")
            yield Static("", classes="problem", id="problem", markup=False)
            yield Label("Missing links (↑/↓)")
            with RadioSet(id="missing"):
                for index, choice in enumerate(MISSING_LINKS):
                    yield RadioButton(choice, value=index == 0, name=choice)
            yield Static("", id="meaning", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Import", variant="primary", id="ok")

    def on_mount(self) -> None:
        # Focused, the set's own up/down only moved a highlight (space chose): tried in tmux,
        # down then Import still imported with "error". Unfocusable, up/down choose everywhere.
        self.query_one("#missing", RadioSet).can_focus = False
        self.query_one("#name", Input).focus()
        self._show_meaning()

    @property
    def missing_links(self) -> str:
        pressed = self.query_one("#missing", RadioSet).pressed_button
        return pressed.name if pressed is not None and pressed.name else "error"

    def action_missing(self, step: int) -> None:
        buttons = list(self.query_one("#missing", RadioSet).query(RadioButton))
        wanted = min(max(step, 0), len(buttons) - 1)  # up: error, down: empty
        buttons[wanted].value = True

    @on(RadioSet.Changed, "#missing")
    def _show_meaning(self) -> None:
        self.query_one("#meaning", Static).update(MISSING_LINKS[self.missing_links] + ".")

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted, "#name")
    def accept(self) -> None:
        try:
            name = self._check(self.query_one("#name", Input).value)
        except ProjectError as exc:
            self.query_one("#problem", Static).update(inert(exc.message, log=True))
            return
        self.dismiss(ImportChoice(name, self.missing_links))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
