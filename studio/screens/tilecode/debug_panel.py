"""The play debugger's panel (tilecode.md §8.10 ``tab``): for the sprite under the inspection
cursor, the rules that fired on it last round, its command log and what resolution kept.

The engine works it out (``engines/tilecode/debug.py``); this only lays the lines out.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Header

from studio.engines.tilecode.debug import describe, sprite_report, sprites_at
from studio.engines.tilecode.events import Event
from studio.engines.tilecode.model import Game
from studio.engines.tilecode.state import State
from studio.widgets.board import Board
from studio.widgets.board_edges import MarkedBoard
from studio.widgets.canvas import UIStyles, ui_styles
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

PANEL_WIDTH = 36


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


def panel_lines(game: Game, before: State, after: State, events: Sequence[Event],
                tile: tuple[int, int], pick: int, styles: UIStyles,
                width: int = PANEL_WIDTH) -> list[Text]:
    """The panel's lines for the sprite number ``pick`` on ``tile`` (0 = topmost).

    The tile is read in the state *before* the round as well as after, so a sprite that moved
    away or was destroyed can still be inspected where it stood.
    """
    x, y = tile
    lines = [Text(f"round {after.round - 1} · tile ({x},{y})", styles.accent)]
    if 0 <= x < after.width and 0 <= y < after.height:
        lines.append(Text(f"background: {game.backgrounds[after.bg[y * after.width + x]].name}",
                          styles.muted))
    here = sprites_at(after, x, y)
    ids = [s.id for s in here]
    here += [s for s in sprites_at(before, x, y) if s.id not in ids]
    if not here:
        lines.append(Text("no sprite here; move the inspection cursor (shift+arrows or a click)",
                          styles.muted))
        return _wrapped(lines, width)
    if len(here) > 1:
        names = ", ".join(f"#{s.id} {game.sprites[s.kind].name}" for s in here)
        lines.append(Text(f"sprites: {names} (. next)", styles.muted))
    sprite = here[pick % len(here)]
    report = sprite_report(events, sprite.id, before, after)
    for line in describe(report, game):
        lines.append(Text(line, styles.text))
    if not events:
        lines.append(Text("(no events recorded for this round)", styles.muted))
    return _wrapped(lines, width)


def _wrapped(lines: list[Text], width: int) -> list[Text]:
    out: list[Text] = []
    for line in lines:
        for part in _wrap(line.plain, width):
            out.append(Text(part, line.style))
    return out


class DebugPanel(LinesView):
    """The panel itself: a scrolling list of lines beside the board."""

    DEFAULT_CSS = f"""
    DebugPanel {{
        width: {PANEL_WIDTH + 4};
        height: 1fr;
        max-height: 100%;
        border-left: tall $accent;
        padding: 0 1;
    }}
    """


INSPECT_BINDINGS = [
    Binding("tab", "debug", "Debug"),
    Binding("shift+left", "inspect(-1, 0)", "Inspect left", show=False),
    Binding("shift+right", "inspect(1, 0)", "Inspect right", show=False),
    Binding("shift+up", "inspect(0, -1)", "Inspect up", show=False),
    Binding("shift+down", "inspect(0, 1)", "Inspect down", show=False),
    Binding("full_stop", "next_sprite", "Next sprite here", show=False, key_display="."),
]
"""The keys of the debug panel; screens using :class:`Inspection` add them to BINDINGS."""


def player_position(game: Game, state: State) -> tuple[int, int] | None:
    """Where the camera looks: the lowest-id live sprite of the player kind (§6.11)."""
    for kind, x, y in zip(state.kinds, state.xs, state.ys):
        if kind == game.player_kind:
            return x, y
    return None


class Inspection:
    """The debug panel beside a board (play and the replay viewer).

    The screen provides :meth:`inspected` (the round to explain) and composes a :class:`Board`
    and a :class:`DebugPanel`; ``tab`` opens the panel with the inspection cursor on the player.
    """

    debug = False
    inspect: tuple[int, int] = (0, 0)
    pick = 0

    def compose_view(self, renderer) -> ComposeResult:
        """The layout both screens share: a status bar, the board, the (hidden) panel."""
        yield Header()
        yield LinesView(id="bar", classes="-bar", focusable=False)
        with Horizontal():
            board = MarkedBoard(renderer, cursor=None)
            board.can_focus = False
            yield board
            panel = DebugPanel(id="debug", focusable=False)
            panel.display = False
            yield panel
        yield KeysFooter()

    def inspected(self) -> tuple[Game, State, State, Sequence[Event]]:
        """The game, the states before and after the round shown, and its events."""
        raise NotImplementedError

    def inspection_closed(self) -> None:
        """The panel closed: let the camera follow the player again."""

    def draw_panel(self) -> None:
        game, before, after, events = self.inspected()
        lines = panel_lines(game, before, after, events, self.inspect, self.pick,
                            ui_styles(self.app))
        self.query_one(DebugPanel).set_lines(lines)

    def action_debug(self) -> None:
        self.debug = not self.debug
        self.query_one(DebugPanel).display = self.debug
        board = self.query_one(Board)
        if self.debug:
            game, _before, after, _events = self.inspected()
            self.inspect, self.pick = player_position(game, after) or (0, 0), 0
            board.set_cursor(self.inspect)
            self.draw_panel()
        else:
            board.set_cursor(None)
            self.inspection_closed()

    def action_inspect(self, dx: int, dy: int) -> None:
        if not self.debug:
            self.action_debug()
        _game, _before, after, _events = self.inspected()
        self._inspect_at(min(max(self.inspect[0] + dx, 0), after.width - 1),
                         min(max(self.inspect[1] + dy, 0), after.height - 1))

    def action_next_sprite(self) -> None:
        if self.debug:
            self.pick += 1
            self.draw_panel()

    def on_board_cell_clicked(self, message: Board.CellClicked) -> None:
        if not self.debug:
            self.action_debug()
        self._inspect_at(message.x, message.y)

    def _inspect_at(self, x: int, y: int) -> None:
        self.inspect, self.pick = (x, y), 0
        self.query_one(Board).set_cursor(self.inspect)
        self.draw_panel()
