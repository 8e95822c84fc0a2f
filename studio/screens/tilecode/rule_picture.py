"""Drawing a rule as the original did (tilecode.md §8.8): the 3×3 When grid, the witness column
and the Do rows, numbered so the When ↔ Do correspondence is visible.

Kept apart from the editor screen because the generalise screen draws derived views the same way.
Cursor keys are positions on the editor's logical grid:

- ``("tile", col, row)``: a When tile; ``("button",)``: the press button (left of the grid);
- ``("witness", col, row)``: a Do row's witness; ``("cmd", col, row, index)``: a command slot.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from textual.geometry import Region

from studio.engines.tilecode.model import CENTRE, DIRECTIONS, KIND_CODES, Command, Rule
from studio.engines.tilecode.rule_do import do_rows, row_errors
from studio.engines.tilecode.rule_edit import DISPLAY_ROWS, collide_tile, editable_tiles, witness
from studio.screens.tilecode.render import ARROWS, TileLook
from studio.widgets.canvas import Canvas, UIStyles

TILE_W, TILE_H = 7, 2
GRID_X = 6
"""Column of the When grid's left edge (the press button sits left of it)."""
DO_X = GRID_X + 3 * (TILE_W + 1) + 3
WITNESS_X = DO_X + 3
CMD_X = WITNESS_X + 7
"""A column of space between the witness and the first command (they read as one word)."""
CMD_W = 8
WIDE_CMD_W = 16
"""From 120 columns a command cell names the kind it acts on as well as showing its glyph
(at 80 columns, "portal██" was all there was room for)."""
WIDTH = CMD_X + 4 * (CMD_W + 1) - 1


def picture_width(cmd_width: int = CMD_W) -> int:
    """Columns of the rule picture with command cells ``cmd_width`` wide."""
    return CMD_X + 4 * (cmd_width + 1) - 1
HEIGHT = 1 + 3 * (TILE_H + 1)
EXECUTION = {position: number for number, position in enumerate(DISPLAY_ROWS, start=1)}
"""Do rows run left, up, centre, down, right (§6.10), listed so: the help numbers count down."""
ROW_NAMES = {(2, 1): "up", (1, 2): "left", (2, 2): "centre", (3, 2): "right", (2, 3): "down"}
BADGE = {"include": "✓", "include2": "●", "exclude": "⊘"}
VERB_SHORT = {"destroy": "destroy", "portal": "portal", "create": "create", "paint": "paint",
              "block": "block"}


def tile_region(col: int, row: int, top: int) -> Region:
    """The inside of a When tile on the canvas (``top`` = the grid's first line)."""
    return Region(GRID_X + 1 + (col - 1) * (TILE_W + 1), top + 1 + (row - 1) * (TILE_H + 1),
                  TILE_W, TILE_H)


def do_line(position: tuple[int, int], top: int) -> int:
    """The canvas line of a Do row."""
    return top + 1 + 2 * DISPLAY_ROWS.index(position)


def command_label(command: Command, look: TileLook,
                  width: int = CMD_W) -> list[tuple[str, Style | None]]:
    """A command as at most ``width`` cells: verb words plus the argument's glyph, and where
    there is room, the argument's kind by name."""
    if command.verb == "move":
        return [("stop ■" if command.arg == "stop" else f"move {ARROWS[command.arg]}", None)]
    if command.verb == "game":
        return [({"win": "win ★", "lose": "lose ✗", "score": "+10"}[command.arg], None)]
    if command.verb == "destroy":
        return [("destroy", None)]
    glyph, style = look.code_glyph(command.arg)
    verb = VERB_SHORT[command.verb]
    space = " "
    if cell_len(verb) + 1 + cell_len(glyph) > width:
        space = ""  # "portal██" reads; "porta ██" read as a typo
        verb = verb[:width - cell_len(glyph)]
    label = [(verb + space, None), (glyph, style)]
    room = width - cell_len(verb + space + glyph) - 1
    name = look.code_name(command.arg)
    if name and room >= 3:
        label.append((" " + (name if cell_len(name) <= room else name[:room - 1] + "…"), None))
    return label


