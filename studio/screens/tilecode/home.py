"""Game home (tilecode.md §8.2): map, paint, code, play and settings; the 8 kinds; problems."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.widgets import Header

from studio.engines.tilecode.art_edit import art_blocks
from studio.engines.tilecode.model import BACKGROUND_CODES, RULE_TYPES, SPRITE_CODES
from studio.screens.formatting import counted, fit, marked_lines
from studio.screens.tilecode.base import TilecodeScreen
from studio.screens.tilecode.screens import play_refusal
from studio.screens.tilecode.render import TileLook, half_blocks, look_for
from studio.storage.tilecode.check import (Problem, blocking_play, game_problems,
                                           missing_player)
from studio.widgets.canvas import Canvas, UIStyles
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView
from studio.widgets.save import SavePath

BUTTONS = (("map", "m", "Map"), ("paint", "p", "Paint"), ("code", "c", "Code"),
           ("play", "g", "Play"), ("settings", ",", "Settings"))
BLOCK = 18
NARROW_BLOCK = 14
"""A kind's columns below 74 (art 8, its label after it): four of 18 ran past a 60-column
screen's edge with the last kind cut unmarked; at 14 they fit, names cut with "…"."""
"""Columns per kind in the gallery rows."""


def draw_art(canvas: Canvas, x: int, y: int, look: TileLook, art: tuple[str, ...] | None,
             flat: int, background: bool) -> None:
    """A kind's 16×16 art as 8 columns × 4 lines of half-blocks (2×2 pixels per colour).

    ``flat`` is the pixel index drawn when the kind has no art (see ``TileLook.pixel_colour``).
    """
    if art is None:
        canvas.fill(Region(x, y, 8, 4), Style(bgcolor=look.pixel_colour(flat)))
        return
    for line, cells in enumerate(half_blocks(art_blocks(art, 8), look, not background)):
        for col, (char, style) in enumerate(cells):
            canvas.put(x + col, y + line, char, style)


def _fit(text: str, width: int) -> list[str]:
    """Up to two lines of ``text``, cut at a " · · " break when it does not fit in one."""
    if len(text.replace(" · · ", " · ")) <= width:
        return [text.replace(" · · ", " · ")]
    return text.split(" · · ", 1)


