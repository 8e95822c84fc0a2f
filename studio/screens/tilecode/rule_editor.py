"""Rule editor (tilecode.md §8.8): the When grid, witnesses, Do rows and their menus.

The menus offer only what §3.4 allows (``engines/tilecode/rule_edit.py`` decides); the screen
draws the rule, moves the cursor and records every change as one undoable edit.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.widgets import Header

from studio.engines.tilecode.model import CENTRE, SPRITE_CODES, Rule
from studio.engines.tilecode.rule_do import describe_command, verb_choices
from studio.engines.tilecode.rule_edit import (
    describe_tile, direction_choices, witness,
)
from studio.engines.tilecode.selector import add_like, delete_rule, neighbours, put_rule
from studio.engines.tilecode.views import all_views
from studio.screens.formatting import marked_lines
from studio.screens.dialogs import ConfirmDialog
from studio.screens.tilecode.base import TilecodeScreen
from studio.screens.tilecode.render import look_for
from studio.screens.tilecode.rule_cells import TOP, cell_grid, move
from studio.screens.tilecode.rule_menus import RuleMenus
from studio.screens.tilecode.rule_picture import (EXECUTION, ROW_NAMES, WIDE_CMD_W, WIDTH,
                                                   RulePicture, picture_width)
from studio.storage.tilecode.check import rule_problems
from studio.widgets.canvas import Canvas
from studio.widgets.footer import KeysFooter
from studio.widgets.gridnav import step
from studio.widgets.lines import LinesView
from studio.widgets.menu import Menu

TOP_CAPTIONS = {
    "code": "back to the rule selector", "map": "the map editor", "play": "play the game",
    "gen": "generalise: flips and rotations of this rule", "trash": "delete this rule",
    "prev": "previous rule of this sprite kind", "add": "a new rule of the same type and kind",
    "next": "next rule of this sprite kind",
}
GRID_TOP = 6
"""Canvas line of the When grid's top border."""


