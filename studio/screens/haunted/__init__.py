"""The Haunted Tiles screens (haunted.md §13): the hub, match setup and the live match view,
replays, the map editor, teams and the AI editor, tournaments.

:func:`open_project` opens Haunted Tiles projects in the hub (named in
``studio.screens.registry``, imported when the first one opens).
"""

from __future__ import annotations

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
