"""What the home screen does to project files: new, duplicate, rename, delete (to the trash).

A mixin of :class:`~studio.screens.home.HomeScreen`, which lists the folder (``folder``,
``entries``, ``selected``) and reads it again after each change (``reload``). The dialogs load
when one is first asked for, not for the first frame.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from studio.storage.errors import ProjectError
from studio.storage.listing import TRASH, ProjectEntry

# The folder's writers (and, through them, every kind's storage and engine) load with the first
# key that uses one, not with the home screen's first frame.
if TYPE_CHECKING:
    from studio.screens.dialogs import NewProject


class ProjectFileActions:
    """The home screen's keys that change the folder's project files."""

    folder: Path
    entries: list[ProjectEntry]

    def _unused_name(self, keep: Path | None = None) -> Callable[[str], str]:
        """A project name's rules, and not the name of another project listed here (``keep``:
        the one being renamed, which may keep its name)."""
        taken = {entry.name.casefold() for entry in self.entries
                 if entry.path != keep and entry.trrbt is None}  # a game to import is no project

        def check(text: str) -> str:
            from studio.storage.project import validate_name

            name = validate_name(text)
            if name.casefold() in taken:
                raise ProjectError(f"there is already a project called {name!r} here: "
                                   "two of one name cannot be told apart in the list")
            return name

        return check

    def action_new(self) -> None:
        from studio.screens.dialogs import NewProjectDialog

        def created(choice: NewProject | None) -> None:
            if choice is None:
                return
            try:
                from studio.storage.folder import create_project

                project = create_project(self.folder, choice.kind, choice.name, choice.template)
            except ProjectError as exc:
                self.app.show_error(exc, "Cannot create the project")
                return
            self.reload(select=project.path)
            # Short: the project opens at once and its header names the file; a longer toast
            # covered the new screen's status lines (seen at 60x20 in the tree editor).
            self.notify(f"Created {project.path.name}", timeout=2)
            self.app.open_project_file(project.path)  # made to be worked on: open it at once

        self.app.push_screen(NewProjectDialog(self._unused_name()), created)

    def import_game(self, entry: ProjectEntry) -> None:
        """Ask the new project's name and what missing links do, then import the trrbt game
        into it and open it."""
        from studio.screens.import_dialog import ImportChoice, ImportDialog

        def chosen(choice: ImportChoice | None) -> None:
            if choice is not None:
                self.app.import_game_file(entry.path, choice.name, choice.missing_links)

        check = self._unused_name()
        name = entry.name
        try:
            check(name)
        except ProjectError:
            name = f"{name} ({entry.path.stem})"  # imported before: offer a name that is free
        dialog = ImportDialog(f"Import {entry.path.name} as a new project named", name, check)
        self.app.push_screen(dialog, chosen)

    def action_duplicate(self) -> None:
        from studio.screens.dialogs import NameDialog

        entry = self.selected
        if entry is None or entry.project is None:
            return

        def named(name: str | None) -> None:
            if name is None:
                return
            try:
                from studio.storage.folder import duplicate_project

                copy = duplicate_project(entry.path, name)
            except ProjectError as exc:
                self.app.show_error(exc, "Cannot duplicate the project")
                return
            self.reload(select=copy.path)
            self.notify(f"Duplicated as {copy.path.name}")

        dialog = NameDialog(f"Duplicate {entry.name!r} as", f"{entry.name} copy", "Duplicate",
                            self._unused_name())
        self.app.push_screen(dialog, named)

    def action_rename(self) -> None:
        from studio.screens.dialogs import NameDialog

        entry = self.selected
        if entry is None or entry.project is None:
            return

        def named(name: str | None) -> None:
            if name is None or name == entry.name:
                return
            try:
                from studio.storage.folder import rename_project

                project = rename_project(entry.path, name)
            except ProjectError as exc:
                self.app.show_error(exc, "Cannot rename the project")
                return
            self.reload(select=project.path)
            self.notify(f"Renamed to {project.name!r}")

        self.app.push_screen(NameDialog(f"Rename {entry.name!r}", entry.name, "Rename",
                                        self._unused_name(keep=entry.path)), named)

    def action_delete(self) -> None:
        from studio.screens.dialogs import ConfirmDialog

        entry = self.selected
        if entry is None:
            return

        def confirmed(yes: bool | None) -> None:
            if not yes:
                return
            try:
                from studio.storage.folder import move_to_trash

                target = move_to_trash(entry.path)
            except ProjectError as exc:
                self.app.show_error(exc, "Cannot delete the project")
                return
            self.reload()
            self.notify(f"Moved {entry.path.name} to {TRASH}/{target.name}")

        question = (
            f"Move {entry.name!r} ({entry.path.name}) to the trash?\n"
            f"It goes to {self.folder / TRASH}, from where it can be moved back."
        )
        self.app.push_screen(ConfirmDialog("Delete project", question, yes="Delete"), confirmed)
