"""Opening the behaviour-tree screens from one another."""

from __future__ import annotations

from textual.screen import Screen

from studio.engines.btree import BtreeError
from studio.storage.btree.project import compile_model


def start_play(screen: Screen, debug: bool = False) -> None:
    """Open play (or the debugger on a fresh run), or say why the game cannot run."""
    from studio.screens.btree.play import BtreePlayScreen

    compiled = compile_model(screen.document.model)
    if isinstance(compiled, BtreeError):
        screen.notify(f"The game does not compile: {compiled}", severity="error", timeout=6)
        return
    play = BtreePlayScreen(screen.document, debug=debug)
    screen.app.push_screen(play)
