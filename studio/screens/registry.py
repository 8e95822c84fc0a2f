"""Which screen opens a project of each kind: each kind's screens package, by name.

The packages are named, not imported, so that the home screen loads none of a kind's screens
(nor the engines behind them) until a project of that kind is opened.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen

    from studio.storage import Project

SCREENS: dict[str, str] = {
    "tilecode": "studio.screens.tilecode",
    "btree": "studio.screens.btree",
    "haunted": "studio.screens.haunted",
}
"""kind -> the package whose ``open_project(project)`` makes the screen that opens such a
project; imported when the first project of the kind is opened."""


def screen_for(project: Project) -> Screen[None]:
    """The screen that opens the project, from its kind's package.

    Raises:
        KeyError: no screen is named for the kind (every kind of storage has one).
    """
    return importlib.import_module(SCREENS[project.kind]).open_project(project)
