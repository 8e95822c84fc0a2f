"""The TileCode screens (tilecode.md §8): game home, rule selector and editor, generalise, map
and paint editors, settings, play with the debug panel, and the replay viewer.

:func:`open_project` opens TileCode projects in the game home (named in
``studio.screens.registry``, imported when the first one opens).
"""

from __future__ import annotations

from textual.screen import Screen

from studio.storage import Project


def open_project(project: Project) -> Screen[None]:
    """The game home of a TileCode project, editing it through one shared document."""
    from studio.screens.tilecode.base import open_document
    from studio.screens.tilecode.screens import make

    return make("home", open_document(project))
