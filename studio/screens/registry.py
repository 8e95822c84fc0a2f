"""Which screen opens a project of each kind; engine issues register theirs here."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from studio.storage import Project

ScreenFactory = Callable[[Project], Screen[None]]

SCREENS: dict[str, ScreenFactory] = {}
"""kind -> factory of the screen that opens such a project."""


def screen_for(project: Project) -> Screen[None]:
    """The registered screen for the project's kind.

    Raises:
        KeyError: no screen is registered for the kind (every kind of storage has one).
    """
    return SCREENS[project.kind](project)
