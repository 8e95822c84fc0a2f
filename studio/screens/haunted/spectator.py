"""The spectator screen (issue 30, "Watch it live"): a tournament or match being played elsewhere,
followed through its live feed, on the match view's layout, with the bracket or standings below.

It only reads: no key changes the match, and nothing but the feed is opened, so it is the screen
a spectator's session is given. The feed is polled (``POLL`` seconds): a poll that finds nothing
new draws nothing, so an idle spectator costs a stat and a read of zero bytes, and over SSH no
output at all.
"""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.timer import Timer

from studio.engines.haunted.board import Map
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.standings import SINGLE
from studio.screens.haunted.base import HAUNTED_ABOUT, QUIET_DOCUMENT_KEYS
from studio.screens.haunted.match_layout import MatchLayout, Shown
from studio.screens.haunted.tournament_results import BRACKET_HEADINGS, draw
from studio.sessions.haunted.results import Results
from studio.sessions.haunted.replays import feed_locator
from studio.sessions import access
from studio.sessions.haunted.feed_wake import FeedWake, open_wake
from studio.sessions.haunted.veil import FeedVeil
from studio.sessions.haunted.watch import Spectator, Watched
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

POLL = 0.1
"""Seconds between two looks at the feed where no wake can be had: the most a spectator is
behind, less the drawing."""
WOKEN_POLL = 0.5
"""Seconds between two looks with a wake on the feed: only for a new run to move on to; the
turns wake the screen as they are written."""
WAITING_POLL = 0.2
"""Seconds between two looks while no feed is there yet (a run starting is seen this soon)."""
LEAST_GAP = 1 / 30
"""Seconds between two looks at least, however fast the feed is written (a match at full speed
writes thousands of turns a second: they are drawn a frame at a time)."""