@dataclass
class RulePicture:
    """Draws one rule (or view) on a canvas at line ``top``.

    Args:
        rule: what to draw (a base rule, or a derived view turned into a rule).
        look: the game's kinds in the terminal.
        styles: the theme.
        help: number the Do rows and their tiles (1–5, execution order).
        cursor: the highlighted cell key, if any.
        editable: mark tiles that cannot be edited (smash rules) as such.
    """

    rule: Rule
    look: TileLook
    styles: UIStyles
    help: bool = True
    cursor: Hashable | None = None
    editable: bool = True
    cmd_width: int = CMD_W
    """Columns of a command cell (:data:`WIDE_CMD_W` on a wide terminal)."""

    def linked(self) -> tuple[int, int] | None:
        """The When tile and Do row that the cursor's cell corresponds to."""
        key = self.cursor
        if isinstance(key, tuple) and key and key[0] in ("tile", "witness", "cmd"):
            position = (key[1], key[2])
            if position in DISPLAY_ROWS:
                return position
        return None

    def draw(self, canvas: Canvas, top: int) -> None:
        styles = self.styles
        canvas.put(GRID_X, top - 1, "When", styles.accent)
        canvas.put(DO_X, top - 1, "Do", styles.accent)
        canvas.put(WITNESS_X, top - 1, "who", styles.muted)
        for i in range(4):
            canvas.put(CMD_X + i * (self.cmd_width + 1), top - 1, f"cmd {i + 1}", styles.muted)
        self._grid_lines(canvas, top)
        for row in (1, 2, 3):
            for col in (1, 2, 3):
                self._tile(canvas, top, col, row)
        self._type_overlay(canvas, top)
        for position in DISPLAY_ROWS:
            self._do_row(canvas, top, position)

    def _grid_lines(self, canvas: Canvas, top: int) -> None:
        style = self.styles.muted
        width = 3 * (TILE_W + 1) + 1
        for i in range(4):
            y = top + i * (TILE_H + 1)
            left, mid, right = ("┌", "┬", "┐") if i == 0 else ("└", "┴", "┘") if i == 3 else \
                ("├", "┼", "┤")
            line = left + mid.join("─" * TILE_W for _ in range(3)) + right
            canvas.put(GRID_X, y, line, style)
        for i in range(4):
            x = GRID_X + i * (TILE_W + 1)
            for row in range(3):
                for dy in range(TILE_H):
                    canvas.put(x, top + 1 + row * (TILE_H + 1) + dy, "│", style)
        del width

    def _tile(self, canvas: Canvas, top: int, col: int, row: int) -> None:
        styles = self.styles
        region = tile_region(col, row, top)
        rule = self.rule
        if (col, row) not in editable_tiles(rule):
            canvas.put(region.x + 3, region.y, "·", styles.muted)
            return
        record = rule.tile(col, row)
        items: list[tuple[str, Style]] = []
        if record is not None:
            for attribute in ("include", "include2", "exclude"):
                for code in KIND_CODES:
                    if code in getattr(record, attribute):
                        glyph, style = self.look.code_glyph(code)
                        items.append((glyph, style))
                        items.append((BADGE[attribute], _badge_style(attribute, styles)))
        base = Style()
        if self.linked() == (col, row):
            base = styles.filled
        if self.cursor == ("tile", col, row):
            base = styles.cursor
        canvas.fill(region, base)
        x, y = region.x, region.y
        if self.help and (col, row) in EXECUTION and (col, row) in do_rows(rule):
            canvas.put(x, y, str(EXECUTION[(col, row)]), styles.muted + base)
        x += 1
        for glyph, style in items:
            width = cell_len(glyph)
            if x + width > region.right:
                if y == region.y:
                    x, y = region.x, y + 1
                else:
                    break
            canvas.put(x, y, glyph, style + base)
            x += width
        direction = record.dir if record is not None else "any"
        if direction != "any" and ((col, row) == CENTRE or witness(rule, col, row)):
            canvas.put(region.right - 1, region.bottom - 1, ARROWS[direction],
                       styles.accent + base)
        if rule.type == "smash" and (col, row) == collide_tile(rule):
            canvas.put(region.right - 1, region.y, "●", styles.error + base)

    def _type_overlay(self, canvas: Canvas, top: int) -> None:
        styles = self.styles
        rule = self.rule
        y = top + 1 + (TILE_H + 1)
        if rule.type == "press":
            label = "A" if rule.button == "A" else ARROWS.get(rule.button or "", "?")
            style = styles.primary + (styles.cursor if self.cursor == ("button",) else Style())
            canvas.put(0, y, f"[{label}]", style)
            canvas.put(0, y + 1, "press", styles.muted)
            canvas.hit(Region(0, y, 4, 2), ("button",))
        elif rule.type == "smash":
            canvas.put(0, y, "smash", styles.error)
            canvas.put(0, y + 1, ARROWS.get(rule.centre.dir, "?"), styles.error)
        elif rule.type == "never":
            canvas.put(0, y, "never", styles.error)
            canvas.put(0, y + 1, "⊘", styles.error)
        else:
            canvas.put(0, y, "change", styles.primary)
            canvas.put(0, y + 1, ARROWS.get(rule.centre.dir, "?"), styles.primary)

    def _do_row(self, canvas: Canvas, top: int, position: tuple[int, int]) -> None:
        styles = self.styles
        rule = self.rule
        y = do_line(position, top)
        shown = position in do_rows(rule)
        linked = self.linked() == position
        label_style = (styles.filled if linked else Style()) + (styles.text if shown else
                                                                styles.muted)
        number = str(EXECUTION[position]) if self.help else " "
        canvas.put(DO_X, y, f"{number}{ARROWS[ROW_NAMES[position]] if position != CENTRE else '●'}",
                   label_style)
        if not shown:
            return
        self._witness(canvas, y, position)
        record = rule.tile(*position)
        commands = record.do if record is not None else ()
        bad = set(row_errors(rule, *position))
        for index in range(min(len(commands) + 1, 4)):
            x = CMD_X + index * (self.cmd_width + 1)
            key = ("cmd", *position, index)
            base = styles.cursor if self.cursor == key else Style()
            if index < len(commands):
                frame = (styles.error if index in bad else styles.panel) + base
                canvas.fill(Region(x, y, self.cmd_width, 1), frame)
                cx = x
                for text, style in command_label(commands[index], self.look, self.cmd_width):
                    cx = canvas.put(cx, y, text, (style or Style()) + frame)
            else:
                canvas.put(x, y, "+ add   " if base else "+       ", styles.muted + base)
            canvas.hit(Region(x, y, self.cmd_width, 1), key)

    def _witness(self, canvas: Canvas, y: int, position: tuple[int, int]) -> None:
        styles = self.styles
        rule = self.rule
        key = ("witness", *position)
        base = styles.cursor if self.cursor == key else Style()
        kinds = witness(rule, *position)
        canvas.put(WITNESS_X, y, "[    ]", styles.muted + base)
        if not kinds:
            canvas.put(WITNESS_X + 2, y, "○", styles.muted + base)
        else:
            x = WITNESS_X + 1
            for code in kinds[:2]:
                glyph, style = self.look.code_glyph(code)
                x = canvas.put(x, y, glyph, style + base)
            record = rule.tile(*position)
            direction = record.dir if record is not None else "any"
            if rule.type == "smash" and position == CENTRE:
                direction = rule.centre.dir
            canvas.put(WITNESS_X + 4, y, ARROWS.get(direction, "*"), styles.accent + base)
        canvas.hit(Region(WITNESS_X, y, 6, 1), key)


def _badge_style(attribute: str, styles: UIStyles) -> Style:
    return {"include": styles.success, "include2": styles.warning, "exclude": styles.error}[
        attribute]


def tile_hits(canvas: Canvas, top: int) -> None:
    """Register every When tile (and nothing else) as clickable."""
    for row in (1, 2, 3):
        for col in (1, 2, 3):
            canvas.hit(tile_region(col, row, top), ("tile", col, row))


def directions_text() -> str:
    return " ".join(f"{ARROWS[d]} {d}" for d in DIRECTIONS)
