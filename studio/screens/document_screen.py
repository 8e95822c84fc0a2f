"""What every screen that edits an open project shares, whatever its kind: the document,
undo/redo, saving, the title with the unsaved mark, and the command palette."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.screen import Screen

from studio.screens.dimmed import DimmedKeys
from studio.screens.room import NeedsRoom
from studio.widgets.canvas import UIStyles, ui_styles
from studio.widgets.document import Document
from studio.widgets.save import SavePath


class DocumentScreen(DimmedKeys, NeedsRoom, Screen[None]):
    """A screen editing (or playing) one open project, of any kind.

    Subclasses draw in :meth:`refresh_view`, which runs on mount, after every change of the
    document while the screen is shown, and when the screen comes back to the top.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+y", "redo", "Redo"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("save", "Save project", "Save the project to its file (ctrl+s)"),
        ("save_as", "Save project as…", "Save the project as a new project, under a new name"),
        ("undo", "Undo", "Take back the last edit (ctrl+z)"),
        ("redo", "Redo", "Re-apply the edit last taken back (ctrl+y)"),
    ]
    """(action, palette title, palette help); subclasses extend it with their own."""
    SCREEN_TITLE = ""

    def __init__(self, document: Document) -> None:
        super().__init__()
        self.document = document
        self._unsubscribe = None
        self._stale_view = False

    # ------------------------------------------------------------------------------ model

    @property
    def styles_ui(self) -> UIStyles:
        return ui_styles(self.app)

    def edit(self, label: str, model: object, merge_key: Hashable | None = None) -> bool:
        """Record an edit of the model (undoable); False when it changed nothing."""
        return self.document.edit(label, model, merge_key)

    def refresh_view(self) -> None:
        """Redraw from the document (subclasses)."""

    def _show_title(self) -> None:
        path = self.document.path
        mark = " ● unsaved" if self.document.dirty else ""
        name = self.document.name
        self.title = f"{name} — {self.SCREEN_TITLE}" if self.SCREEN_TITLE else name
        self.sub_title = f"{path.name if path else 'new'}{mark}"

    def _document_changed(self, reason: str) -> None:
        if self.is_current:
            self._show_title()
            self.refresh_view()
            self._refresh_undo_keys()
        else:
            self._stale_view = True

    def _refresh_undo_keys(self) -> None:
        """Redraw the footer only when undo or redo became (un)available.

        Rebuilding the footer costs tens of milliseconds: doing it on every edit made each
        keystroke of an editor visibly slower.
        """
        history = self.document.history
        state = (history.can_undo, history.can_redo)
        if state != getattr(self, "_undo_keys", None):
            self._undo_keys = state
            self.refresh_bindings()

    def on_mount(self) -> None:
        # Textual calls each class's on_mount along the MRO, and a subclass's super().on_mount()
        # calls this once more: subscribe once, or the first listener outlives the screen.
        if self._unsubscribe is None:
            self._unsubscribe = self.document.subscribe(self._document_changed)
        self._show_title()
        self.refresh_view()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def on_screen_resume(self) -> None:
        self._show_title()
        if self._stale_view:
            self._stale_view = False
            self.refresh_view()
        self.refresh_bindings()

    # ---------------------------------------------------------------------------- actions

    @work(exclusive=True, group="save")
    async def action_save(self) -> None:
        await SavePath(self.app, self.document).save()

    @work(exclusive=True, group="save")
    async def action_save_as(self) -> None:
        await SavePath(self.app, self.document).save_as()

    def action_undo(self) -> None:
        entry = self.document.undo()
        self.app.notify_in_place("history", f"Undo: {entry.label}" if entry else "Nothing to undo",
                                 timeout=2)

    def action_redo(self) -> None:
        entry = self.document.redo()
        self.app.notify_in_place("history", f"Redo: {entry.label}" if entry else "Nothing to redo",
                                 timeout=2)

    def action_back(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return self.document.history.can_undo or None
        if action == "redo":
            return self.document.history.can_redo or None
        return super().check_action(action, parameters)

    def palette_commands(self) -> Iterator[tuple[str, str, str]]:
        """The palette entries that apply now, as (title, help, action)."""
        seen = set()
        for klass in type(self).__mro__:
            for action, title, help_text in klass.__dict__.get("PALETTE", ()):
                if action not in seen and self.check_action(action, ()):
                    seen.add(action)
                    yield title, help_text, action
