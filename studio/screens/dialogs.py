"""Modal dialogs that return typed results: new project, name entry, confirmation, errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Label, RadioSet, Static

from studio.screens.formatting import inert
from studio.storage import KINDS, ProjectError, validate_name
from studio.widgets.dialogs import Dialog, ErrorDialog
from studio.widgets.toggles import RadioButton

__all__ = ["ConfirmDialog", "Dialog", "ErrorDialog", "NameDialog", "NewProject", "NewProjectDialog"]


class _NameValidator(Validator):
    def validate(self, value: str) -> ValidationResult:
        try:
            validate_name(value)
        except ProjectError as exc:
            return self.failure(exc.message)
        return self.success()


def _focus_name(dialog: Dialog) -> None:
    dialog.query_one("#name", Input).focus()


@dataclass(frozen=True)
class NewProject:
    """What the new-project dialog returns."""

    kind: str
    name: str
    template: str = "empty"


class NewProjectDialog(Dialog[NewProject | None]):
    """Choose a kind and a name for a new project.

    The name field has the focus and ``up``/``down`` choose the kind from there, so typing a
    name, an arrow and ``enter`` is the whole job (an Input has no use for up and down).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("up", "kind(-1)", "Previous kind", show=False),
        Binding("down", "kind(1)", "Next kind", show=False),
        Binding("ctrl+t", "template", "Next template", show=False),
    ]

    def __init__(self, taken: Callable[[str], str] | None = None) -> None:
        """``taken``: a project name's check beyond its rules (the home screen refuses a name
        another project of the folder has: two rows of one name cannot be told apart)."""
        super().__init__()
        self._taken = taken
        self.template = "empty"
        """The chosen template: ``empty`` or one of the kind's."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("New project", classes="title")
            yield Label("Kind (↑/↓)")
            with RadioSet(id="kind"):
                for index, spec in enumerate(KINDS.values()):
                    yield RadioButton(spec.title, value=index == 0, name=spec.kind)
            yield Label("Name")
            yield Input(placeholder="My game", id="name", validators=[_NameValidator()])
            yield Static("", classes="problem", id="problem", markup=False)
            # One line, not a radio set: the dialog fits 80×24 with its buttons.
            yield Static("", id="template", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Create", variant="primary", id="create")

    def on_mount(self) -> None:
        _focus_name(self)
        self._show_template()

    def action_kind(self, step: int) -> None:
        buttons = list(self.query_one("#kind", RadioSet).query(RadioButton))
        current = next((i for i, b in enumerate(buttons) if b.value), 0)
        buttons[(current + step) % len(buttons)].value = True

    def _kind(self) -> str:
        pressed = self.query_one("#kind", RadioSet).pressed_button
        return pressed.name if pressed is not None and pressed.name else next(iter(KINDS))

    def _templates(self) -> list[str]:
        return ["empty", *KINDS[self._kind()].templates]

    def action_template(self) -> None:
        """The next template the chosen kind has (``empty`` and back)."""
        offered = self._templates()
        self.template = offered[(offered.index(self.template) + 1) % len(offered)]
        self._show_template()

    def on_click(self, event) -> None:
        if event.widget is not None and event.widget.id == "template":
            self.action_template()

    @on(RadioSet.Changed, "#kind")
    def _kind_changed(self) -> None:
        if self.template not in self._templates():  # a template belongs to one kind
            self.template = "empty"
        self._show_template()

    def _show_template(self) -> None:
        what = KINDS[self._kind()].templates
        choices = "   ".join(("● " if name == self.template else "○ ")
                             + (f"{name}: {what[name]}" if name in what else name)
                             for name in self._templates())
        self.query_one("#template", Static).update(f"Start from (ctrl+t)  {choices}")

    @on(Button.Pressed, "#create")
    @on(Input.Submitted, "#name")
    def create(self) -> None:
        name_input = self.query_one("#name", Input)
        try:
            name = validate_name(name_input.value)
            if self._taken is not None:
                name = self._taken(name)
        except ProjectError as exc:
            self.query_one("#problem", Static).update(inert(exc.message, log=True))
            name_input.focus()
            return
        self.dismiss(NewProject(self._kind(), name, self.template))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def refused_by(change: Callable[[str], object],
               *errors: type[Exception]) -> Callable[[str], str]:
    """A :class:`NameDialog` check: the text, stripped, refused while ``change(text)`` raises
    one of ``errors`` (the dialog stays open with the reason; closed on a layer name taken,
    the next keys typed went to the grid below as tiles)."""
    def check(text: str) -> str:
        name = text.strip()
        try:
            change(name)
        except errors as error:
            raise ProjectError(str(error)) from None
        return name

    return check


class NameDialog(Dialog[str | None]):
    """Ask for a name (rename, duplicate) or another line of text.

    Args:
        check: turns the text into the answer or raises :class:`ProjectError` saying what is
            wrong (shown in the dialog, which stays open); default: a project name's rules.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, initial: str, action: str,
                 check: Callable[[str], str] | None = None) -> None:
        super().__init__()
        self._title = title
        self._initial = initial
        self._action = action
        self._check = check

    def compose(self) -> ComposeResult:
        with Vertical():
            # Titles and questions quote names from files: shown as text, never as markup.
            yield Label(inert(self._title), classes="title", markup=False)
            validators = [] if self._check else [_NameValidator()]
            yield Input(self._initial, id="name", validators=validators)
            yield Static("", classes="problem", id="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(self._action, variant="primary", id="ok")

    def on_mount(self) -> None:
        _focus_name(self)

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted, "#name")
    def accept(self) -> None:
        name_input = self.query_one("#name", Input)
        try:
            self.dismiss((self._check or validate_name)(name_input.value))
        except ProjectError as exc:
            self.query_one("#problem", Static).update(inert(exc.message, log=True))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmDialog(Dialog[bool]):
    """A yes/no question; the safe answer is the default.

    Args:
        still: for a question about work under way (stop the match?): while it returns True
            the question stands; once the work ends by itself the dialog closes, answering no,
            and says ``ended``.
    """

    def __init__(self, title: str, question: str, yes: str = "Yes",
                 still: Callable[[], bool] | None = None, ended: str = "") -> None:
        super().__init__()
        # The footer and the buttons name the same answers ("esc No  y Yes" sat under buttons
        # reading Cancel and Delete, with no key on them).
        self._bindings.bind("escape,n", "answer(False)", "Cancel")
        self._bindings.bind("y", "answer(True)", yes)
        self._title = title
        self._question = question
        self._yes = yes
        self._still = still
        self._ended = ended

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(inert(self._title), classes="title", markup=False)
            yield Static(inert(self._question, log=True), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel (esc)", id="no")
                yield Button(f"{self._yes} (y)", variant="error", id="yes")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()
        if self._still is not None:
            self.set_interval(0.25, self._check_still)

    def _check_still(self) -> None:
        if self._still is not None and not self._still() and self.is_current:
            self._still = None
            if self._ended:
                self.notify(self._ended, timeout=3)
            closed = getattr(self.app, "question_closed", None)
            if closed is not None:
                closed()  # what was being typed answered this question, not the screen below
            self.dismiss(False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
