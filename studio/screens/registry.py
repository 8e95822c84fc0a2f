"""Which screen opens a project of each kind; engine issues register theirs here."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from studio.storage import Project

ScreenFactory = Callable[[Project], Screen[None]]

SCREENS: dict[str, ScreenFactory] = {}
"""kind -> factory of the screen that opens such a project."""


def screen_for(project: Project) -> Screen[None]:
    """The registered screen for the project's kind, else the read-only summary."""
    factory = SCREENS.get(project.kind)
    if factory is None:
        from studio.screens.summary import SummaryScreen

        return SummaryScreen(project)
    return factory(project)
