"""Rule selector (tilecode.md §8.7): a sprite kind's press, change, smash and never rules."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.widgets import Header

from studio.engines.tilecode.model import SPRITE_CODES
from studio.engines.tilecode.selector import (
    QUADRANTS,
    SELECTOR_CELLS,
    SelectorCell,
    counts,
    grid_position,
    new_rule,
    rules_at,
    rules_for_kind,
    step,
)
from studio.screens.formatting import counted
from studio.screens.tilecode.base import TilecodeScreen
from studio.screens.tilecode.render import look_for
from studio.widgets.canvas import Canvas
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

CELL = 9
"""Columns per selector cell."""
KINDS_WIDTH = 16
QUADRANT_X = {"change": KINDS_WIDTH, "press": KINDS_WIDTH + 3 * CELL + 5,
              "smash": KINDS_WIDTH, "misc": KINDS_WIDTH + 3 * CELL + 5}
QUADRANT_Y = {"change": 0, "press": 0, "smash": 5, "misc": 5}
TITLES = {"change": "change (neighbourhood changed)", "press": "press (button)",
          "smash": "smash (about to collide)", "misc": "misc"}


class RuleSelectorScreen(TilecodeScreen):
    """Choose a sprite kind, then a rule type and direction; ``enter`` opens or creates a rule."""

    SCREEN_TITLE = "rules"
    DEFAULT_CSS = """
    RuleSelectorScreen LinesView { height: 1fr; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "kind(0)", "Kind 1", show=False),
        Binding("2", "kind(1)", "Kind 2", show=False),
        Binding("3", "kind(2)", "Kind 3", show=False),
        Binding("4", "kind(3)", "Kind 4", show=False),
        Binding("up,w", "move(0, -1)", "Up", show=False),
        Binding("down,s", "move(0, 1)", "Down", show=False),
        Binding("left,a", "move(-1, 0)", "Left", show=False),
        Binding("right,d", "move(1, 0)", "Right", show=False),
        Binding("enter,space,z", "open", "Open / new rule"),
        Binding("n", "new", "New rule here"),
        Binding("escape,x,backspace", "back", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("new", "New rule here", "Create a rule of the selected type and direction"),
    ]

    def __init__(self, document, kind: int = 0) -> None:
        super().__init__(document)
        self.kind = kind
        self.cursor: tuple[int, int] = (2, 1)  # the change quadrant's "any" cell
        self._positions = {grid_position(c): c for c in SELECTOR_CELLS}

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="selector", focusable=False)
        yield KeysFooter()

    @property
    def cell(self) -> SelectorCell | None:
        return self._positions.get(self.cursor)

    # ---------------------------------------------------------------------------- drawing

    def refresh_view(self) -> None:
        game = self.game
        styles = self.styles_ui
        look = look_for(game, styles)
        tally = counts(game, self.kind)
        canvas = Canvas(KINDS_WIDTH + 6 * CELL + 9, 13)
        canvas.put(0, 0, "Sprite kinds", styles.accent)
        for k, code in enumerate(SPRITE_CODES):
            glyph, style = look.code_glyph(code)
            marker = "▶" if k == self.kind else " "
            line = Style(bold=True) if k == self.kind else styles.text
            if self.cursor == (0, k):
                line = line + styles.cursor
            x = canvas.put(0, 1 + k, f"{marker}{k + 1} ", line)
            x = canvas.put(x, 1 + k, glyph, style)
            canvas.put(x + 1, 1 + k, game.sprites[k].name[:KINDS_WIDTH - 6], line)
            canvas.hit(Region(0, 1 + k, KINDS_WIDTH - 1, 1), ("kind", k))
        for quadrant in QUADRANTS:
            canvas.put(QUADRANT_X[quadrant], QUADRANT_Y[quadrant], TITLES[quadrant], styles.accent)
        sprite_glyph, sprite_style = look.code_glyph(SPRITE_CODES[self.kind])
        smash_x = QUADRANT_X["smash"] + CELL + 3
        canvas.put(smash_x, QUADRANT_Y["smash"] + 2, sprite_glyph, sprite_style)
        for position, cell in self._positions.items():
            count = tally.get((cell.rule_type, cell.key), 0)
            self._draw_cell(canvas, styles, cell, position, count)
        view = self.query_one("#selector", LinesView)
        left = self._scroll_for_cursor(view, canvas.width)
        self._draw_caption(canvas, styles, tally, left)
        view.set_lines(canvas.strips(), canvas.hits)
        view.scroll_to(x=left, animate=False, immediate=True)

    def _cursor_span(self) -> tuple[int, int]:
        cell = self.cell
        if cell is None:
            return 0, KINDS_WIDTH
        x = QUADRANT_X[cell.quadrant] + cell.col * (CELL + 1)
        return x, x + CELL

    def _scroll_for_cursor(self, view: LinesView, width: int) -> int:
        """The first column to show: under 80 columns the picture is wider than the pane, and
        the cursor went on into the press and misc cells out of sight (keys acted blind)."""
        visible = view.scrollable_content_region.width
        if visible <= 0 or width <= visible:
            return 0
        start, end = self._cursor_span()
        left = int(view.scroll_offset.x)
        left = max(left, end - visible)
        left = min(left, start)
        return max(0, min(left, width - visible))

    def _draw_cell(self, canvas: Canvas, styles, cell: SelectorCell, position: tuple[int, int],
                   count: int) -> None:
        x = QUADRANT_X[cell.quadrant] + cell.col * (CELL + 1)
        y = QUADRANT_Y[cell.quadrant] + 1 + cell.row
        text = cell.label if not count else f"{cell.label} {count}"
        pad = max(CELL - 2 - cell_len(text), 0)
        body = " " * (pad // 2) + text + " " * (pad - pad // 2)
        style = (styles.filled + Style(bold=True)) if count else styles.text
        bracket = styles.primary if count else styles.muted
        if self.cursor == position:
            style, bracket = style + styles.cursor, bracket + styles.cursor
        canvas.put(x, y, "[", bracket)
        canvas.put(x + 1, y, body[:CELL - 2], style)
        canvas.put(x + CELL - 1, y, "]", bracket)
        canvas.hit(Region(x, y, CELL, 1), ("cell", position))

    def _draw_caption(self, canvas: Canvas, styles, tally, left: int) -> None:
        """The lines under the cells, from column ``left`` so that they scroll with the view."""
        name = self.game.sprites[self.kind].name
        cell = self.cell
        if cell is None:  # on the kinds
            total = len(rules_for_kind(self.game, self.kind))
            canvas.put(left, 10, f"{name}: {counted(total, 'rule')}", styles.muted)
            canvas.put(left, 11, "1-4 or enter on a kind chooses it; arrows reach the rule cells",
                       styles.muted)
            return
        count = tally.get((cell.rule_type, cell.key), 0)
        what = f"{cell.rule_type} · {cell.caption}"
        action = "enter opens the first, n adds one" if count else "enter creates one"
        rules_here = counted(count, "rule") if count else "no rules yet"
        canvas.put(left, 10, f"{name} — {what}: {rules_here}; {action}.", styles.text)
        rules = rules_at(self.game, self.kind, cell.rule_type, cell.key)
        if rules:
            ids = ", ".join(str(r.id) for r in rules[:12])
            canvas.put(left, 11, f"rule ids: {ids}", styles.muted)

    # ---------------------------------------------------------------------------- actions

    def action_move(self, dx: int, dy: int) -> None:
        self.cursor = step(self.cursor, dx, dy)
        self.refresh_view()

    def action_kind(self, kind: int) -> None:
        self.kind = kind
        self.refresh_view()

    def action_open(self) -> None:
        if self.cursor[0] == 0:
            self.action_kind(self.cursor[1])
            return
        cell = self.cell
        if cell is None:
            return
        rules = rules_at(self.game, self.kind, cell.rule_type, cell.key)
        if rules:
            self._open_editor(rules[0].id)
        else:
            self.action_new()

    def action_new(self) -> None:
        cell = self.cell
        if cell is None:
            return
        game, rule = new_rule(self.game, self.kind, cell.rule_type, cell.key)
        self.edit(f"new {cell.rule_type} rule {rule.id}", game)
        self._open_editor(rule.id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new":
            return self.cell is not None
        return super().check_action(action, parameters)

    def _open_editor(self, rule_id: int) -> None:
        from studio.screens.tilecode import screens

        self.app.push_screen(screens.make("rule", self.document, rule_id=rule_id, kind=self.kind))

    @on(LinesView.Resized)
    def _resized(self) -> None:
        self.refresh_view()  # the cursor kept in view, the caption under it

    @on(LinesView.Clicked)
    def _clicked(self, message: LinesView.Clicked) -> None:
        what, value = message.key
        if what == "kind":
            self.cursor = (0, value)
            self.action_kind(value)
        else:
            self.cursor = value
            self.action_open()
