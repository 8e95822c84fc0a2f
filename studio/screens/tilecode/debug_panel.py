"""The play debugger's panel (tilecode.md §8.10 ``tab``): for the sprite under the inspection
cursor, the rules that fired on it last round, its command log and what resolution kept.

The engine works it out (``engines/tilecode/debug.py``); this only lays the lines out.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from studio.engines.tilecode.debug import describe, sprite_report, sprites_at
from studio.engines.tilecode.events import Event
from studio.engines.tilecode.model import Game
from studio.engines.tilecode.state import State
from studio.widgets.canvas import UIStyles
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
