"""Opening files by kind: projects, trrbt games (imported first), replays and the spectator.

A mixin of :class:`studio.app.StudioApp`, kept apart from the app's frame (themes, help, the
palette, quitting), so that each reads on its own. What a kind's screens need loads when a file
of that kind is first opened, never with the first frame.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from textual import work
from textual.app import App

from studio.screens.home import HomeScreen
from studio.screens.registry import screen_for
from studio.storage.errors import ProjectError
from studio.storage.listing import is_replay_name
from studio.storage.trrbt_files import BTREPLAY_SUFFIX, is_trrbt_name


class Openers(App):
    """Each kind of file the studio opens, and the error dialog when one cannot be opened."""

    def open_project_file(self, path: Path) -> None:
        """Open a project by its kind's screen; a broken file shows the error dialog instead.

        A replay (``NAME.tcreplay.toml``, ``NAME.btreplay.json``) opens in its kind's replay
        viewer on its project; a trrbt game (``.yaml``, ``.yml``, ``.json``) is imported first
        (:meth:`import_game_file`).
        """
        if is_replay_name(path) or path.name.endswith(BTREPLAY_SUFFIX):
            self.open_replay_file(path)
            return
        if is_trrbt_name(path):
            self.import_game_file(path)
            return
        try:
            from studio.storage.project import load_project  # with the kinds it validates

            project = load_project(path)
        except ProjectError as exc:
            self.show_error(exc)
            return
        self.push_screen(screen_for(project))

    def watch_project_file(self, path: Path, tournament: str | None) -> None:
        """The spectator screen of a Haunted Tiles project (errors in a dialog)."""
        try:
            from studio.storage.project import load_project  # with the kinds it validates

            project = load_project(path)
            if project.kind != "haunted":
                raise ProjectError("only Haunted Tiles tournaments and matches can be watched",
                                   file=path)
        except ProjectError as exc:
            self.show_error(exc)
            return
        from studio.screens.haunted import watch_project

        self.push_screen(watch_project(project, tournament))

    def import_game_file(self, path: Path, name: str | None = None,
                         missing_links: str = "error") -> None:
        """Import a trrbt game into a new project beside it and open that (errors in a dialog).

        The game file is left as it is and no file is overwritten: the project gets a free
        name, and the message says where it went (the studio edits TOML projects only). The
        parsing and compiling run in a thread: a big game (trogue, 2 MiB of YAML at most) kept
        every key waiting.
        """
        self.notify(f"Importing {path.name}…", timeout=2)
        self._import_worker(path, name, missing_links)

    @work(thread=True, exclusive=True, group="import")
    def _import_worker(self, path: Path, name: str | None, missing_links: str) -> None:
        from studio.storage.btree.trrbt import import_into_folder

        try:
            project, warnings = import_into_folder(path, path.parent, name, missing_links)
        except ProjectError as exc:
            if missing_links == "error" and "--missing-links empty" in exc.message:
                # The compiler's hint names the settings, which a game not yet imported lacks.
                exc = dataclasses.replace(exc, hint="import it again and choose Missing links: "
                                                    "empty to expand it to nothing")
            self.call_from_thread(self.show_error, exc, "Cannot import the trrbt game")
            return
        self.call_from_thread(self._imported, path, project.path, warnings)

    def _imported(self, path: Path, project_path: Path, warnings: list[str]) -> None:
        home = self.screen_stack[0]
        if isinstance(home, HomeScreen) and home.is_mounted:
            home.reload(select=project_path)  # not yet mounted (studio GAME.yaml): it reads anyway
        note = "".join(f"\nwarning: {warning}" for warning in warnings[:3])
        more = f"\n(and {len(warnings) - 3} more warnings)" if len(warnings) > 3 else ""
        self.open_project_file(project_path)
        self.notify(f"Imported {path.name} into a new project: {project_path} "
                    f"({path.name} is unchanged; the studio edits the .toml){note}{more}",
                    title="Imported", timeout=10)

    def open_replay_file(self, path: Path) -> None:
        """The replay viewer of the replay's kind on it and the project beside it (errors in a
        dialog)."""
        if is_replay_name(path):
            from studio.screens.tilecode.replay_viewer import open_replay
        else:
            from studio.screens.btree.replay_viewer import open_replay
        try:
            screen = open_replay(path)
        except ProjectError as exc:
            self.show_error(exc, "Cannot open the replay")
            return
        self.push_screen(screen)

    def show_error(self, error: ProjectError, title: str = "Cannot open the project") -> None:
        from studio.widgets.dialogs import ErrorDialog

        self.push_screen(ErrorDialog(error, title))
