"""The end of a play run: "You won!" or "Game over", the score and a new high score."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, Static

from studio.widgets.dialogs import Dialog

KEYS = {"r": "restart", "R": "new", "s": "save", "tab": "debug"}
GAME_KEYS = {"left", "right", "up", "down", "w", "a", "s", "d", "space", "z"} - set(KEYS)
"""Keys still held from playing when the game ends: they must not skip the result."""


class GameOverDialog(Dialog[str]):
    """Returns restart, new (seed), save (the replay), debug, or leave for any other key
    except the game's own keys (d-pad, A), which a player may still be pressing."""

    DEFAULT_CSS = """
    GameOverDialog > Vertical { width: 44; }
    GameOverDialog .won { color: $text-success; text-style: bold; }
    GameOverDialog .lost { color: $text-error; text-style: bold; }
    GameOverDialog .keys { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, status: str, score: int, new_high: bool) -> None:
        super().__init__()
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
        if event.key in GAME_KEYS:
            return
        self.dismiss(KEYS.get(event.key if event.key == "tab" else event.character or "",
                              "leave"))
