"""What the match view and the replay viewer share (haunted.md §13.3, §13.4): the board beside
the scoreboard, the turn panel and a banner, with the log panel below (``l``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Header

from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.rules import Event, Round, RoundState
from studio.screens.haunted.base import HauntedScreen
from studio.screens.haunted.board_render import TILE_SIZES, cell_size_for as fitting_cell
from studio.screens.haunted.match_board import match_cells, team_colours
from studio.screens.haunted.match_panels import scoreboard, turn_panel
from studio.engines.haunted.board import Map
from studio.screens.formatting import inert
from studio.widgets.board import Board
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView, fold_lines

SIDE_WIDTH = 48
"""Columns of the panels beside the board, at least."""
SIDE_MAX = 80
"""…and at most: beyond this a line of the turn panel is easier read folded."""


SIDE_LEAST = 36
"""…and on a narrow terminal, where the board is as small as it gets, as little as this (at 60
columns the panels kept 48 and ran off the screen's edge, the scoreboard's columns cut)."""


def side_width(board_size: int, cell: tuple[int, int], width: int) -> int:
    """The panels take the room the board leaves (a wide terminal wrapped them at 46 columns
    beside half a screen of nothing), up to :data:`SIDE_MAX`, and at least :data:`SIDE_LEAST`;
    :func:`cell_size_for` picks tiles that leave them :data:`SIDE_WIDTH` where it can."""
    return max(SIDE_LEAST, min(SIDE_MAX, width - board_size * cell[0] - 2))


LOG_LINES = 8
"""Lines of the log panel (``l``) below the board (its height in ``DEFAULT_CSS``)."""


BANNER_LINES = 2
"""The banner's least height: a round's or match's end and the next match."""


def cell_size_for(board_size: int, width: int, height: int) -> tuple[int, int]:
    """The largest tiles with which the board fits beside the panels and above the log, open or
    not: opening the log never resizes the board nor cuts it (at 120×40 a 7×7 board is 8×4
    tiles, at 80×24 4×2, narrower than that 2×1)."""
    room = (width - SIDE_WIDTH - 2, height - 2 - LOG_LINES)  # the header and footer lines
    return fitting_cell(board_size, room, TILE_SIZES)


@dataclass(frozen=True)
class Shown:
    """One picture of a match: what the board and the panels show."""

    names: tuple[str, str]
    config: MatchConfig
    round_index: int
    home: str
    monsters: dict[str, str]
    state: RoundState | None
    events: tuple[Event, ...]
    record: dict[str, Any] | None
    wins: dict[str, int]
    ties: int
    status: str
    banner: list[Text] = field(default_factory=list)
    coin: bool = False


