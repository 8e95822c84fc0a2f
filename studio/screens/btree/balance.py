"""Balance from play (issue 32): the computer plays the game against itself, a game at a time
in a worker thread, and each seat's record grows on the screen as ``studio balance`` prints it.

Quick by design (a tenth of a second a move, ten games): a first look at a first-player
advantage or a broken rule while editing; ``studio balance`` takes longer and sees better.
"""

from __future__ import annotations

import copy
import threading
import time
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header

from studio.engines.btree.play.balance import BalanceReport, balance, report_lines
from studio.sessions import warmup
from studio.screens.btree.base import BtreeScreen
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

GAMES = 10
SECONDS = 0.1
"""The computer's time per move here."""


class BalanceScreen(BtreeScreen):
    """The computer against itself from the game's start, its record per seat."""

    HELP_ABOUT: ClassVar[str] = (
        f"The computer plays every seat, {GAMES} games from the start with seeds from the "
        f"game's, {SECONDS:g} s a move: each seat's win, draw and loss rate with a 95% interval, "
        "who moved first and the mean length. A seat that wins far more often than the other, "
        "or games that all end alike, point at the rules. escape stops and goes back.")
    SCREEN_TITLE = "balance"
    DEFAULT_CSS = """
    BalanceScreen #report { height: 1fr; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Stop / back")]

    games = GAMES
    seconds: float | None = SECONDS
    playouts: int | None = None
    """Tests set a playout budget instead of the time: the same record on any machine."""

    def __init__(self, document, play) -> None:
        super().__init__(document)
        self.play = play
        self.cancel = threading.Event()
        self.report = BalanceReport()
        self.started = time.perf_counter()
        self.took: float | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="report", focusable=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()  # draws the view
        session = self.play.session
        self._run(session.program, session.seed, session.board)

    @work(thread=True, group="balance")
    def _run(self, program, seed: int, board) -> None:
        def progress(_done: int, report: BalanceReport) -> None:
            if not self.cancel.is_set():
                self.app.call_from_thread(self._progress, copy.deepcopy(report))  # it goes on

        # As the play screen: the plain engine until the warm-up process has the kernel cached
        # (a first compile here took over a minute on a loaded machine).
        balance(program, self.games, None if self.playouts else self.seconds, self.playouts,
                seed, board, progress, self.cancel, kernel=warmup.ready(warmup.SOLVER))
        if not self.cancel.is_set():
            self.app.call_from_thread(self._finished)

    def _progress(self, report: BalanceReport) -> None:
        self.report = report
        self.refresh_view()

    def _finished(self) -> None:
        self.took = time.perf_counter() - self.started
        self.refresh_view()

    def refresh_view(self) -> None:
        how = f"{self.playouts} playouts a move" if self.playouts else f"{self.seconds:g} s a move"
        name = self.play.session.program.name or self.document.project.name
        lines = report_lines(name, self.report, how)
        if self.took is None:
            lines.append(f"playing game {self.report.games + 1} of {self.games}… (escape stops)")
        else:
            lines.append(f"done: {self.games} games in {self.took:.0f} s")
        style = self.styles_ui.text
        self.query_one("#report", LinesView).set_lines([Text(line, style) for line in lines])

    def action_back(self) -> None:
        self.cancel.set()
        self.dismiss(None)
        self.play.resume_after_debugger()