class SpectatorScreen(MatchLayout):
    """A match followed live: board, scoreboard, turn, log; the results so far below."""

    HELP_ABOUT: ClassVar[str] = (
        "Watching a tournament or a match played in another session, as it is played: the board, "
        "the scoreboard and the log as the match view shows them, the bracket or the standings "
        "below, and the match after this one. Nothing here changes the match. " + HAUNTED_ABOUT)
    SCREEN_TITLE = "watch"
    DEFAULT_CSS = """
    SpectatorScreen #main { height: auto; }
    SpectatorScreen #side { height: auto; }
    SpectatorScreen #results { height: 1fr; border-top: solid $panel; }
    SpectatorScreen.-no-results #results { display: none; }
    SpectatorScreen #log { height: 1fr; }
    SpectatorScreen.-log #results { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *QUIET_DOCUMENT_KEYS,
        Binding("b", "toggle_results", "Bracket"),
        Binding("l", "toggle_log", "Log"),
        Binding("up", "scroll_results(-1)", "Scroll the results up", show=False),
        Binding("down", "scroll_results(1)", "Scroll the results down", show=False),
        Binding("escape", "back", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("toggle_results", "Show or hide the results", "The bracket or the standings so far (b)"),
        ("toggle_log", "Show or hide the log", "Events and each AI's output, turn by turn"),
    ]

    def __init__(self, document, tournament: str | None = None,
                 spectator: Spectator | None = None) -> None:
        super().__init__(document)
        self.tournament = tournament
        self.spectator = spectator or Spectator(feed_locator(self.folder, tournament),
                                                veil=FeedVeil(access.current()),
                                                one_turn_at_a_time=True)
        self._drawn = -1
        self._results_shown: dict | None = None
        self._wake: FeedWake | None = None
        self._timer: Timer | None = None
        self._interval = 0.0
        self._looked_at = float("-inf")
        self._look_due = False

    def first_board(self) -> Map:
        maps = self.model.maps() or builtin_maps()
        return next(iter(maps.values()))

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, KeysFooter):  # the results between the log and the keys
                yield LinesView(id="results", focusable=False)
            yield widget

    def on_mount(self) -> None:
        super().on_mount()
        self.sub_title = f"watching {self.tournament}" if self.tournament else "watching"
        self._wake = open_wake()
        if self._wake is not None:
            asyncio.get_running_loop().add_reader(self._wake.fileno(), self._woken)
        self._poll()

    def on_unmount(self) -> None:
        if self._wake is not None:
            asyncio.get_running_loop().remove_reader(self._wake.fileno())
            self._wake.close()
            self._wake = None

    def _woken(self) -> None:
        """The feed was written to (from the event loop, outside any message): look at it now,
        or at the end of the least gap."""
        if self._wake is None or not self._wake.drain() or self._look_due:
            return
        self._look_due = True
        wait = self._looked_at + LEAST_GAP - time.monotonic()
        if wait > 0:
            self.set_timer(wait, self._poll)
        else:
            self.call_later(self._poll)

    def _poll(self) -> None:
        self._look_due = False
        self._looked_at = time.monotonic()
        if self.spectator.poll():
            self.refresh_view()
        if self.spectator.more and not self._look_due:
            # A turn held back, or a backlog: the rest without waiting for a write, once this
            # turn is on the screen (a timer could fire first on a busy machine, and the turn
            # would never be drawn).
            self._look_due = True
            self.call_after_refresh(self._poll)
        file = self.spectator.file
        woken = self._wake is not None and self._wake.watch(file)
        interval = POLL if not woken else WOKEN_POLL if file is not None else WAITING_POLL
        if interval != self._interval:
            if self._timer is not None:
                self._timer.stop()
            self._timer, self._interval = self.set_interval(interval, self._poll), interval

    # ------------------------------------------------------------------------------ drawing

    def refresh_view(self) -> None:
        view = self.spectator.view()
        if view.version == self._drawn and self.is_mounted:
            return
        self._drawn = view.version
        styles = self.styles_ui
        config = view.config or MatchConfig(maps=tuple(self.model.maps()) or MatchConfig().maps)
        self.show(Shown(view.names if view.config else ("", ""), config, view.round_index,
                        view.home, view.monsters, view.state, view.events, view.record,
                        view.wins, view.ties, self._status(view), self._banner(view),
                        coin=bool(view.result and view.result.coin_toss)))
        if view.log is not self._log_lines:  # a new tuple whenever a line came
            self.show_log(view.log)
        self._draw_results(view)

    def _status(self, view: Watched) -> str:
        where = " · ".join(p for p in (f"match {view.number}" if view.number else "", view.stage)
                           if p)
        state = {"waiting": "waiting", "live": "live", "over": "over",
                 "stopped": "stopped"}[view.status]
        if view.status == "live" and view.delay is not None:
            state += f" ({view.delay:.1f} s behind)" if view.delay >= 1 else ""
        return " · ".join(p for p in (where, state) if p)

    def _banner(self, view: Watched) -> list[Text]:
        styles = self.styles_ui
        lines: list[Text] = []
        if view.status == "waiting" or not view.config:
            lines.append(Text(view.about or "waiting for a match to start", style=styles.muted))
        elif view.result is not None:
            lines.append(Text(view.log[-1] if view.log else "match over", style=styles.success))
        elif view.rounds and view.state is not None and view.state.end is not None:
            lines.append(Text(view.log[-1] if view.log else "", style=styles.accent))
        if view.status == "stopped":
            lines.append(Text(f"the run stopped: {view.about}", style=styles.error))
        elif view.status == "over" and view.kind == "tournament":
            lines.append(Text(self._champion(view), style=styles.success))
        if view.next_match:
            lines.append(Text(f"next: {view.next_match}", style=styles.muted))
        if view.skipped:
            lines.append(Text(f"{view.skipped} line(s) of the feed could not be read",
                              style=styles.warning))
        return lines

    @staticmethod
    def _champion(view: Watched) -> str:
        results = Results(view.tournament or {})
        champion = results.champion()
        if results.mode == SINGLE and champion:
            return f"the tournament is over: {champion} wins"
        standings = results.standings()
        return f"the tournament is over: {standings[0].name} leads" if standings else \
            "the tournament is over"

    def _draw_results(self, view: Watched) -> None:
        self.set_class(view.tournament is None or self.has_class("-hide-results"), "-no-results")
        if view.tournament is None or view.tournament is self._results_shown:
            return  # the same results (they change when a match ends, not every turn)
        self._results_shown = view.tournament
        panel = self.query_one("#results", LinesView)
        results = Results(view.tournament)
        lines, _ = draw(results, self.styles_ui, -1)
        panel.set_lines(lines, fixed=BRACKET_HEADINGS if results.mode == SINGLE else 0)

    # ------------------------------------------------------------------------------ keys

    def action_toggle_results(self) -> None:
        self.toggle_class("-hide-results")
        self._drawn = -1
        self.refresh_view()

    def action_scroll_results(self, direction: int) -> None:
        panel = self.query_one("#results", LinesView)
        panel.scroll_to(y=panel.scroll_y + direction * 3, animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if access.current().shared_view:
            return False  # drawn for every spectator at once: their keys do not reach it
        if action == "back" and self.app.screen_stack[:1] == [self]:
            return False  # a spectator's only screen: there is nothing behind it to go back to
        return super().check_action(action, parameters)

    def action_back(self) -> None:
        self.dismiss(None)
