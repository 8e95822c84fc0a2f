"""Driving the TileCode screens in tests: open a project, reach a screen, read the model."""

from __future__ import annotations

from pathlib import Path

from studio.engines.tilecode.model import Game
from tests.ui_helpers import studio_app


def app_on(path: Path | str, theme: str | None = None):
    """The studio opened on one project file (its game home on top of the folder list)."""
    return studio_app(Path(path), theme=theme)


def game_of(app) -> Game:
    """The game being edited by the screen on top."""
    return app.screen.document.model


def text_of(app, selector: str) -> str:
    """The plain text of a LinesView on the current screen."""
    return app.screen.query_one(selector).text
