"""Which TileCode screen opens for what, in one place: the screens open each other only through
:func:`make`, so none imports another, and opening a project loads only the screens used."""

from __future__ import annotations

import importlib
from typing import Any

from textual.screen import Screen

from studio.engines.tilecode.model import Game
from studio.storage.tilecode.check import blocking_play, game_problems
from studio.widgets.document import Document


_SCREENS = {
    "home": ("home", "GameHomeScreen"),
    "code": ("selector", "RuleSelectorScreen"),
    "rule": ("rule_editor", "RuleEditorScreen"),
    "generalise": ("generalise", "GeneraliseScreen"),
    "map": ("map_editor", "MapEditorScreen"),
    "paint": ("paint_editor", "PaintEditorScreen"),
    "settings": ("settings", "SettingsScreen"),
    "play": ("play", "PlayScreen"),
}
"""What -> (module of this package, screen class). Named, not imported: the screens open each
other through here, and a screen's module is loaded when it is first opened."""


def make(what: str, document: Document[Game], **options: Any) -> Screen:
    """A new screen: home, code, rule, generalise, map, paint, settings or play."""
    try:
        module, name = _SCREENS[what]
    except KeyError:
        raise ValueError(f"no TileCode screen called {what!r}") from None
    screen_class = getattr(importlib.import_module(f"{__package__}.{module}"), name)
    if what == "home":
        return screen_class(document)
    return screen_class(document, **options)


def play_refusal(game: Game, problems: list | None = None) -> str | None:
    """Why ``game`` cannot be played yet (``problems``: its :func:`game_problems`, when known),
    or None when it can."""
    if not game.rules:
        return "Play needs at least one rule: open the rules (c) and write one."
    errors = [p for p in (game_problems(game) if problems is None else problems) if p.is_error]
    if errors:
        return f"{blocking_play(len(errors))}: {errors[0].message}"
    return None


def start_play(screen: Screen) -> None:
    """Open the play screen from ``screen``, or say plainly why the game cannot be played."""
    document = screen.document
    refusal = play_refusal(document.model)
    if refusal:
        screen.notify(refusal, severity="warning" if not document.model.rules else "error")
        return
    screen.app.push_screen(make("play", document))
