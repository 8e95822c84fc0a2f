"""The solver (btree.md §11.5): a breadth-first search from the play screen's state, in a worker
thread, with live progress; ``escape`` cancels; a winning line can then be played on the board."""

from __future__ import annotations

import threading
import time
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Header

from studio.engines import jit
from studio.screens.btree.base import BtreeScreen
from studio.sessions import warmup
from studio.widgets.lines import LinesView

MAX_STATES = 2_000_000


class SolverScreen(BtreeScreen):
    """Search for the shortest winning line from where the game stands."""

    SCREEN_TITLE = "solver"
    DEFAULT_CSS = """
    SolverScreen #report { height: 1fr; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,p", "play_line", "Play the line"),
        Binding("escape", "cancel_or_back", "Cancel / back"),
    ]

    def __init__(self, document, play) -> None:
        super().__init__(document)
        self.play = play
        self.cancel = threading.Event()
        self.job = play.session.solver_job(MAX_STATES)
        if not warmup.ready(warmup.SOLVER):
            self.job.path = "plain"  # the kernel compiles in another process meanwhile
        self.started = time.perf_counter()
        self.states = 0
        self.depth = 0
        self.done = False
        self.outcome = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="report", focusable=False)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self._search()

    @work(thread=True, exclusive=True, group="solver")
    def _search(self) -> None:
        def progress(states: int, depth: int) -> None:
            self.app.call_from_thread(self._progress, states, depth)

        result = self.job.run(progress, cancel=self.cancel)
        self.app.call_from_thread(self._finished, result)

    def _progress(self, states: int, depth: int) -> None:
        self.states, self.depth = states, depth
        self.refresh_view()

    def _finished(self, result) -> None:
        self.done = True
        self.states = result.states
        if getattr(result, "cancelled", False):
            self.outcome = "cancelled"
        elif result.found:
            self.play.session.adopt_solution(self.job)
            self.outcome = f"found: a winning line of {len(result.choices)} move(s)"
        elif result.exhausted:
            self.outcome = "no win: every reachable state was searched"
        else:
            self.outcome = f"no win within {MAX_STATES:,} states"
        self.refresh_view()

    def refresh_view(self) -> None:
        styles = self.styles_ui
        elapsed = max(time.perf_counter() - self.started, 1e-6)
        rate = self.states / elapsed
        lines = [
            Text("Breadth-first search from the current position;", styles.muted),
            Text("the game's own randomness stays as the seed makes it.", styles.muted),
            Text(""),
            Text(f"states explored    {self.states:,}", styles.text),
            Text(f"states per second  {rate:,.0f}", styles.text),
            Text(f"depth              {self.depth}", styles.text),
            Text(f"time               {elapsed:.1f} s", styles.text),
            Text(f"search             {self._path_words()}", styles.muted),
            Text(""),
        ]
        if not self.done:
            lines.append(Text("searching… escape cancels", styles.accent))
        else:
            lines.append(Text(self.outcome, styles.success if "found" in self.outcome
                              else styles.warning))
            if "found" in self.outcome:
                lines.append(Text("enter: follow it on the board, a move per enter", styles.muted))
        self.query_one("#report", LinesView).set_lines(lines)

    def _path_words(self) -> str:
        """Why the rate is what it is: the numba kernel, or the plain path and why."""
        result = self.job.result
        if result is not None:
            words = {"kernel": "numba kernel", "plain": "plain Python",
                     "reference": "engine snapshots"}.get(result.path, result.path)
            return f"{words}; {result.note}" if result.note else words
        if self.job.path == "plain":
            return "plain Python, while the kernel gets ready (first use)"
        return "numba kernel" if jit.available() else f"plain Python ({jit.reason()})"

    def action_cancel_or_back(self) -> None:
        if not self.done:
            self.cancel.set()
            return
        self.dismiss(None)
        self.play.resume_after_debugger()

    def action_play_line(self) -> None:
        if self.done:
            self.dismiss(None)
            self.play.follow_solution()
