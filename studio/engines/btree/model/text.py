"""Plain-text views of boards and choices, shared by the CLI and the screens.

A cell shows the tile of the first layer (in layer order) that has a visible tile there: neither
``.`` (void) nor hidden (``_…``) unless hidden tiles are shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from studio.engines.common.width import fit_text, text_width

Grid = Sequence[Sequence[str]]
BUTTON_GLYPHS = {"up": "↑", "down": "↓", "left": "←", "right": "→", "action1": "z", "action2": "x"}


def visible_tile(board: Mapping[str, Grid], row: int, col: int, show_hidden: bool = False) -> str:
    """The tile drawn at (row, col), or ``""`` for a blank cell."""
    for grid in board.values():
        tile = grid[row][col]
        if tile == "." or (tile.startswith("_") and not show_hidden):
            continue
        return tile
    return ""


def board_lines(
    board: Mapping[str, Grid] | None,
    show_hidden: bool = False,
    cell_width: int = 0,
    glyphs: Mapping[str, str] | None = None,
) -> list[str]:
    """The board as text, one string per row; cells padded to ``cell_width`` (0 = widest tile).

    ``glyphs`` maps tiles to what to draw instead (the project's ``[display] glyphs``).
    """
    if not board:
        return ["(no board)"]
    first = next(iter(board.values()))
    rows, cols = len(first), len(first[0]) if first else 0
    glyphs = glyphs or {}
    cells = [
        [glyphs.get(tile, tile) for tile in (visible_tile(board, r, c, show_hidden) for c in range(cols))]
        for r in range(rows)
    ]
    width = cell_width or max([text_width(t) for line in cells for t in line] + [1])
    return [
        " ".join(tile + " " * (width - text_width(tile)) for tile in line).rstrip()
        for line in cells
    ]


def pattern_text(pattern: Mapping[str, Grid]) -> str:
    """A pattern on one line: rows joined by ``; ``, several layers as ``-name-:…`` joined by ``&``."""
    parts = []
    for layer, grid in pattern.items():
        rows = "; ".join(" ".join(row) for row in grid)
        parts.append(rows if len(pattern) == 1 and layer == "main" else f"-{layer}-:{rows}")
    return " & ".join(parts)


def choice_text(choice: Mapping[str, Any]) -> str:
    """One line describing a choice: desc, button glyph, lhs → rhs, position."""
    desc = choice.get("desc") or "move"
    button = BUTTON_GLYPHS.get(choice.get("button") or "", "")
    where = f"@{choice['row']},{choice['col']}"
    arrow = f"{pattern_text(choice['lhs'])} → {pattern_text(choice['rhs'])}"
    return " ".join(part for part in (desc, f"[{button}]" if button else "", arrow, where) if part)


def _choice_parts(choice: Mapping[str, Any]) -> list[str]:
    button = BUTTON_GLYPHS.get(choice.get("button") or "", "")
    return [f"[{button}]" if button else "", f"@{choice['row']},{choice['col']}",
            choice.get("desc") or "move",
            f"{pattern_text(choice['lhs'])} → {pattern_text(choice['rhs'])}"]


def choice_lines(choices: Sequence[Mapping[str, Any]], width: int | None = None) -> list[str]:
    """The offered choices as numbered lines, each fitted to ``width`` cells (``…`` marks a cut).

    What tells the choices apart comes first: a part the same in every choice (the rewrite's
    patterns in a game where every move flips the same tiles) goes to the end, where a narrow
    pane cuts it, so sixteen lights-out moves do not read as sixteen identical lines.
    """
    parts = [_choice_parts(choice) for choice in choices]
    same = [len({p[i] for p in parts}) <= 1 for i in range(4)] if len(parts) > 1 else [False] * 4
    order = [i for i in range(4) if not same[i]] + [i for i in range(4) if same[i]]
    lines = []
    for number, part in enumerate(parts, 1):
        text = f"{number:>2} " + " ".join(part[i] for i in order if part[i])
        lines.append(text if width is None else fit_text(text, width))
    return lines


def result_text(result: Mapping[str, Any] | None) -> str:
    """The game-over sentence of the reference (§7.8)."""
    if result is None:
        return "Game not over"
    kind = result.get("result")
    if kind in ("win", "lose"):
        verb = "wins" if kind == "win" else "loses"
        if "player" in result and result["player"] is not None:
            return f"Game over, player {result['player']} {verb}!"
        return f"Game over, {'win' if kind == 'win' else 'lose'}!"
    if kind == "draw":
        return "Game over, draw"
    if kind == "stalemate":
        return "Game over, stalemate"
    if kind == "stepout":
        return "Game over, too many steps before move"
    return f"Game over, error: {result.get('message', '')}"
