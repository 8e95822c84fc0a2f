"""The solver (btree.md §11.5): a search from the play screen's state, in a worker thread, with
live progress; ``m`` changes the method (breadth first, A*, best first) and searches again,
``escape`` cancels; a winning line can then be played on the board."""

from __future__ import annotations

import textwrap
import threading
import time
from typing import ClassVar, NamedTuple

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header

from studio.engines import jit
from studio.screens.btree.base import BtreeScreen
from studio.screens.formatting import counted
from studio.sessions import warmup
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

MAX_STATES = 2_000_000
"""Breadth first's limit: past it, a guided method is the better next try."""
GUIDED_MAX_STATES = 20_000_000
"""A* and best first go on longer (best first takes 14 million states for Block Dude 7), up to
MAX_MEMORY."""
MAX_MEMORY = 1 << 30
LABEL = 19
"""Columns of the report's labels."""


class Method(NamedTuple):
    strategy: str
    weight: int
    name: str
    promise: str
    max_states: int


METHODS = (
    # breadth first, A* weight 3 and best first: the promise must fit 80 columns beside its label
    Method("auto", 1, "all at once", "3 searches side by side, up to a minute", GUIDED_MAX_STATES),
    Method("bfs", 1, "breadth first", "the shortest line", MAX_STATES),
    Method("astar", 3, "A* weight 3", "guided: a short line, quicker", GUIDED_MAX_STATES),
    Method("astar", 2, "A* weight 2", "guided: wider than weight 3, slower", GUIDED_MAX_STATES),
    Method("best", 1, "best first", "greedy: quickest, long lines", GUIDED_MAX_STATES),
)