class RuleEditorScreen(TilecodeScreen):
    """Edit one rule; previous / add / next walk through the rules of one sprite kind."""

    HELP_ABOUT: ClassVar[str] = (
        "One rule. The When grid is the 3×3 neighbourhood of the centre sprite; the Do rows "
        "are its commands. On each tile a kind is include ✓ (one of these must be there), "
        "include′ ● (a second such set: one of these too) or exclude ⊘ (none of these); "
        "blank is don't care. A moving sprite does not stop at a wall by itself: a smash "
        "rule (the sprite about to move into the wall) with the command move stop does that.")

    SCREEN_TITLE = "rule"
    MIN_SIZE = (60, 24)
    """The menus open below the rule: at 20 rows one showed only its top border, keys live."""
    # The menu comes right under the rule (docked at the bottom it sat 20 lines below the grid
    # at 120x40), and the problems under it: they take what is left, so at 80x24 an open menu
    # pushes them down rather than going off the screen below them.
    DEFAULT_CSS = """
    RuleEditorScreen #rule { height: auto; padding: 0 1; }
    RuleEditorScreen Menu { margin: 0 1; }
    RuleEditorScreen #problems { height: 1fr; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,w", "move(0, -1)", "Up", show=False),
        Binding("down,s", "move(0, 1)", "Down", show=False),
        Binding("left,a", "move(-1, 0)", "Left", show=False),
        Binding("right,d", "move(1, 0)", "Right", show=False),
        Binding("enter,space,z", "activate", "Edit"),
        Binding("delete", "delete_command", "Delete command"),
        Binding("left_square_bracket", "top('prev')", "Previous", key_display="["),
        Binding("right_square_bracket", "top('next')", "Next", key_display="]"),
        Binding("plus", "top('add')", "Add rule", key_display="+"),
        Binding("g", "top('gen')", "Generalise"),
        Binding("p", "top('play')", "Play"),
        Binding("h", "toggle_help", "Numbers"),
        Binding("escape,x,backspace", "escape", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("top('gen')", "Generalise rule", "Flips and rotations of this rule"),
        ("top('trash')", "Delete rule", "Delete this rule (undoable)"),
        ("top('add')", "Add rule like this one", "Same type, direction and sprite kind"),
        ("top('play')", "Play", "Play the game"),
        ("toggle_help", "Toggle help numbers", "Number Do rows and tiles in execution order"),
    ]

    def __init__(self, document, rule_id: int, kind: int | None = None) -> None:
        super().__init__(document)
        self.rule_id = rule_id
        rule = self.game.rule(rule_id)
        if kind is None and rule is not None:
            kind = next((int(c[1]) for c in SPRITE_CODES if c in rule.centre.include), 0)
        self.kind = kind or 0
        self.cursor: tuple[int, int] = (2, 2)
        self.menus = RuleMenus(self)
        self._offered_delete = False
        """Whether the footer offers delete now (redrawn only when that changes: it is slow)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="rule", focusable=False)
        yield Menu(id="menu")
        # Below the menu: under the problems, at 80×24 a menu opened off the screen.
        yield LinesView(id="problems", focusable=False)
        yield KeysFooter()

    # ---------------------------------------------------------------------------- model

    @property
    def rule(self) -> Rule | None:
        return self.game.rule(self.rule_id)

    @property
    def cell(self) -> Hashable | None:
        rule = self.rule
        return None if rule is None else cell_grid(rule).get(self.cursor)

    def _on_command(self) -> bool:
        """Whether the cursor is on a command that is there (what delete removes)."""
        cell, rule = self.cell, self.rule
        if not (isinstance(cell, tuple) and cell and cell[0] == "cmd") or rule is None:
            return False
        record = rule.tile(cell[1], cell[2])
        return record is not None and cell[3] < len(record.do)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete_command":
            return self._on_command()  # offered on a command only
        return super().check_action(action, parameters)

    def change_rule(self, label: str, rule: Rule) -> None:
        """Record an edit of this rule."""
        self.edit(f"{label} (rule {rule.id})", put_rule(self.game, rule))

    # --------------------------------------------------------------------------- drawing

    def on_resize(self) -> None:
        self.refresh_view()  # 120 columns and more: wide command cells

    def refresh_view(self) -> None:
        rule = self.rule
        if rule is None:
            self.notify(f"Rule {self.rule_id} is gone (undone or deleted)", timeout=3)
            self.dismiss(None)
            return
        cells = cell_grid(rule)
        if self.cursor not in cells:
            self.cursor = step(cells, self.cursor, 0, -1) if self.cursor[1] else (2, 0)
            if self.cursor not in cells:
                self.cursor = (2, 2) if (2, 2) in cells else next(iter(cells))
        game = self.game
        styles = self.styles_ui
        look = look_for(game, styles)
        # Two columns short of the picture: room for the scroll bar of a long list.
        problems = [(p, marked_lines("✗" if p.is_error else "!", str(p), WIDTH - 2))
                    for p in rule_problems(rule)]
        # A wide terminal gets wide command cells that name the kinds they act on.
        cmd_width = WIDE_CMD_W if self.size.width >= picture_width(WIDE_CMD_W) + 2 else None
        canvas = Canvas(picture_width(cmd_width) if cmd_width else WIDTH, GRID_TOP + 10)
        self._info(canvas, rule, styles)
        self._top_row(canvas, rule, styles)
        self._draw_context(canvas, rule, styles)
        picture = RulePicture(rule, look, styles, help=game.help, cursor=self.cell)
        if cmd_width:
            picture.cmd_width = cmd_width
        picture.draw(canvas, GRID_TOP)
        self.query_one("#rule", LinesView).set_lines(canvas.strips(), canvas.hits)
        shown = [Text(line, styles.error if problem.is_error else styles.warning)
                 for problem, lines in problems for line in lines]
        self.query_one("#problems", LinesView).set_lines(
            [Text(""), *shown] if shown else [Text(""), Text("No problems.", styles.muted)])
        if self._on_command() != self._offered_delete:
            self._offered_delete = not self._offered_delete
            self.refresh_bindings()

    def _info(self, canvas: Canvas, rule: Rule, styles) -> None:
        kind = self.game.sprites[self.kind].name
        kinds = [r.id for r in _kind_rules(self.game, self.kind)]
        where = f"{kinds.index(rule.id) + 1} of {len(kinds)}" if rule.id in kinds else "-"
        views = all_views(rule)
        unique = sum(same is None for _v, same in views)
        what = rule.type + (f" {rule.button}" if rule.type == "press" else
                            f" {rule.centre.dir}" if rule.type in ("change", "smash") else "")
        text = (f"rule {rule.id} · {what} · {kind} rules {where} · {rule.transforms} "
                f"({unique} view{'s' if unique != 1 else ''})")
        canvas.put(0, 0, text, styles.text)

    def _top_row(self, canvas: Canvas, rule: Rule, styles) -> None:
        prev_id, next_id = neighbours(self.game, self.kind, rule.id)
        x = 0
        for i, (name, label) in enumerate(TOP):
            if name == "gen" and sum(same is None for _v, same in all_views(rule)) > 1:
                label = "gen•"  # derived views that differ from the rule (not all the same)
            style = styles.primary
            if (name == "prev" and prev_id is None) or (name == "next" and next_id is None):
                style = styles.muted
            if self.cursor == (i, 0):
                style = style + styles.cursor
            end = canvas.put(x, 1, f"[{label}]", style)
            canvas.hit(Region(x, 1, end - x, 1), ("top", name))
            x = end + (3 if name in ("play", "trash") else 1)

    def _draw_context(self, canvas: Canvas, rule: Rule, styles) -> None:
        cell = self.cell
        text, hint = "", ""
        if isinstance(cell, tuple) and cell:
            if cell[0] == "top":
                text, hint = TOP_CAPTIONS[cell[1]], "enter"
            elif cell[0] == "button":
                text, hint = f"press {rule.button}", "enter: choose the button"
            elif cell[0] == "tile":
                col, row = cell[1], cell[2]
                where = _tile_name(col, row)
                text = f"tile ({col},{row}) {where}: {describe_tile(rule, col, row, self.game)}"
                hint = "enter: attribute menu"
            elif cell[0] == "witness":
                col, row = cell[1], cell[2]
                kinds = witness(rule, col, row)
                names = ", ".join(self.game.sprites[int(c[1])].name for c in kinds or ())
                text = f"{ROW_NAMES[(col, row)]} row witness: {names or 'none (○)'}"
                hint = "enter: direction menu" if direction_choices(rule, col, row) else \
                    "include only sprite kinds on the tile to bind a witness"
            elif cell[0] == "cmd":
                col, row, index = cell[1:]
                record = rule.tile(col, row)
                commands = record.do if record is not None else ()
                if index < len(commands):
                    text = f"command {index + 1}: {describe_command(commands[index], self.game)}"
                    hint = "enter: change or delete · del: delete"
                else:
                    verbs = verb_choices(rule, col, row, index)
                    text = f"{ROW_NAMES[(col, row)]} row, slot {index + 1}: " + \
                        (", ".join(verbs) if verbs else "nothing can go here")
                    hint = "enter: add a command" if verbs else ""
        # Two lines: the description (wrapped once if long), then the hint where it fits.
        first, rest = _split(text, WIDTH)
        canvas.put(0, 3, first, styles.accent)
        if rest:
            end = canvas.put(0, 4, rest[:WIDTH], styles.accent)
            if end + 3 + len(hint) <= WIDTH:
                canvas.put(end + 3, 4, hint, styles.muted)
        else:
            canvas.put(0, 4, hint, styles.muted)

    # --------------------------------------------------------------------------- actions

    def action_move(self, dx: int, dy: int) -> None:
        rule = self.rule
        if rule is None:
            return
        self.cursor = move(rule, self.cursor, dx, dy)
        self.refresh_view()

    def action_activate(self) -> None:
        cell = self.cell
        if not isinstance(cell, tuple) or not cell:
            return
        if cell[0] == "top":
            self.action_top(cell[1])
        else:
            self.menus.open_for(cell)

    def action_escape(self) -> None:
        if self.cursor[1] == 0:
            self.dismiss(None)
        else:
            self.cursor = (2, 0)  # the play button: a fast edit-and-test cycle
            self.refresh_view()

    def action_toggle_help(self) -> None:
        from dataclasses import replace

        self.edit("help numbers " + ("off" if self.game.help else "on"),
                  replace(self.game, help=not self.game.help))

    def action_delete_command(self) -> None:
        cell = self.cell
        if isinstance(cell, tuple) and cell and cell[0] == "cmd":
            self.menus.delete_command(*cell[1:])

    def action_top(self, name: str) -> None:
        from studio.screens.tilecode import screens

        rule = self.rule
        if rule is None:
            return
        if name == "code":
            self.dismiss(None)
        elif name in ("prev", "next"):
            prev_id, next_id = neighbours(self.game, self.kind, rule.id)
            target = prev_id if name == "prev" else next_id
            if target is not None:
                self.rule_id = target
                self.refresh_view()
        elif name == "add":
            game, new = add_like(self.game, rule, self.kind)
            self.edit(f"new {new.type} rule {new.id}", game)
            self.rule_id = new.id
            self.refresh_view()
        elif name == "trash":
            self._confirm_delete()
        elif name == "gen":
            self.app.push_screen(screens.make("generalise", self.document, rule_id=rule.id))
        elif name == "map":
            self.app.push_screen(screens.make("map", self.document))
        elif name == "play":
            screens.start_play(self)

    @work(exclusive=True, group="dialog")
    async def _confirm_delete(self) -> None:
        rule = self.rule
        if rule is None:
            return
        yes = await self.app.push_screen_wait(
            ConfirmDialog("Delete rule", f"OK to delete rule {rule.id}? (ctrl+z brings it back)",
                          yes="Delete"))
        if not yes or self.rule is None:
            return
        prev_id, next_id = neighbours(self.game, self.kind, rule.id)
        target = next_id if next_id is not None else prev_id
        if target is not None:
            self.rule_id = target
        else:
            # The kind's last rule: back where the editor was opened from, before the edit (an
            # editor still on top would leave as its rule went, and then this once more).
            self.dismiss(None)
            self.notify(f"Rule {rule.id} deleted (ctrl+z brings it back)", timeout=3)
        self.edit(f"delete rule {rule.id}", delete_rule(self.game, rule.id))

    @on(LinesView.Clicked)
    def _clicked(self, message: LinesView.Clicked) -> None:
        rule = self.rule
        if rule is None:
            return
        for position, key in cell_grid(rule).items():
            if key == message.key:
                self.cursor = position
                self.action_activate()
                return

    @on(Menu.Chosen)
    def _menu_chosen(self, message: Menu.Chosen) -> None:
        self.menus.chosen(message.key)

    @on(Menu.Closed)
    def _menu_closed(self, message: Menu.Closed) -> None:
        self.menus.closed()

    @on(Menu.Highlighted)
    def _menu_highlighted(self, message: Menu.Highlighted) -> None:
        self.menus.highlighted(message.key)


def _split(text: str, width: int) -> tuple[str, str]:
    """Cut ``text`` at the last space that keeps the first part within ``width``."""
    if len(text) <= width:
        return text, ""
    cut = text.rfind(" ", 0, width + 1)
    cut = width if cut <= 0 else cut
    return text[:cut], text[cut:].strip()


def _kind_rules(game, kind: int) -> list[Rule]:
    from studio.engines.tilecode.selector import rules_for_kind

    return rules_for_kind(game, kind)


def _tile_name(col: int, row: int) -> str:
    if (col, row) == CENTRE:
        return "centre"
    name = ROW_NAMES.get((col, row))
    if name:
        return f"{name} of centre"
    return {(1, 1): "up-left", (3, 1): "up-right", (1, 3): "down-left",
            (3, 3): "down-right"}[(col, row)] + " corner"


__all__ = ["EXECUTION", "RuleEditorScreen", "cell_grid"]
