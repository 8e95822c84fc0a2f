"""Which TileCode screen opens for what, in one place (screens import it lazily, so opening a
project loads only the screens that are used)."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from studio.engines.tilecode.model import Game
from studio.storage.tilecode_check import blocking_play, game_problems
from studio.widgets.document import Document


def make(what: str, document: Document[Game], **options: Any) -> Screen:
    """A new screen: home, code, rule, generalise, map, paint, settings or play."""
    if what == "home":
        from studio.screens.tilecode.home import GameHomeScreen

        return GameHomeScreen(document)
    if what == "code":
        from studio.screens.tilecode.selector import RuleSelectorScreen

        return RuleSelectorScreen(document, **options)
    if what == "rule":
        from studio.screens.tilecode.rule_editor import RuleEditorScreen

        return RuleEditorScreen(document, **options)
    if what == "generalise":
        from studio.screens.tilecode.generalise import GeneraliseScreen

        return GeneraliseScreen(document, **options)
    if what == "map":
        from studio.screens.tilecode.map_editor import MapEditorScreen

        return MapEditorScreen(document, **options)
    if what == "paint":
        from studio.screens.tilecode.paint_editor import PaintEditorScreen

        return PaintEditorScreen(document, **options)
    if what == "settings":
        from studio.screens.tilecode.settings import SettingsScreen

        return SettingsScreen(document, **options)
    if what == "play":
        from studio.screens.tilecode.play import PlayScreen

        return PlayScreen(document, **options)
    raise ValueError(f"no TileCode screen called {what!r}")


def start_play(screen: Screen) -> None:
    """Open the play screen from ``screen``, or say plainly why the game cannot be played."""
    document = screen.document
    game = document.model
    if not game.rules:
        screen.notify("Play needs at least one rule: open the rules (c) and write one.",
                      severity="warning")
        return
    errors = [p for p in game_problems(game) if p.is_error]
    if errors:
        screen.notify(f"{blocking_play(len(errors))}: {errors[0].message}", severity="error")
        return
    screen.app.push_screen(make("play", document))
