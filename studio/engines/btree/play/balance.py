"""Balance at a glance (issue 32): the computer plays itself, and each seat's record is counted.

The use case of ``studio balance``: every seat is a ``computer`` seat, games differ by seed (the
engine's and the searches'), and the report gives each seat's win / draw / loss rate with a 95%
Wilson interval — honest at 0% and 100% and with few games, where the normal approximation
claims an interval of zero width — and the mean game length, so an author sees a first-player
advantage or a broken rule at once. Who moves first is the tree's to say: the report names it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from studio.engines.btree.play.session import PlaySession
from studio.engines.btree.runtime.engine import Program
from studio.engines.btree.play.waits import AutoMove, DisplayWait, GameOver
from studio.engines.btree.search.outcome import outcome_of

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
MAX_MOVES = 2000  # a game this long is stopped and counted as a draw: trees can loop


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) without trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class SeatRecord:
    """One seat's games: wins, draws, losses, and how often it moved first."""

    pid: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    first: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def rate(self, outcome: str) -> tuple[float, float, float]:
        """(rate, low, high) of ``win``, ``draw`` or ``loss``, the interval at 95%."""
        count = {"win": self.wins, "draw": self.draws, "loss": self.losses}[outcome]
        low, high = wilson(count, self.games)
        return (count / self.games if self.games else 0.0), low, high


@dataclass
class BalanceReport:
    """What :func:`balance` found."""

    games: int = 0
    seats: dict[str, SeatRecord] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)
    results: dict[str, int] = field(default_factory=dict)
    """Result texts counted (``Game over, player X wins!`` …)."""

    @property
    def mean_length(self) -> float:
        return sum(self.lengths) / len(self.lengths) if self.lengths else 0.0


def player_pids(program: Program) -> list[str]:
    """The pids of the tree's ``player`` nodes, in tree order, as strings (as the session keys
    its seats: a player node without a pid is ``"None"``)."""
    pids: list[str] = []
    for node in program.nodes:
        if node.type == "player":
            text = str(node.get("pid"))
            if text not in pids:
                pids.append(text)
    return pids


def balance(
    program: Any,
    games: int,
    seconds: float | None = 1.0,
    playouts: int | None = None,
    seed: int = 0,
    board: Any = None,
    progress: Callable[[int, BalanceReport], None] | None = None,
    cancel: Any = None,
    kernel: bool = True,
) -> BalanceReport:
    """Play ``games`` games of the computer against itself, seeds ``seed``, ``seed + 1``, ….

    ``seconds`` per move, or ``playouts`` per move (then the report is the same on any machine).
    ``progress`` is told after each game (games done, the report so far); ``cancel.is_set()``
    stops between moves (the game under way is left out of the report). ``kernel``: the searches
    play out on the numba kernel (the same games either way, only slower without).
    """
    report = BalanceReport()
    program = program if isinstance(program, Program) else Program(program)
    seat = "computer" if seconds is None else f"computer:{seconds:g}"
    seats = {pid: seat for pid in player_pids(program)}
    for number in range(games):
        if cancel is not None and cancel.is_set():
            break
        session = PlaySession(program, seed + number, seats, board, computer_playouts=playouts)
        session.computer_kernel = kernel
        first: str | None = None
        seen: list[str] = []
        moves = 0
        while True:
            wait = session.advance(show_displays=False, show_auto=True)
            if isinstance(wait, GameOver):
                result = wait.result
                break
            if isinstance(wait, DisplayWait):  # not returned with show_displays False
                session.clear_display()
                continue
            assert isinstance(wait, AutoMove)
            first = first or wait.player
            if wait.player not in seen:
                seen.append(wait.player)
            moves += 1
            if cancel is not None and cancel.is_set():
                return report
            if moves >= MAX_MOVES:
                result = None
                break
        report.games += 1
        report.lengths.append(moves)
        text = session.result_text if result is not None else f"stopped after {MAX_MOVES} moves"
        report.results[text] = report.results.get(text, 0) + 1
        for pid in seen:
            record = report.seats.setdefault(pid, SeatRecord(pid))
            outcome = outcome_of(result, pid)
            record.wins += outcome == "win"
            record.draws += outcome == "draw"
            record.losses += outcome == "loss"
            record.first += pid == first
        if progress is not None:
            progress(number + 1, report)
    return report


def report_lines(name: str, report: BalanceReport, how: str) -> list[str]:
    """The report as text: a row per seat, then lengths and results."""
    lines = [f"{name}: {report.games} games, the computer on every seat ({how})",
             f"{'seat':<8}{'first':>6}  {'win':<18}{'draw':<18}loss"]
    for record in report.seats.values():
        cells = []
        for outcome in ("win", "draw", "loss"):
            rate, low, high = record.rate(outcome)
            cells.append(f"{rate:4.0%} [{low:.0%}–{high:.0%}]".ljust(18))
        lines.append(f"{record.pid:<8}{record.first:>6}  {''.join(cells)}".rstrip())
    if report.lengths:
        lines.append(f"mean length {report.mean_length:.1f} moves (shortest {min(report.lengths)}, "
                     f"longest {max(report.lengths)}); 95% intervals are Wilson's")
    for text, count in sorted(report.results.items(), key=lambda item: -item[1]):
        lines.append(f"  {count:>4} × {text}")
    return lines
