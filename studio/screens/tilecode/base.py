"""What every TileCode screen shares: the TileCode document (a :class:`Game`)."""

from __future__ import annotations

from studio.engines.tilecode.model import Game
from studio.screens.document_screen import DocumentScreen
from studio.storage import Project
from studio.storage.tilecode.kind import game_to_body, project_to_game
from studio.widgets.document import Document


def open_document(project: Project) -> Document[Game]:
    """A TileCode project as an editable document."""
    return Document(project, project_to_game, game_to_body)


class TilecodeScreen(DocumentScreen):
    """A screen editing (or playing) one TileCode document."""

    @property
    def game(self) -> Game:
        return self.document.model