class SolverScreen(BtreeScreen):
    """Search for a winning line from where the game stands (the shortest, by default)."""

    HELP_ABOUT: ClassVar[str] = (
        "A search for a way to win from where the game stands. All at once (the first method) "
        "runs breadth first, A* at weight 3 and best first side by side for up to a minute: the "
        "first line any finds is kept and a shorter one replaces it (escape stops the search "
        "and keeps the line; enter then follows it); breadth first's line is the shortest there "
        "is. m tries one method alone, without a time limit.")

    SCREEN_TITLE = "solver"
    DEFAULT_CSS = """
    SolverScreen #report { height: 1fr; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,p", "play_line", "Play the line"),
        Binding("m", "method", "Method"),
        Binding("escape", "cancel_or_back", "Cancel / back"),
    ]
    EXPLAINED = ("play_line",)

    def __init__(self, document, play) -> None:
        super().__init__(document)
        self.play = play
        self.method = 0
        self._prepare()

    def _prepare(self) -> None:
        """A fresh job of the current method from where the game stands."""
        method = METHODS[self.method]
        self.cancel = threading.Event()
        self.job = self.play.session.solver_job(method.max_states, strategy=method.strategy,
                                                weight=method.weight, max_memory=MAX_MEMORY)
        if not warmup.ready(warmup.SOLVER):
            self.job.path = "plain"  # the kernel compiles in another process meanwhile
        job = self.job
        self.so_far = None  # the portfolio's shortest line yet (``portfolio.Found``)
        job.on_line = lambda found: self.app.call_from_thread(self._line, job, found)
        self.started = self.ended = time.perf_counter()
        self.states = 0
        self.depth = 0
        self.shown_by = ""  # whose search the states and depth are, once all at once has ended
        self.all_states = 0  # every search's states together, where none found a line
        self.done = False
        self.outcome = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="report", focusable=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self._search(self.job, self.cancel)

    @work(thread=True, group="solver")
    def _search(self, job, cancel: threading.Event) -> None:
        def progress(states: int, depth: int) -> None:
            if not cancel.is_set():
                self.app.call_from_thread(self._progress, job, states, depth)

        result = job.run(progress, cancel=cancel)
        self.app.call_from_thread(self._finished, job, result)

    def on_resize(self) -> None:
        self.refresh_view()  # the notes wrap to the width

    def _progress(self, job, states: int, depth: int) -> None:
        if job is not self.job:  # a search the method key replaced
            return
        if job.path == "plain" and self.so_far is None and warmup.ready(warmup.SOLVER):
            # The kernel is ready: it starts over, far quicker than plain goes on; never once a
            # line was found, which the start over would throw away (escape keeps it).
            self._restart()
            return
        self.states, self.depth = states, depth
        self.refresh_view()

    def _line(self, job, found) -> None:
        if job is self.job and not self.done:
            self.so_far = found
            self.refresh_view()

    def _finished(self, job, result) -> None:
        if job is not self.job:
            return
        self.done = True
        self.ended = time.perf_counter()
        self.states, self.depth = result.states, result.depth  # as `studio solve` reports them
        method = METHODS[self.method]
        portfolio = job.portfolio  # the states shown: its finder's, as above
        if portfolio is not None:
            # The progress counted every search; the end shows one (the finder's, which is the
            # same from run to run), so it says whose, and with no line what all of them did.
            self.shown_by = next((member.name for member, out in portfolio.members if out is result), "")
            if not result.found:
                self.all_states = sum(out.states for _, out in portfolio.members)
        if getattr(result, "cancelled", False) and not result.found:
            self.outcome = "cancelled"
        elif result.found:
            self.play.session.adopt_solution(self.job)
            self.outcome = f"found: a winning line of {counted(len(result.choices), 'move')}"
            winner = (result.result or {}).get("player")
            if winner is not None and len(self.play.session.seats) > 1:
                self.outcome += f" for player {winner}"  # any player's win counts
            if portfolio is not None:
                self.outcome += f" by {portfolio.found_by}"
            if not (portfolio.proven if portfolio is not None else result.shortest):
                self.outcome += ", not known to be the shortest"
        elif result.exhausted:
            self.outcome = "no win: every reachable state was searched"
        elif result.reason == "memory":
            self.outcome = f"no win before the search filled {MAX_MEMORY >> 20:,} MB"
        elif portfolio is not None and portfolio.reason == "time":
            self.outcome = "no win found within a minute"
        else:
            self.outcome = f"no win within {method.max_states:,} states"
        self.refresh_view()
        self.refresh_bindings()  # enter plays the line, or is dimmed for good

    def refresh_view(self) -> None:
        styles = self.styles_ui
        end = self.ended if self.done else time.perf_counter()  # a finished search's time stands
        elapsed = max(end - self.started, 1e-6)
        rate = (self.all_states or self.states) / elapsed  # with no line, what all the searches did
        method = METHODS[self.method]
        lines = [
            Text("A search for a winning line from the current position; the game's", styles.muted),
            Text("own randomness stays as the seed makes it.", styles.muted),
            Text(""),
            Text.assemble((f"method             {method.name}", styles.text),
                          (f" · {method.promise}", styles.muted)),
            Text.assemble((f"states explored    {self.states:,}", styles.text),
                          (f" by {self.shown_by}" if self.done and self.shown_by else "", styles.muted)),
        ]
        if self.done and self.all_states:
            lines.append(Text(f"{'':<{LABEL}}{self.all_states:,} by all the searches together", styles.muted))
        lines += [
            Text(f"states per second  {rate:,.0f}", styles.text),
            Text(f"depth              {self.depth}", styles.text),
            Text(f"time               {elapsed:.1f} s", styles.text),
        ]
        # The notes (the heuristic, why a path) are long: wrapped under their label, not cut.
        room = max(self.size.width - 4 - LABEL, 24)
        for i, piece in enumerate(textwrap.wrap(self._path_words(), room)):
            lines.append(Text(f"{'search' if i == 0 else '':<{LABEL}}{piece}", styles.muted))
        lines.append(Text(""))
        if not self.done and self.so_far is not None:
            found = self.so_far
            lines.append(Text(f"found a line of {counted(found.moves, 'move')} by {found.member.name} "
                              f"after {found.elapsed:.1f} s", styles.success))
            lines.append(Text("searching for a shorter one… escape stops and keeps this one",
                              styles.accent))
        elif not self.done:
            lines.append(Text("searching… escape cancels; m: another method", styles.accent))
        else:
            found = self.outcome.startswith("found")
            lines.append(Text(self.outcome, styles.success if found else styles.warning))
            if found:
                lines.append(Text("enter: follow it on the board, a move per enter", styles.muted))
            elif self.outcome != "cancelled" and not self.outcome.startswith("no win:"):
                after = METHODS[(self.method + 1) % len(METHODS)]
                lines.append(Text(f"m: search again by {after.name} ({after.promise})", styles.muted))
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "redo"):
            return False  # it searches the tree play compiled: an edit undone here goes unseen
        return super().check_action(action, parameters)

    def action_method(self) -> None:
        """The next method, searching again from the same position (a running search stops)."""
        self.method = (self.method + 1) % len(METHODS)
        self._restart()

    def _restart(self) -> None:
        """Stop the running search and search again from the same position."""
        self.cancel.set()
        self._prepare()
        self.refresh_view()
        self.refresh_bindings()
        self._search(self.job, self.cancel)

    def action_cancel_or_back(self) -> None:
        if not self.done:
            self.cancel.set()
            return
        self.dismiss(None)
        self.play.resume_after_debugger()

    def action_play_line(self) -> None:
        self.dismiss(None)
        self.play.follow_solution()

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        if action != "play_line":
            return super().why_not(action, parameters)
        if not self.done:
            return "Still searching: the line can be played once one is found (escape cancels)."
        if not self.outcome.startswith("found"):
            return f"There is no line to play ({self.outcome}): escape goes back to the game."
        return None