class MatchLayout(HauntedScreen):
    """Board, scoreboard, turn panel, banner and log; subclasses say what to show."""

    AUTO_FOCUS = ""  # None would mean the app's "*": the first field would take the keys
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pageup", "scroll_log(-1)", "Scroll the log up", show=False),
        Binding("pagedown", "scroll_log(1)", "Scroll the log down", show=False),
    ]
    _log_lines: list[str] | tuple[str, ...] = ()
    _log_follow = True
    """The log stays on its newest line until the player scrolls up (then it stays put)."""
    _heights: dict[tuple[str, int], int]
    """The most lines each side panel has had, by screen width (see ``_keep_height``)."""
    DEFAULT_CSS = """
    MatchLayout #main { height: 1fr; }
    MatchLayout Board { width: auto; height: auto; max-height: 100%; margin: 0 1; }
    MatchLayout #side { width: 48; padding: 0 1; }
    MatchLayout #score { height: auto; }
    MatchLayout #turn { height: auto; margin-top: 1; }
    MatchLayout #banner { height: auto; margin-top: 1; }
    MatchLayout #log { height: 8; border-top: solid $panel; display: none; }
    MatchLayout.-log #log { display: block; }
    """

    def first_board(self) -> Map:
        """The board shown before anything else (the first map of the match)."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        self._heights = {}
        state = Round(self.first_board()).initial_state()
        self._board: tuple[RoundState, tuple[str, str], tuple[Event, ...]] = (
            state, team_colours({}, "A"), ())
        yield Header()
        with Horizontal(id="main"):
            board = Board(match_cells(state, self.styles_ui), cursor=None, id="board")
            board.can_focus = False  # the arrows step through turns, not a cursor
            yield board
            with Vertical(id="side"):
                yield LinesView(id="score", focusable=False)
                yield LinesView(id="turn", focusable=False)
                yield LinesView(id="banner", focusable=False)
        yield LinesView(id="log", focusable=False)
        yield KeysFooter()

    def on_resize(self) -> None:
        self.refresh_view()  # the board's tile size depends on the room it has

    def show(self, shown: Shown) -> None:
        """Draw a picture (only what changed reaches the terminal)."""
        styles = self.styles_ui
        colours = team_colours(shown.monsters, shown.home)
        by_side = {side: Style(color=styles.colour(colour), bold=True)
                   for side, colour in zip(("home", "away"), colours)}
        panel = self.query_one("#side")
        # Between two matches (no board of their own) the last board stays, drawn for this
        # terminal's size, and so do the panels' widths: going back to the least and out again
        # laid the screen out twice a match, and before any match the first board kept the
        # 80-column tiles at 60 columns.
        if shown.state is not None:
            self._board = (shown.state, colours, shown.events)
        state, board_colours, events = self._board
        cell = cell_size_for(state.size, self.size.width, self.size.height)
        self.query_one(Board).renderer = match_cells(state, styles, board_colours, events, cell)
        side = side_width(state.size, cell, self.size.width)
        if panel.styles.width is None or panel.styles.width.value != side:
            panel.styles.width = side
        score = scoreboard(shown.names, shown.home, shown.config, shown.round_index, shown.state,
                           shown.wins, shown.ties, shown.record, by_side, styles, coin=shown.coin,
                           width=side - 2)
        score += fold_lines([Text(shown.status, style=styles.muted)], side - 2)
        self.query_one("#score", LinesView).set_lines(self._keep_height("score", score))
        self.query_one("#turn", LinesView).set_lines(
            fold_lines(turn_panel(shown.record, shown.state, by_side, styles), side - 2))
        banner = fold_lines(shown.banner, side - 2)
        self.query_one("#banner", LinesView).set_lines(self._keep_height("banner", banner))

    def _keep_height(self, panel: str, lines: list[Text]) -> list[Text]:
        """``lines`` padded with blank ones to the most this panel has had at this width: its
        lines come and go every round (a round's end, the next match, a status that folds), and
        a box that changed height laid the whole screen out again, the largest cost of a
        spectator (76 of 176 layouts over a 400-line feed came from the banner alone)."""
        key = (panel, self.size.width)
        least = BANNER_LINES if panel == "banner" else 0
        tallest = max(self._heights.get(key, least), len(lines))
        self._heights[key] = tallest
        return lines + [Text("")] * (tallest - len(lines))

    def show_log(self, lines: list[str] | tuple[str, ...]) -> None:
        """Give the log panel its lines; while it is hidden they wait for ``l`` (feeding a hidden
        log every turn cost a layout and a scroll per frame of a fast match)."""
        self._log_lines = lines
        if self.has_class("-log"):
            self._fill_log()

    def _fill_log(self) -> None:
        log = self.query_one("#log", LinesView)
        # Folded to the panel's width (a turn's line is long); a match's log grows by a few lines
        # a turn: render only those, not all 500 again.
        width = max(log.size.width - 2, 20) if log.size.width else self.size.width - 2
        cache = getattr(self, "_log_strips", {})
        strips: dict[tuple[str, int], list] = {}
        shown = self._log_lines[-500:]
        for line in shown:
            key = (line, width)
            strips[key] = cache.get(key) or [
                log.to_strip(part)
                # What the AIs printed and why they failed: their lines kept, all else inert.
                for part in Text(inert(line, log=True)).wrap(self.app.console, width,
                                                              overflow="fold")]
        self._log_strips = strips
        log.set_lines([strip for line in shown for strip in strips[(line, width)]])
        if self._log_follow:
            # After the refresh: scrolling now would use the height before the new lines.
            self.call_after_refresh(log.scroll_end, animate=False)

    def action_scroll_log(self, direction: int) -> None:
        """A page of the log (opened first if it is hidden)."""
        if not self.has_class("-log"):
            self.action_toggle_log()
        log = self.query_one("#log", LinesView)
        log.page(direction)
        self._log_follow = log.scroll_y >= log.max_scroll_y

    def action_toggle_log(self) -> None:
        self.toggle_class("-log")
        if self.has_class("-log"):
            self._fill_log()
