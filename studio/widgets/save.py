"""The save path every editor shares: save, save as, "unsaved changes?" and "changed on disk?".

``SavePath`` runs the questions as dialogs; call its coroutines from a worker (screens decorate
their save and leave actions with ``@work``), because waiting for a dialog needs one.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from studio.engines.common.inert import inert
from studio.storage import ProjectError, StaleFileError, scan_folder, validate_name
from studio.widgets.dialogs import Dialog, ErrorDialog
from studio.widgets.document import Document


class ChoiceDialog(Dialog[str]):
    """A question with a few answers; each answer has a key, ``escape`` cancels."""

    # Four answers ("changed on disk") did not fit the 64 columns of a dialog at the buttons'
    # usual 16: the last one, Cancel, was cut off. Buttons as wide as their labels fit in 72.
    DEFAULT_CSS = """
    ChoiceDialog > Vertical {
        width: 72;
    }
    ChoiceDialog .buttons Button {
        min-width: 0;
    }
    """

    def __init__(self, title: str, question: str, choices: list[tuple[str, str, str]],
                 cancel: str = "cancel") -> None:
        """``choices``: (result, button label, key) in button order; the first is focused."""
        super().__init__()
        for result, label, key in choices:  # in the footer too (it was blank)
            self._bindings.bind(key, f"choose({result!r})", label)
        self._bindings.bind("escape", f"choose({cancel!r})", "Cancel", show=False)
        self._title = title
        self._question = question
        self._choices = choices
        self._cancel = cancel

    def compose(self) -> ComposeResult:
        with Vertical():
            # Both quote the project's name and file: as text, never markup.
            yield Label(inert(self._title), classes="title", markup=False)
            yield Static(inert(self._question, log=True), markup=False)
            with Horizontal(classes="buttons"):
                for result, label, key in self._choices:
                    variant = "error" if result in ("discard", "overwrite") else "default"
                    if result == self._choices[0][0]:
                        variant = "primary"
                    yield Button(f"{label} ({key})", id=f"choice-{result}", variant=variant)

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def action_choose(self, result: str) -> None:
        self.dismiss(result)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "").removeprefix("choice-"))


def unsaved_dialog(name: str) -> ChoiceDialog:
    return ChoiceDialog(
        "Unsaved changes",
        f"{name!r} has changes that are not saved.",
        [("save", "Save", "s"), ("discard", "Discard", "d"), ("cancel", "Cancel", "c")],
    )


def stale_dialog(error: StaleFileError) -> ChoiceDialog:
    if error.missing:
        return ChoiceDialog(
            "The file is gone",
            f"{error.file} was deleted or renamed since it was opened.\n"
            "Your version is still here.",
            [("overwrite", "Save here again", "o"), ("save_as", "Save as…", "a"),
             ("cancel", "Cancel", "c")],
        )
    return ChoiceDialog(
        "Changed on disk",
        f"{error.file} changed since it was opened (another session or an editor).\n"
        "Reload keeps your version one undo away; overwrite replaces the other changes "
        "(the file's current version is kept as .bak).",
        [("reload", "Reload", "r"), ("save_as", "Save as…", "a"), ("overwrite", "Overwrite", "o"),
         ("cancel", "Cancel", "c")],
    )


class SaveAsDialog(Dialog["str | None"]):
    """Ask for the name of the new project a save as makes; its file is named after it in the
    studio's folder, as for a new or duplicated project.

    A name, not a path: a copy with its original's name could not be told apart from it in the
    home list, and a path could lead out of the studio's folder (where the home list never
    shows it and, on a shared account, the studio was never meant to write).
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, initial: str, taken: set[str], folder: Path) -> None:
        super().__init__()
        self._initial = initial
        self._taken = {name.casefold() for name in taken}
        self._folder = folder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Save as a new project", classes="title")
            yield Input(self._initial, id="name")
            yield Static(inert(f"Its file is named after it, in {self._folder}."), classes="note",
                         markup=False)
            yield Static("", classes="problem", id="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save", variant="primary", id="ok")

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted, "#name")
    def accept(self) -> None:
        try:
            name = validate_name(self.query_one("#name", Input).value)
            if name.casefold() in self._taken:
                raise ProjectError(f"there is already a project called {name!r} here: two of "
                                   "one name cannot be told apart in the list")
        except ProjectError as error:
            self.query_one("#problem", Static).update(inert(error.message, log=True))
            return
        self.dismiss(name)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def _suggest(name: str, taken: set[str]) -> str:
    """``NAME (2)``, or the first number free."""
    lowered = {t.casefold() for t in taken}
    number = 2
    while f"{name} ({number})".casefold() in lowered:
        number += 1
    return f"{name} ({number})"


class SavePath:
    """Saving one document from the UI, with every question it may need."""

    def __init__(self, app: App, document: Document) -> None:
        self.app = app
        self.document = document

    async def save(self) -> bool:
        """ctrl+s: save, asking what to do when the file changed on disk. True when saved."""
        if await self._refused():
            return False
        try:
            path = self.document.save()
        except StaleFileError as error:
            return await self._stale(error)
        except ProjectError as error:
            # A model that does not validate fails before any file is named: name the one
            # being saved, so the dialog says where the field path points.
            if error.file is None:
                error = error.with_file(self.document.path)
            await self.app.push_screen_wait(ErrorDialog(error, "Cannot save"))
            return False
        self.app.notify(f"Saved {path.name}")
        return True

    async def _stale(self, error: StaleFileError) -> bool:
        answer = await self.app.push_screen_wait(stale_dialog(error))
        try:
            if answer == "overwrite":
                path = self.document.save(overwrite=True)
                self.app.notify(f"Saved {path.name}")
                return True
            if answer == "reload":
                self.document.reload()
                self.app.notify("Reloaded from disk; ctrl+z brings your version back")
                return False
        except ProjectError as problem:
            await self.app.push_screen_wait(ErrorDialog(problem, "Cannot do that"))
            return False
        if answer == "save_as":
            return await self.save_as()
        return False

    async def save_as(self) -> bool:
        """Save as a new project, its name asked for, in the studio's folder. True when saved."""
        if await self._refused():
            return False
        folder = getattr(self.app, "folder", None)
        if folder is None:
            path = self.document.path
            folder = path.parent if path is not None else Path(".")
        # Read off the event loop, as the home screen does: the folder may be slow to read.
        taken = {entry.name for entry in await asyncio.to_thread(scan_folder, folder)}
        name = await self.app.push_screen_wait(SaveAsDialog(
            _suggest(self.document.name, taken), taken, folder))
        if name is None:
            return False
        try:
            path = self.document.save_as_new(name, folder)
        except ProjectError as error:
            if error.file is None:
                error = error.with_file(folder)
            await self.app.push_screen_wait(ErrorDialog(error, "Cannot save"))
            return False
        self.app.notify(f"Saved as {name!r}, {path.name}")
        return True

    async def _refused(self) -> bool:
        """Whether the person's role keeps projects read-only (said in a dialog)."""
        from studio.sessions import access  # loaded when first saving, not at start

        refused = access.current().save_projects()
        if refused:
            await self.app.push_screen_wait(ErrorDialog(ProjectError(refused), "Cannot save"))
        return bool(refused)

    async def confirm_leave(self) -> bool:
        """Before closing the project: True when it may close (saved, clean or discarded)."""
        if not self.document.dirty:
            return True
        answer = await self.app.push_screen_wait(unsaved_dialog(self.document.name))
        if answer == "discard":
            return True
        if answer == "save":
            return await self.save()
        return False
