"""The Haunted Tiles screens (haunted.md §13): the hub, match setup and the live match view,
replays, the map editor, teams and the AI editor, tournaments.

:func:`open_project` opens Haunted Tiles projects in the hub (named in
``studio.screens.registry``, imported when the first one opens).
"""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from studio.storage import Project


def open_project(project: Project) -> Screen[None]:
    """The hub of a Haunted Tiles project, editing it through one shared document."""
    from studio.screens.haunted.base import open_document
    from studio.screens.haunted.screens import make

    return make("hub", open_document(project))


def watch_project(project: Project, tournament: str | None = None) -> Screen[None]:
    """The spectator screen on a project's tournament (or on whatever it plays now)."""
    from studio.screens.haunted.base import open_document
    from studio.screens.haunted.screens import make

    return make("watch", open_document(project), tournament=tournament)


def watch_folder(folder: Path) -> Screen[None]:
    """A spectator's first and only screen: whatever the served ``folder`` plays now (or played
    last), waiting for the next run when nothing has been played yet.

    Its maps and names come from the first Haunted Tiles project of the folder (all of them
    share its ``replays/``), or from a blank one when it has none: a spectator is never shown
    the home screen, nor anything the folder's other files hold.
    """
    from studio.storage.folder import scan_folder
    from studio.storage.project import new_project

    found = next((entry.project for entry in scan_folder(folder)
                  if entry.project is not None and entry.project.kind == "haunted"), None)
    if found is None:
        found = new_project("haunted", "Live")
        found.path = Path(folder) / "live.toml"  # never saved: a spectator saves nothing
    return watch_project(found)
