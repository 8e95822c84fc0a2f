"""Which Haunted Tiles screen opens for what, in one place (imported lazily, so opening a project
loads only the screens that are used)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from textual.screen import Screen

from studio.widgets.document import Document

_SCREENS = {
    "hub": ("studio.screens.haunted.hub", "HubScreen"),
    "rules": ("studio.screens.haunted.rules", "RulesScreen"),
    "setup": ("studio.screens.haunted.setup", "MatchSetupScreen"),
    "match": ("studio.screens.haunted.match_view", "MatchViewScreen"),
    "replays": ("studio.screens.haunted.replay_browser", "ReplayBrowserScreen"),
    "replay": ("studio.screens.haunted.replay_viewer", "ReplayViewerScreen"),
    "maps": ("studio.screens.haunted.map_editor", "MapEditorScreen"),
    "teams": ("studio.screens.haunted.teams", "TeamsScreen"),
    "ai": ("studio.screens.haunted.ai_editor", "AIEditorScreen"),
    "tournament": ("studio.screens.haunted.tournament", "TournamentScreen"),
    "watch": ("studio.screens.haunted.spectator", "SpectatorScreen"),
    "ladder": ("studio.screens.haunted.ladder", "LadderScreen"),
}
"""Screen name -> (module, class); every class takes the document first, then options."""


def make(what: str, document: Document, **options: Any) -> Screen:
    """A new Haunted Tiles screen by name (see :data:`_SCREENS`)."""
    try:
        module, name = _SCREENS[what]
    except KeyError:
        raise ValueError(f"no Haunted Tiles screen called {what!r}") from None
    return getattr(import_module(module), name)(document, **options)
