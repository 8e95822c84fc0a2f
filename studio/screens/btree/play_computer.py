"""The computer's turns in play (issue 32): it searches in a worker thread, the screen stays live.

While a ``computer`` seat thinks, the status line counts its playouts (at most five redraws a
second), move keys wait for the next human turn, and ``u`` takes back the last human move: the
search is cancelled and its late answer dropped, since it belongs to a position left. A proven
result ("X wins in 3") stays on the status line for as long as it holds. ``c`` hands the seat
to move to the computer (or takes it back) and ``B`` shows the balance report.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from textual import work

from studio.engines.btree.play.session import AutoMove, ChoiceWait, Thinking
from studio.screens.btree.play_view import PlayView
from studio.sessions import warmup

PROGRESS_PERIOD = 0.2
"""Seconds between two progress redraws from a thinking computer."""


class ComputerTurns(PlayView):
    """Runs a computer seat's search off the event loop and plays its move when it is done."""

    computer_playouts: int | None = None
    """Tests set a playout budget: the computer then plays the same moves on any machine."""
    thinking: tuple[Thinking, threading.Event] | None = None
    """The turn being searched and the event that cancels it."""
    playouts = 0
    """Playouts done in the current search (shown)."""

    def think(self, wait: Thinking) -> None:
        """Start searching for the computer's move (the wait came from ``advance(think=False)``)."""
        self.cancel_thinking()
        cancel = threading.Event()
        self.thinking = (wait, cancel)
        self.playouts = 0
        # A first compile would hold the interpreter's lock in the worker and stall the screen:
        # the plain engine plays out until the warm-up process has the kernel cached.
        wait.job.kernel = warmup.ready(warmup.SOLVER)
        self._think_worker(wait, cancel)

    def cancel_thinking(self) -> None:
        """Stop the search under way, if any: its answer will be dropped."""
        if self.thinking is not None:
            self.thinking[1].set()
            self.thinking = None

    @work(thread=True, group="computer")
    def _think_worker(self, wait: Thinking, cancel: threading.Event) -> None:
        last = [0.0]

        def progress(done: int) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_PERIOD and not cancel.is_set():
                last[0] = now
                self._post(self._progress, wait, done)

        wait.job.run(progress, cancel)
        if not cancel.is_set():
            self._post(self._thought, wait)

    def _post(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run ``callback`` on the event loop; nothing once the app has closed under the search."""
        try:
            self.app.call_from_thread(callback, *args)
        except RuntimeError:  # the app stopped (quit while the computer thought)
            pass

    def _progress(self, wait: Thinking, done: int) -> None:
        if self.thinking is not None and self.thinking[0] is wait:
            self.playouts = done
            self._draw_status()

    def _thought(self, wait: Thinking) -> None:
        if self.thinking is None or self.thinking[0] is not wait or self.thinking[1].is_set():
            return  # cancelled meanwhile: undo, restart or leaving
        self.thinking = None
        if self.session.play_computer(wait.job):
            found = wait.job.result
            self.playouts = found.playouts if found is not None else 0
            self.advance()

    def thinking_status(self, wait: Thinking) -> str:
        """The status line's words while the computer thinks."""
        return f"player {wait.player} (computer) thinking… {self.playouts:,} playouts"

    def proven_status(self) -> str:
        """`` · computer: X wins in 2`` while a proof the computer made holds, else nothing."""
        proof = self.session.proven
        return f" · computer: {proof.text}" if proof is not None else ""

    def action_computer_seat(self) -> None:
        """The player to move becomes a computer seat, or a computer seat human again (``c``)."""
        wait = self.wait
        if self.busy or not isinstance(wait, (ChoiceWait, Thinking, AutoMove)):
            return
        pid = wait.player
        human = self.session.seat_of(pid) != "human"
        self._stop_timer()
        self.session.set_seat(pid, "human" if human else "computer")
        self.notify(f"Player {pid}: {'you play' if human else 'the computer plays'} (here; the "
                    "saved seats stay as they are)", timeout=2)
        self.advance()

    def action_balance(self) -> None:
        """The computer against itself from the start: each seat's record (``B``)."""
        from studio.screens.btree.balance import BalanceScreen

        if not self.busy:
            self._stop_timer()
            self.app.push_screen(BalanceScreen(self.document, self))
