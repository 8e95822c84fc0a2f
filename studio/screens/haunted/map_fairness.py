"""Fairness by simulation in the map editor (haunted.md §10.3, beyond the symmetry check).

``f`` plays thousands of rounds on the map as it is drawn, between policies of equal strength
(away mirrored) and across, on a worker thread; the tools pane then shows home's share of the
decided rounds with its 95% interval. The simulator's kernel compiles in another process the
first time (the screen says so and waits for it off the event loop); where numba cannot load,
the plain path plays fewer rounds and says that too.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual import work

from studio.engines import jit
from studio.engines.haunted.sim.fairness import check, summary
from studio.sessions import warmup

ROUNDS = 10_000
PLAIN_ROUNDS = 500
"""Rounds per pair without numba (the plain engine plays some 40,000 turns a second)."""


class FairnessSimulation:
    """Mixed into the map editor: ``action_simulate_fairness`` and the lines it produces."""

    simulated: list[Text] | None = None

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
        self.show_status()
        self._simulate(board)

    @work(thread=True, exclusive=True, group="fairness")
    def _simulate(self, board) -> None:
        if jit.available() and not warmup.ready(warmup.HAUNTED):
            self.app.call_from_thread(self._simulation_note, "compiling the simulator (first use)…")
            while not warmup.ready(warmup.HAUNTED):
                time.sleep(0.2)
        rounds = ROUNDS if jit.available() else PLAIN_ROUNDS
        started = time.perf_counter()
        results = check(board, rounds)
        took = time.perf_counter() - started
        ui = self.styles_ui
        lines = [Text(r.line().strip(), style=ui.text) for r in results]
        path = "" if jit.available() else f" (plain path: {jit.reason()})"
        lines.append(Text(f"{rounds:,} rounds per pair in {took:.1f} s{path}", style=ui.muted))
        lines.append(Text(summary(board, results), style=ui.accent))
        self.app.call_from_thread(self._simulation_done, lines)

    def _simulation_note(self, text: str) -> None:
        self.simulated = [Text(text, style=self.styles_ui.accent)]
        self.show_status()

    def _simulation_done(self, lines: list[Text]) -> None:
        self.simulated = lines
        self.show_status()

    def simulation_lines(self) -> list[Text]:
        """The tools pane's part: nothing until ``f`` was pressed."""
        if self.simulated is None:
            return []
        return [Text(""), Text("Fairness by simulation", style=self.styles_ui.primary), *self.simulated]
