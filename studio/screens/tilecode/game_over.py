"""The end of a play run: "You won!" or "Game over", the score and a new high score."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, Static

from studio.widgets.dialogs import Dialog

KEYS = {"r": "restart", "R": "new", "s": "save", "ctrl+s": "save", "tab": "debug",
        "enter": "leave", "escape": "leave"}
"""The dialog's keys; any other does nothing (the game's own keys may still be held from
playing, and a stray key must not throw the run away unsaved)."""
FOOTER = (("r", "restart", "Restart"), ("R", "new", "New seed"), ("s", "save", "Save replay"),
          ("tab", "debug", "Debug"), ("enter", "leave", "Leave"))
"""The keys as the footer shows them (the dialog reads them from :data:`KEYS` itself)."""


class GameOverDialog(Dialog[str]):
    """Returns restart, new (seed), save (the replay, also ``ctrl+s`` as in play), debug, or
    leave (``enter``, ``escape``): every key is written on it."""

    DEFAULT_CSS = """
    GameOverDialog > Vertical { width: 44; }
    GameOverDialog .won { color: $text-success; text-style: bold; }
    GameOverDialog .lost { color: $text-error; text-style: bold; }
    GameOverDialog .keys { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, status: str, score: int, new_high: bool) -> None:
        super().__init__()
        for key, choice, description in FOOTER:  # shown only: on_key takes every key first
            self._bindings.bind(key, f"choose({choice!r})", description)
        self.status = status
        self.score = score
        self.new_high = new_high

    def compose(self) -> ComposeResult:
        with Vertical():
            won = self.status == "won"
            yield Label("You won!" if won else "Game over", classes="won" if won else "lost")
            yield Static(f"Score: {self.score}")
            if self.new_high:
                yield Static(f"New high score: {self.score}", classes="won")
            yield Static("r restart · R new seed · s save replay · tab debug\n"
                         "enter or escape leaves", classes="keys")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        choice = KEYS.get(event.key)
        if choice is not None:
            self.dismiss(choice)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
