"""Fairness by simulation in the map editor (haunted.md §10.3, beyond the symmetry check).

``f`` plays thousands of rounds on the map as it is drawn, between policies of equal strength
(away mirrored) and across, on a worker thread; the tools pane then shows home's share of the
decided rounds with its 95% interval. The simulator's kernel compiles in another process the
first time (the screen says so and waits for it off the event loop); where numba cannot load,
the plain path plays fewer rounds and says that too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work

from studio.engines import jit
from studio.screens.formatting import counted
from studio.sessions import warmup

if TYPE_CHECKING:
    from studio.engines.haunted.sim.fairness import PairResult

ROUNDS = 10_000
PLAIN_ROUNDS = 500
"""Rounds per pair without numba (the plain engine plays some 40,000 turns a second)."""
clock: Callable[[], float] = time.perf_counter
"""Times the whole check (tests put a fixed clock here, so snapshots do not change)."""


def pair_line(result: PairResult) -> str:
    """One policy pair in the tools pane's width (about 40 columns at 80×24).

    ``greedy~0.2     53.6% [51.4–55.8] home +3.6`` for a policy against itself (✓ when 50% is
    inside the interval), ``safe vs greedy~0.2          24.4%`` for one against another.
    """
    share = f"{result.share * 100:4.1f}%"
    if not result.verdict:
        return f"{f'{result.home} vs {result.away}':<27} {share}"
    low, high = result.interval
    text = f"{str(result.home):<14} {share} [{low * 100:.1f}–{high * 100:.1f}]"
    if result.verdict == "balanced":
        return text + " ✓"
    side = "home" if result.share > 0.5 else "away"
    return text + f" {side} +{abs(result.share - 0.5) * 100:.1f}"


def result_lines(head: str, results: Sequence[PairResult], ui) -> list[Text]:
    """The tools pane's lines for a finished simulation: ``head``, a line a pair, a verdict."""
    lines = [Text(head, style=ui.muted)]
    lines += [Text(pair_line(r), style=ui.text if r.verdict in ("", "balanced") else ui.warning)
              for r in results]
    # The pairs' own lines say which side gains and by how much; three "favours away by N
    # points" in a row here read as one finding, without their pairs.
    equals = [r for r in results if r.verdict]
    unfair = [r for r in equals if r.verdict != "balanced"]
    lines.append(Text(f"✗ {len(unfair)} of {counted(len(equals), 'pair')} of equals unbalanced",
                      style=ui.warning) if unfair
                 else Text("✓ balanced for every pair of equal policies", style=ui.success))
    return lines


class FairnessSimulation:
    """Mixed into the map editor: ``action_simulate_fairness`` and the lines it produces."""

    simulated: list[Text] | None = None
    simulated_for: object = None
    """The draft the lines are about: an edit since makes them stale (and says so)."""
    simulated_map: tuple[int, str] | None = None
    """Which map (index, name) they are about: another map shows none of them."""

    def action_simulate_fairness(self) -> None:
        draft = self.draft
        try:
            board = draft.to_map() if draft is not None else None
        except ValueError as exc:
            self.notify(f"Fix the map first: {exc}", severity="error", timeout=4)
            return
        if board is None:
            return
        self.simulated = [Text("simulating…", style=self.styles_ui.accent)]
        self.simulated_for = draft
        self.simulated_map = (self.index, draft.name)
        self.show_status()
        self._simulate(board)

    @work(thread=True, exclusive=True, group="fairness")
    def _simulate(self, board) -> None:
        if jit.available() and not warmup.ready(warmup.HAUNTED):
            self.app.call_from_thread(self._simulation_note,
                                      "getting the simulator ready (compiled once, in another process)…")
            warmup.prepare(warmup.HAUNTED)
        # Imported here, on the worker: the simulator brings numba (about 0.5 s to import), which
        # the editor itself does not need.
        from studio.engines.haunted.sim.fairness import check

        rounds = ROUNDS if jit.available() else PLAIN_ROUNDS
        started = clock()
        results = check(board, rounds)
        took = clock() - started
        path = "" if jit.available() else f" (plain path: {jit.reason()})"
        head = f"home wins, {rounds:,} rounds a pair, {took:.1f} s{path}:"
        self.app.call_from_thread(self._simulation_done, result_lines(head, results,
                                                                      self.styles_ui))

    def _simulation_note(self, text: str) -> None:
        self.simulated = [Text(text, style=self.styles_ui.accent)]
        self.show_status()

    def _simulation_done(self, lines: list[Text]) -> None:
        self.simulated = lines
        self.show_status()
        # The result is the pane's last part: at 80×24 it may start below the edge.
        self.query_one("#tools").scroll_end(animate=False)

    def simulation_lines(self) -> list[Text]:
        """The tools pane's part: nothing until ``f`` was pressed."""
        draft = self.draft
        if self.simulated is None or draft is None or \
                (self.index, draft.name) != self.simulated_map:
            return []
        ui = self.styles_ui
        title = Text("Fairness by simulation (f)", style=ui.primary)
        if self.draft != self.simulated_for:
            title.append("  of an earlier version: f again", style=ui.muted)
        return [Text(""), title, *self.simulated]
