"""Dialog bases shared by every screen: a centred modal box, and the error dialog."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from studio.engines.common.inert import inert
from studio.storage import ProjectError, format_field_path
from studio.widgets.footer import KeysFooter

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A centred box over the screen below; subclasses compose a ``Vertical``.

    ``left``/``right`` go from button to button, as arrows move everywhere in the studio (a
    text field keeps them for its cursor)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "button_step(-1)", "Previous button", show=False),
        Binding("right", "button_step(1)", "Next button", show=False),
    ]

    # Selectors start with the class name so that Textual's CSS scoping keeps them as written.
    DEFAULT_CSS = """
    Dialog {
        align: center middle;
    }
    Dialog > Vertical {
        width: 64;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        overflow-y: auto;  /* at 60×20 the buttons fell below the edge: they scroll into view */
        border: thick $primary 80%;
        background: $surface;
        padding: 1 2;
    }
    Dialog .title {
        width: 100%;  /* a long question wraps: "Where to run: …" was cut at "for this ma" */
        text-style: bold;
        margin-bottom: 1;
    }
    Dialog .buttons {
        height: auto;
        margin-top: 1;
        align-horizontal: right;
    }
    Dialog .buttons Button {
        margin-left: 1;
    }
    Dialog .problem {
        color: $text-error;
        height: auto;
    }
    Dialog RadioSet {
        width: 100%;
    }
    """

    def on_mount(self) -> None:
        # Its own footer, over the one of the screen below, whose keys do not act here (the
        # unsaved-changes question offered "c Code" there, where c is Cancel).
        self.mount(KeysFooter())
        # Notes about the screen below are put away as the question opens: StudioApp.push_screen.

    def action_button_step(self, delta: int) -> None:
        buttons = [b for b in self.query(Button) if b.display and not b.disabled]
        if self.focused in buttons:
            index = buttons.index(self.focused) + delta
            buttons[min(max(index, 0), len(buttons) - 1)].focus()


class ErrorDialog(Dialog[None]):
    """Shows a :class:`ProjectError`: file, line, field, message and what to do."""

    DEFAULT_CSS = """
    ErrorDialog > Vertical { border: thick $error 80%; width: 76; }
    ErrorDialog Grid { grid-size: 2; grid-columns: 9 1fr; height: auto; grid-gutter: 0 1; }
    ErrorDialog .key { color: $text-muted; }
    ErrorDialog .note { margin-top: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "close", "Close")]

    def __init__(self, error: ProjectError, title: str = "Cannot open the project") -> None:
        super().__init__()
        self.error = error
        self._title = title

    def compose(self) -> ComposeResult:
        error = self.error
        rows = [("File", str(error.file) if error.file else "-")]
        if error.line is not None:
            where = str(error.line) + (f", column {error.column}" if error.column else "")
            rows.append(("Line", where))
        if error.field_path:
            rows.append(("Field", format_field_path(error.field_path)))
        rows.append(("Problem", error.message))
        if error.hint:
            rows.append(("What now", error.hint))
        with Vertical():
            yield Label(self._title, classes="title")
            with Grid():
                for key, value in rows:
                    yield Label(key, classes="key")
                    # The file's name and the message quote what the file holds.
                    yield Static(inert(value, log=True), markup=False)
            yield Static("The file has not been changed.", classes="note")
            with Horizontal(classes="buttons"):
                yield Button("Close", variant="primary", id="close")

    def on_mount(self) -> None:
        self.query_one("#close", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
