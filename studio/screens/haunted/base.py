"""What every Haunted Tiles screen shares: the project document (a :class:`HauntedModel`)."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.binding import Binding

from studio.screens.document_screen import DocumentScreen
from studio.storage import Project
from studio.storage.haunted.project import HauntedModel, model_body, project_model
from studio.widgets.document import Document
from studio.widgets.save import SavePath


QUIET_DOCUMENT_KEYS = [
    Binding("ctrl+s", "save", "Save", show=False),
    Binding("ctrl+z", "undo", "Undo", show=False),
    Binding("ctrl+y", "redo", "Redo", show=False),
]
"""For screens that show rather than edit: saving and undo still work, out of the footer's way."""


def open_document(project: Project) -> Document[HauntedModel]:
    """A Haunted Tiles project as an editable document."""
    return Document(project, project_model, model_body)


HAUNTED_ABOUT = (
    "Each team's AI moves 3 monsters on a board of breaking tiles. Every move hits one tile (a "
    "jump its own, a step the next) and weakens it; a monster dies when its hit breaks the "
    "tile, on a broken tile or off the board. What decides a round: the team with monsters "
    "left wins it; when both lose their last in the same turn, the team with more hits wins, "
    "and equal hits tie it. \"hits\" counts every hit of a team's monsters that weakened a tile "
    "(the one that breaks it too), not the tiles broken. Home moves first in each phase: swap "
    "sides alternates who is home.")
"""What help says of Haunted Tiles on the screens where matches are set up, watched and run."""


class HauntedScreen(DocumentScreen):
    """A screen of one Haunted Tiles project."""

    @property
    def model(self) -> HauntedModel:
        return self.document.model

    @property
    def folder(self) -> Path:
        """The project's folder: AI files and ``replays/`` live there."""
        return self.model.folder or Path.cwd()

    @work(exclusive=True, group="leave")
    async def leave(self) -> None:
        """Close the project, asking first about unsaved changes."""
        if await SavePath(self.app, self.document).confirm_leave():
            self.dismiss(None)