class GameHomeScreen(TilecodeScreen):
    """The start of a TileCode project: its editors, its kinds and what is wrong with it."""

    HELP_ABOUT: ClassVar[str] = (
        "A TileCode game: a map of 4 background and 4 sprite kinds, programmed with rules. A "
        "rule is a 3×3 picture around a sprite: When the tiles match it, Do its commands. "
        "Rules fire on a button press, on a change nearby, when a sprite is about to smash "
        "into something, or never (checks that end the game); every round runs them once. "
        "The problems below say what keeps the game from playing.")

    SCREEN_TITLE = "game home"
    DEFAULT_CSS = """
    GameHomeScreen LinesView { height: 1fr; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "open('map')", "Map"),
        Binding("p", "open('paint')", "Paint"),
        Binding("c", "open('code')", "Code"),
        Binding("g,f5", "open('play')", "Play"),
        Binding("comma", "open('settings')", "Settings", key_display=","),
        Binding("e", "edit_kind", "Name/glyph"),
        Binding("up", "move(0, -1)", "Up", show=False),
        Binding("down", "move(0, 1)", "Down", show=False),
        Binding("left", "move(-1, 0)", "Left", show=False),
        Binding("right", "move(1, 0)", "Right", show=False),
        Binding("enter,space,z", "activate", "Open", show=False),
        Binding("escape", "leave", "Back"),
    ]
    EXPLAINED = ("open('play')",)
    """Dimmed while the game cannot be played: g says why."""
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("open('map')", "Map editor", "Paint backgrounds and place sprites"),
        ("open('paint')", "Paint editor", "Draw the 16×16 art of the kinds"),
        ("open('code')", "Rules", "The rule selector: press, change, smash and never rules"),
        ("open('play')", "Play", "Play the game"),
        ("open('settings')", "Game settings", "Map size, round period, seed, render mode"),
    ]

    def __init__(self, document) -> None:
        super().__init__(document)
        self.cursor = (0, 0)
        """(column, row): row 0 buttons, 1 backgrounds, 2 sprites, 3.. problems."""
        self.problems: list[Problem] = []
        self._playable: bool | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="home", focusable=False)
        yield KeysFooter()

    # ---------------------------------------------------------------------------- drawing

    def refresh_view(self) -> None:
        game = self.game
        styles = self.styles_ui
        look = look_for(game, styles)
        self.problems = game_problems(game)
        if self._can_play() != self._playable:
            self._playable = self._can_play()
            self.refresh_bindings()  # g is dimmed while the game cannot be played
        block = self.block
        shown = [(p, marked_lines("✗" if p.is_error else "!", p.message, 4 * block))
                 for p in self.problems[:6]]
        canvas = Canvas(4 * block, 18 + max(sum(len(lines) for _, lines in shown), 1))
        x = 0
        for col, (action, key, label) in enumerate(BUTTONS):
            text = f" {key} {label} "
            style = styles.primary
            if action == "play" and not self._can_play():
                style = styles.muted
            if self.cursor == (col, 0):
                style = style + styles.cursor
            end = canvas.put(x, 0, text, style)
            canvas.hit(Region(x, 0, end - x, 1), (col, 0))
            x = end + 2
        for row, (title, codes, kinds) in enumerate(
                (("Backgrounds", BACKGROUND_CODES, game.backgrounds),
                 ("Sprites", SPRITE_CODES, game.sprites)), start=1):
            top = 2 + (row - 1) * 6
            canvas.put(0, top, title, styles.accent)
            for col, (code, kind) in enumerate(zip(codes, kinds)):
                self._draw_kind(canvas, look, styles, col, row, top + 1, code, kind)
        info_y = 14
        rules, about = self._summary()
        canvas.put(0, info_y, rules, styles.text)
        for i, part in enumerate(_fit(about, canvas.width)):
            canvas.put(0, info_y + 1 + i, part, styles.muted)
        self._draw_problems(canvas, styles, shown, info_y + 3)
        view = self.query_one("#home", LinesView)
        view.set_lines(canvas.strips(), canvas.hits)

    def _draw_kind(self, canvas: Canvas, look: TileLook, styles: UIStyles, col: int, row: int,
                   y: int, code: str, kind) -> None:
        block = self.block
        x = col * block
        background = code.startswith("b")
        flat = -1 - int(code[1]) if background else -5 - int(code[1])
        draw_art(canvas, x, y, look, kind.art, flat, background)
        glyph, glyph_style = look.code_glyph(code)
        label_style = styles.text + (styles.cursor if self.cursor == (col, row) else Style())
        end = canvas.put(x, y + 4, f"{code} ", styles.muted)
        end = canvas.put(end, y + 4, glyph, glyph_style)
        canvas.put(end + 1, y + 4, fit(kind.name, block - 6), label_style)
        canvas.hit(Region(x, y, block - 1, 5), (col, row))

    @property
    def block(self) -> int:
        """Columns of one kind (its art and label): :data:`NARROW_BLOCK` where four of
        :data:`BLOCK` do not fit the screen."""
        return BLOCK if self.size.width - 2 >= 4 * BLOCK else NARROW_BLOCK

    def on_resize(self) -> None:
        if self.is_mounted:
            self.refresh_view()

    def _summary(self) -> tuple[str, str]:
        game = self.game
        mix = ", ".join(f"{t} {sum(r.type == t for r in game.rules)}" for t in RULE_TYPES)
        seed = "random" if game.seed is None else str(game.seed)
        sprites = counted(len(game.map.sprites), "sprite")
        return (f"{counted(len(game.rules), 'rule')} ({mix})",
                f"map {game.map.width}×{game.map.height}, {sprites} · "
                f"seed {seed} · {game.render} mode · · round {game.round_ms} ms · "  # · ·: a break
                f"high score {game.high_score}")

    def _draw_problems(self, canvas: Canvas, styles: UIStyles,
                       shown: list[tuple[Problem, list[str]]], y: int) -> None:
        errors = sum(p.is_error for p in self.problems)
        if not self.problems:
            missing = missing_player(self.game)
            if not self.game.rules:
                canvas.put(0, y, "No rules yet: press c to write the first one (play needs a "
                           "rule).", styles.muted)
            elif missing:
                canvas.put(0, y, f"No problems, but: {missing} (m places one).", styles.warning)
            else:
                canvas.put(0, y, "No problems: the game can be played.", styles.success)
            return
        for i, (problem, lines) in enumerate(shown):
            style = styles.error if problem.is_error else styles.warning
            if self.cursor == (0, 3 + i):
                style = style + styles.cursor
            for k, line in enumerate(lines):
                canvas.put(0, y + k, line, style)
            canvas.hit(Region(0, y, canvas.width, len(lines)), (0, 3 + i))
            y += len(lines)
        if errors:
            canvas.put(0, y, f"{blocking_play(errors)}; enter opens the rule.", styles.muted)

    # ---------------------------------------------------------------------------- actions

    def _can_play(self) -> bool:
        return play_refusal(self.game, self.problems) is None

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        if action == "open" and parameters == ("play",):
            return play_refusal(self.game, self.problems)
        return super().why_not(action, parameters)

    def _row_length(self, row: int) -> int:
        if row == 0:
            return len(BUTTONS)
        if row in (1, 2):
            return 4
        return 1 if row - 3 < min(len(self.problems), 6) else 0

    def action_move(self, dx: int, dy: int) -> None:
        col, row = self.cursor
        row = min(max(row + dy, 0), 2 + min(len(self.problems), 6))
        col = min(max(col + dx, 0), self._row_length(row) - 1)
        self.cursor = (col, row)
        self.refresh_view()

    def action_activate(self) -> None:
        col, row = self.cursor
        if row == 0:
            self.action_open(BUTTONS[col][0])
        elif row in (1, 2):
            self.open_paint(col + (0 if row == 1 else 4))
        else:
            problem = self.problems[row - 3]
            if problem.rule_id is not None:
                self.open_rule(problem.rule_id)

    @on(LinesView.Clicked)
    def _clicked(self, message: LinesView.Clicked) -> None:
        self.cursor = message.key
        self.action_activate()

    def action_open(self, what: str) -> None:
        from studio.screens.tilecode import screens

        if what == "play":
            screens.start_play(self)
            return
        self.app.push_screen(screens.make(what, self.document))

    def open_paint(self, index: int) -> None:
        from studio.screens.tilecode import screens

        self.app.push_screen(screens.make("paint", self.document, kind=index))

    def open_rule(self, rule_id: int) -> None:
        from studio.screens.tilecode import screens

        self.app.push_screen(screens.make("rule", self.document, rule_id=rule_id))

    def action_edit_kind(self) -> None:
        col, row = self.cursor
        index = col + (0 if row == 1 else 4) if row in (1, 2) else 4
        from studio.screens.tilecode.kind_dialog import KindDialog

        self.app.push_screen(KindDialog(self.document, index))

    @work(exclusive=True, group="leave")
    async def action_leave(self) -> None:
        if await SavePath(self.app, self.document).confirm_leave():
            self.dismiss(None)
