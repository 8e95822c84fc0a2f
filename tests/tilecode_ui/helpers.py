"""Driving the TileCode screens in tests: open a project, reach a screen, read the model, play
rounds one at a time."""

from __future__ import annotations

from pathlib import Path

from studio.engines.tilecode.model import Game
from studio.screens.tilecode.play import PlayScreen
from tests.ui_helpers import studio_app, wait_until


def app_on(path: Path | str, theme: str | None = None):
    """The studio opened on one project file (its game home on top of the folder list)."""
    return studio_app(Path(path), theme=theme)


def game_of(app) -> Game:
    """The game being edited by the screen on top."""
    return app.screen.document.model


def text_of(app, selector: str) -> str:
    """The plain text of a LinesView on the current screen."""
    return app.screen.query_one(selector).text


async def start_paused(pilot, app) -> PlayScreen:
    """Open play and pause it at once; returns the play screen."""
    await pilot.press("g", "p")
    screen = app.screen
    assert isinstance(screen, PlayScreen) and screen.paused and screen.timer is None
    # A round the timer began before the pause may still run in its worker thread (a slow
    # machine's rounds do): a restart or single step would wait for it, so the test does too.
    await wait_until(pilot, lambda: not screen.busy, "the round in progress did not end")
    return screen


async def one_round(pilot, screen: PlayScreen, *keys: str) -> None:
    await pilot.press(*keys, "n")
    while screen.busy:
        await pilot.pause(0.01)
