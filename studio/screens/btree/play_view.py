"""What the play screen shows (btree.md §11.3): the board with the offered choices outlined and
the previewed one drawn in place, the status line and the choice list.

A base of :class:`~studio.screens.btree.play.BtreePlayScreen`, which owns the session and the
keys; everything here reads the session's state and draws it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.geometry import Region, Size

from studio.engines.btree.play.session import AutoMove, ChoiceWait, DisplayWait, GameOver, Thinking
from studio.engines.btree.model.text import choice_lines, text_width
from studio.screens.btree.base import BtreeScreen
from studio.engines.btree.model.sprites import SpriteSet
from studio.screens.btree.board_render import PLAYER_COLOURS, BtreeRenderer, Preview, cell_width_of
from studio.screens.btree.sprite_render import SpriteRenderer, image_lines
from studio.widgets.board import Board
from studio.widgets.canvas import Canvas
from studio.widgets.lines import LinesView, fold_lines

SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
"""Factors on display waits and automatic moves: 0 does not wait."""


class PlayView(BtreeScreen):
    """The drawing half of the play screen; the state it reads is set by the screen."""

    # From 120 columns the move list takes 60 of them: at 40 long moves were cut beside a board
    # with room to spare (lights-out at 120×40).
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (120, "-wide")]
    DEFAULT_CSS = """
    PlayView.-wide #choices { width: 60; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("i", "images", "Images/glyphs", show=False)]
    FOOTER_KEEP: ClassVar[tuple[str, ...]] = ("settings",)
    """Play's ``,`` leads where no other key does: at 80 columns it takes the place of the last
    keys in the footer (those are in ``?``)."""

    session: Any
    wait: Any = None
    selected: int | None = None
    board_cursor: tuple[int, int] | None = None
    hover: tuple[int, int] | None = None
    following = False
    speed_index = 3
    extra_width = 0
    show_hidden = False
    digits = ""
    images: bool | None = None
    """Draw the sprites' images: as ``i`` last chose, None: as the project's setting says."""
    _sprites: SpriteSet | None = None

    # ------------------------------------------------------------------------------ state

    def action_settings(self) -> None:
        """The project's settings (``,`` in play)."""
        from studio.screens.btree.settings import BtreeSettingsScreen

        self.app.push_screen(BtreeSettingsScreen(self.document))

    @property
    def choices(self) -> tuple:
        wait = self.wait
        if isinstance(wait, (ChoiceWait, AutoMove)):
            return self.session.engine.choices
        return ()

    def thinking_status(self, wait: Any) -> str:
        """The status line's words while a computer seat thinks (see ``play_computer``)."""
        return f"player {wait.player} (computer) thinking…"

    def proven_status(self) -> str:
        """A proven result to show on the status line (see ``play_computer``)."""
        return ""

    def player_colour(self, pid: Any) -> str:
        key = str(pid)
        if key not in self.colours:
            sprites = self.model.settings.get("sprites", {})
            rgb = sprites.get("players", {}).get(key) if isinstance(sprites, dict) else None
            if isinstance(rgb, list) and len(rgb) == 3:
                self.colours[key] = "#%02x%02x%02x" % tuple(int(v) for v in rgb)
            else:
                self.colours[key] = PLAYER_COLOURS[len(self.colours) % len(PLAYER_COLOURS)]
        return self.colours[key]

    def previewed(self) -> int | None:
        """The choice to show in place: the selected one, or the one under the cursor/mouse."""
        choices = self.choices
        if not choices:
            return None
        if isinstance(self.wait, AutoMove):
            return self.wait.index
        if self.following:
            hint = self.session.solution_choice()
            if hint is not None:
                return hint
        under = self._under(self.board_cursor or self.hover)
        if under:
            return under[(self.selected or 0) % len(under)] if self.board_cursor else under[0]
        return None if self.selected is None else min(self.selected, len(choices) - 1)

    def _under(self, cell: tuple[int, int] | None) -> list[int]:
        if cell is None:
            return []
        col, row = cell
        out = []
        for (r, c, rows, cols), indices in self.session.engine.choices_by_rect.items():
            if r <= row < r + rows and c <= col < c + cols:
                out.extend(indices)
        return sorted(out)

    def cell_width(self) -> int:
        """The board's cell width: the project's, else the widest tile's, widened or narrowed by
        ``+``/``-`` (down to one column: wider tiles then show as ``…``)."""
        display = self.model.display
        natural = cell_width_of([self.session.engine.board], display.get("glyphs", {}),
                                int(display.get("cell_width", 0)))
        return max(natural + self.extra_width, 1)

    def _focus(self) -> tuple[int, int] | None:
        """The cell (x, y) the board keeps in view: the previewed choice's, else the middle of
        every offered rectangle (on a board wider than the pane, where the player is). Not the
        move under the mouse: the board would slide away under the pointer."""
        index = None if self.hover is not None else self.previewed()
        if index is not None:
            choice = self.choices[index]
            return choice.col, choice.row
        rects = self.session.engine.choices_by_rect if self.choices else {}
        if not rects:
            return None
        top = min(r for r, _, _, _ in rects)
        left = min(c for _, c, _, _ in rects)
        bottom = max(r + rows for r, _, rows, _ in rects)
        right = max(c + cols for _, c, _, cols in rects)
        return (left + right - 1) // 2, (top + bottom - 1) // 2

    # ------------------------------------------------------------------- view toggles

    def action_layers(self) -> None:
        board = self.session.engine.board
        names = list(board.layers) if board is not None else []
        if len(names) < 2:
            self.notify("This board has one layer", timeout=2)
            return
        # Cycle: all shown → hide the first → hide the first two … → all shown.
        hidden = len(self.hidden_layers)
        self.hidden_layers = set(names[:hidden + 1]) if hidden + 1 < len(names) else set()
        self.notify("Layers shown: " + ", ".join(n for n in names if n not in self.hidden_layers),
                    timeout=2)
        self._draw()

    def action_hidden(self) -> None:
        self.show_hidden = not self.show_hidden
        self._draw()

    def action_width(self, delta: int) -> None:
        width = self.cell_width()
        if width + delta >= 1:
            self.extra_width += delta
            self._draw()

    def action_speed(self, delta: int) -> None:
        self.speed_index = min(max(self.speed_index + delta, 0), len(SPEEDS) - 1)
        self._draw_status()

    # ---------------------------------------------------------------------------- drawing

    def _renderer(self, previewing: bool = True, room: Size | None = None) -> BtreeRenderer:
        """The board as play draws it; ``previewing`` False leaves out the move shown in place
        (the debugger shows the board as it is: it drew play's preview as if made); ``room``:
        the pane it is drawn in, if not play's own board (the debugger's)."""
        engine = self.session.engine
        display = self.model.display
        glyphs = display.get("glyphs", {})
        rects: dict[tuple, int] = {}
        for rect, indices in engine.choices_by_rect.items():
            rects[rect] = len(indices)
        preview = None
        index = self.previewed() if previewing else None
        tint = None
        if self.choices:
            tint = self.player_colour(engine.choice_player)
            if index is not None:
                choice = self.choices[index]
                preview = Preview(choice.row, choice.col, choice.rhs)
        args = (engine.board, self.styles_ui, self.cell_width(), glyphs,
                display.get("colors", {}), self.show_hidden, self.hidden_layers, rects, tint,
                preview)
        lines = self.image_lines(room)
        if lines is not None:
            return SpriteRenderer(*args, sprites=self.sprites, lines=lines)
        return BtreeRenderer(*args)

    @property
    def sprites(self) -> SpriteSet:
        """The game's sprites, unpacked and scaled once for every redraw."""
        if self._sprites is None:
            self._sprites = SpriteSet(self.model.game().sprites)
        return self._sprites

    def drawing_images(self) -> bool:
        """Whether images are wanted and can be drawn: the game has some, the theme has colours
        for them (not the 16 of ANSI, nor none)."""
        wanted = self.images if self.images is not None else \
            bool(self.model.display.get("images", True))
        return (wanted and not self.styles_ui.ansi and not self.app.no_color
                and self.sprites.has_images)

    def image_lines(self, room: Size | None = None) -> int | None:
        """Lines per board cell in image mode, or None for glyphs (no images, or no room in
        ``room``, by default play's board)."""
        board = self.session.engine.board
        if board is None or not board.rows or not self.drawing_images():
            return None
        if room is None:
            try:
                room = self.query_one(Board).size
            except NoMatches:  # before the first layout: glyphs, then images once laid out
                return None
        return image_lines(board.cols, board.rows, room.width, room.height)

    def action_images(self) -> None:
        """Sprite images or glyphs (``i``); says why when images cannot be drawn."""
        if not self.sprites.has_images:
            self.notify("This game has no sprite images", timeout=2)
            return
        self.images = self.image_lines() is None  # showing images: glyphs; else images
        if self.images and not self.drawing_images():
            why = "the terminal has no colours (NO_COLOR)" if self.app.no_color else \
                "the ANSI theme has 16"
            self.notify(f"Images need a colour theme (t): {why}", timeout=3)
        elif self.images and self.image_lines() is None:
            self.notify("Images need more room: 4 columns and 2 lines a cell", timeout=3)
        self.refresh_view()

    def on_mount(self) -> None:
        super().on_mount()
        # The ANSI theme has no colours for images: the board is drawn again, with glyphs.
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._theme_changed())

    def _theme_changed(self) -> None:
        if self.is_mounted and self.sprites.has_images:
            self.call_after_refresh(self.refresh_view)

    def on_resize(self) -> None:
        if self.is_mounted and self.images is not False and self.sprites.has_images:
            self.call_after_refresh(self.refresh_view)  # once the board has its new size

    def refresh_view(self) -> None:
        self._draw()

    def _draw(self) -> None:
        board = self.query_one(Board)
        board.renderer = self._renderer()
        board.set_cursor(self.board_cursor)
        focus = self._focus()
        if self.board_cursor is None and focus is not None:
            board.follow(*focus, slack=True)
        self._draw_status()
        self._draw_choices()

    def _draw_status(self) -> None:
        session = self.session
        engine = session.engine
        wait = self.wait
        if isinstance(wait, GameOver):
            state = wait.text
        elif isinstance(wait, ChoiceWait):
            state = f"player {wait.player} to move ({session.seat_of(wait.player)})"
        elif isinstance(wait, AutoMove):
            state = f"player {wait.player} ({wait.seat}) plays {wait.index + 1}"
            state += f" — {wait.note}" if wait.note else ""
        elif isinstance(wait, DisplayWait):
            state = f"showing the board ({wait.delay:g} s; space skips)"
        elif isinstance(wait, Thinking):
            state = self.thinking_status(wait)
        else:
            state = "running…"
        speed = SPEEDS[self.speed_index]
        digits = f" · typed {self.digits}" if self.digits else ""
        if self.following and session.solution is not None:
            if session.solution_played():
                digits += " · the solver's line, played to its end"
            elif session.solution_choice() is not None:
                digits += " · solver: enter plays its move"
            else:
                digits += " · off the solver's line (s searches from here)"
        # The engine's step count restarts at every choice (its loop check): said so, since a
        # bare "step 26" then "step 22" read as a count going backwards. The seed goes last (a
        # long one takes the second line) and the speed shows once it is changed.
        pace = f" · speed ×{speed:g}" if speed != 1 else ""
        digits += self.proven_status()
        text = (f"{state} · moves {len(session.choices_made)} ({engine.step_count} steps since "
                f"the last){pace}{digits} · seed {session.seed}")
        view = self.query_one("#status", LinesView)
        view.set_lines(fold_lines([Text(text, self.styles_ui.text)],
                                  max(view.size.width - 2, 20) if view.size.width else 78))

    @on(LinesView.Resized, "#choices")
    def _choices_resized(self) -> None:
        self._draw_choices()

    def _draw_choices(self) -> None:
        styles = self.styles_ui
        choices = self.choices
        view = self.query_one("#choices", LinesView)
        shown = self.previewed()
        if not choices:
            canvas = Canvas(36, 1)
            wait = self.wait
            message = wait.text if isinstance(wait, GameOver) else \
                f"({wait.player}: the computer's move)" if isinstance(wait, Thinking) else \
                "(no choice now)"
            canvas.put(0, 0, message, styles.muted)
            view.set_lines(canvas.strips())
            return
        # Fitted to the pane (a cut ends in "…"); measured in cells, as an emoji board's tiles
        # take two each (measuring in characters cut the last digit of "@7,11").
        width = view.scrollable_content_region.width or 36
        lines = choice_lines([choice.to_json() for choice in choices], width - 1)
        canvas = Canvas(max(text_width(t) for t in lines) + 1, len(lines))
        for y, text in enumerate(lines):
            style = styles.text + (styles.cursor if y == shown else styles.text)
            canvas.put(0, y, text, style)
            canvas.hit(Region(0, y, canvas.width, 1), y)
        view.set_lines(canvas.strips(), canvas.hits)
        if shown is not None:
            view.show_line(shown)
