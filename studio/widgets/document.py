"""An open project being edited: its model, its undo history and its file.

One ``Document`` per open project, shared by every screen that edits it, for every kind: the
kind supplies how its model is read from and written to a project body. Saving goes through
storage (atomic, with a backup) and never silently overwrites a file that changed on disk since
it was read (:class:`studio.storage.StaleFileError`). No Textual here; ``save.py`` holds the
dialogs that ask people what to do.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from studio.storage import Project, ProjectHeader, load_project, save_new, save_project
from studio.widgets.history import Entry, History

M = TypeVar("M")
Listener = Callable[[str], None]


class Document(Generic[M]):
    """A project's model with history, dirty tracking and the save path.

    Args:
        project: the loaded project (its ``path`` and ``disk_sha256`` drive saving).
        read: builds the model from a project (used again by :meth:`reload`).
        write: turns a model into the project body to save.
    """

    def __init__(self, project: Project, read: Callable[[Project], M],
                 write: Callable[[M], dict[str, Any]]) -> None:
        self.project = project
        self._read = read
        self._write = write
        self.history: History[M] = History(read(project))
        self._saved_token = self.history.token
        self._listeners: list[Listener] = []
        # The header (the name in every title) of the versions a reload stood between: undoing
        # a reload must bring back the name the file had too, not just the body.
        self._headers: dict[int, ProjectHeader] = {}

    # ------------------------------------------------------------------------------ model

    @property
    def model(self) -> M:
        return self.history.model

    @property
    def path(self) -> Path | None:
        return self.project.path

    @property
    def name(self) -> str:
        return self.project.name

    @property
    def dirty(self) -> bool:
        """Whether the model differs from the version last loaded or saved."""
        return self.history.token != self._saved_token

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(reason)`` after every change; returns the function that unsubscribes.

        Reasons: ``edit``, ``undo``, ``redo``, ``reload``, ``save``.
        """
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self, reason: str) -> None:
        for listener in list(self._listeners):
            listener(reason)

    def edit(self, label: str, model: M, merge_key: Hashable | None = None) -> bool:
        """Make ``model`` current as one undoable edit; False when nothing changed."""
        entry = self.history.record(label, model, merge_key)
        if entry is None:
            return False
        self._changed("edit")
        return True

    def end_stroke(self) -> None:
        """The next edit starts a new undo entry (see :meth:`History.end_merge`)."""
        self.history.end_merge()

    def undo(self) -> Entry[M] | None:
        entry = self.history.undo()
        if entry is not None:
            self._restore_header()
            self._changed("undo")
        return entry

    def redo(self) -> Entry[M] | None:
        entry = self.history.redo()
        if entry is not None:
            self._restore_header()
            self._changed("redo")
        return entry

    def _restore_header(self) -> None:
        header = self._headers.get(self.history.token)
        if header is not None:
            self.project.header = replace(header)

    # ------------------------------------------------------------------------------- file

    def save(self, *, overwrite: bool = False) -> Path:
        """Save to the project's file.

        Args:
            overwrite: save even if the file changed on disk since it was read.

        Raises:
            StaleFileError: the file changed or went away (only without ``overwrite``).
            ProjectError: it could not be written; the old file and the model are intact.
        """
        return self._save(None, check_stale=not overwrite)

    def save_as(self, path: Path) -> Path:
        """Save to another file, which becomes the document's file.

        Raises:
            FileTakenError: the file exists (perhaps made by another session since it was asked
                for); nothing is written over it.
        """
        return self._save(Path(path), check_stale=True, exclusive=True)

    def save_as_new(self, name: str, folder: Path) -> Path:
        """Save as a new project called ``name``: a file named after it in ``folder`` (never
        over another file), which becomes the document's file."""
        before = self.project.header
        self.project.header = replace(before, name=name)
        previous = self.project.body
        self.project.body = self._write(self.model)
        try:
            written = save_new(self.project, folder)
        except BaseException:
            self.project.header, self.project.body = before, previous
            raise
        self._headers.clear()  # undo must not give the new project the old one's name back
        self._saved_token = self.history.token
        self._changed("save")
        return written

    def _save(self, path: Path | None, check_stale: bool, exclusive: bool = False) -> Path:
        previous = self.project.body
        self.project.body = self._write(self.model)
        try:
            written = save_project(self.project, path, check_stale=check_stale,
                                   exclusive=exclusive)
        except BaseException:
            self.project.body = previous
            raise
        self._saved_token = self.history.token
        self._changed("save")
        return written

    def recover(self, folder: Path) -> Path:
        """Write the unsaved model as a new project named "NAME (recovered)" beside the file (or
        in ``folder`` for a project never saved); the file itself is not touched.

        For when the studio fails: what was made since the last save is kept, and the next
        start lists it on the home screen like any project.
        """
        header = replace(self.project.header, name=f"{self.project.name} (recovered)")
        copy = Project(header, self._write(self.model))
        target = self.project.path.parent if self.project.path is not None else folder
        return save_new(copy, target)

    def reload(self) -> None:
        """Read the file again; the replaced model stays one undo away, so nothing is lost.

        Raises:
            ProjectError: the file cannot be read now; nothing changes.
        """
        if self.project.path is None:
            return
        project = load_project(self.project.path)
        model = self._read(project)
        self._headers[self.history.token] = replace(self.project.header)
        self.project = project
        self.history.end_merge()
        self.history.record("reload from disk", model)
        self._headers[self.history.token] = replace(project.header)
        self._saved_token = self.history.token
        self._changed("reload")
