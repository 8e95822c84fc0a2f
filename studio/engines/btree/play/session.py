"""Playing a behaviour-tree game with seats (§11.3): the use case `studio run` and the play screen share.

A :class:`PlaySession` owns one :class:`Engine` and drives it for the outside world: it runs until
a human seat must choose, a display wait should be shown, an automatic seat has picked a move the
screen may want to show, or the game is over. It keeps the choices made, a snapshot at every choice
wait for choice-level undo/redo (§8), the seed and the seats, and a solver line once one was found.

Determinism: the engine RNG is seeded with the session seed; each ``random`` seat draws from its
own SplitMix64 (:func:`seat_rng`), whose state is saved with every undo mark, so the same seed and
the same human choices always give the same game.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from studio.engines.common.splitmix import SplitMix64

from studio.engines.btree.model.board import Board
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.model.text import result_text as _result_text
from studio.engines.btree.play.seats import COMPUTER_SECONDS, SEAT_KINDS, parse_seat
from studio.engines.btree.play.solver_seat import NO_SOLVER_LINE, SolverSeat
from studio.engines.btree.play.waits import (
    AutoMove, ChoiceWait, DisplayWait, GameOver, Solution, Thinking, Wait,
)

if TYPE_CHECKING:  # the search loads when a computer seat first moves
    from studio.engines.btree.play.computer import ComputerJob
    from studio.engines.btree.search.outcome import Proof

UNDO_CAP = 10_000  # choice waits kept for undo (§8, Decision 15)
REPLAY_FORMAT = "studio-btree-replay"
__all__ = ["SEAT_KINDS", "PlaySession", "seat_rng", "AutoMove", "ChoiceWait", "DisplayWait",
           "GameOver", "Solution", "Thinking", "Wait", "NO_SOLVER_LINE"]


def seat_rng(seed: int, pid: str) -> SplitMix64:
    """Each random seat's own chooser RNG: the run seed mixed with the pid; never the engine's."""
    return SplitMix64((seed * 0x9E3779B1 + zlib.crc32(pid.encode())) % (1 << 64))


@dataclass(frozen=True)
class _Mark:
    snapshot: Any
    rngs: dict[str, int]
    kind: str  # "human", "auto" or "end"


# ---------------------------------------------------------------------------------- session


class PlaySession(SolverSeat):
    """A game being played with seats, with choice-level undo/redo.

    Args:
        program_or_compiled: a ``Program`` (shared), the compiler's ``Compiled`` or the compiled
            JSON shape.
        seed: the engine seed (§7.7); random seats derive their own RNG from it.
        seats: pid → ``human`` | ``random`` | ``first`` | ``solver`` | ``computer[:SECONDS]``;
            pids are compared as strings; unlisted pids are human.
        board: a board to inject before the first step (``*-gameloop`` games), or ``None``.
        display_reset: whether clearing a display wait resets the step budget (§7.2: interactive
            play does; the historical headless ``studio run`` does not).
        undo_cap: choice waits kept for undo; the oldest are dropped.
        computer_playouts: a playout budget for every computer seat's move, instead of its time
            (the same seed then plays the same moves on any machine: tests, ``studio balance``).

    Raises:
        ValueError: an unknown seat kind or a bad seed.
    """

    def __init__(
        self,
        program_or_compiled: Any,
        seed: int = 0,
        seats: Mapping[Any, str] | None = None,
        board: Board | Mapping[str, Any] | None = None,
        *,
        display_reset: bool = True,
        undo_cap: int = UNDO_CAP,
        computer_playouts: int | None = None,
    ) -> None:
        prog = program_or_compiled
        self.program = prog if isinstance(prog, Program) else Program(prog)
        self.seats: dict[str, str] = {}
        self.seconds: dict[str, float] = {}  # computer seats' time per move
        for pid, text in (seats or {}).items():
            try:
                kind, seconds = parse_seat(text)
            except ValueError as exc:
                raise ValueError(f"seat {pid!r}: {exc}") from None
            self.seats[str(pid)] = kind
            if seconds is not None:
                self.seconds[str(pid)] = seconds
        self.computer_playouts = computer_playouts
        self.computer_kernel = True
        """Whether the computer's searches play out on the numba kernel (a screen says False
        while it is not compiled yet: a first compile takes the interpreter for many seconds)."""
        self.proof: tuple[int, Proof] | None = None  # the computer's last proof, and where it holds
        self.board = board.to_json() if isinstance(board, Board) else board
        self.display_reset = display_reset
        self.undo_cap = max(1, undo_cap)
        self.engine = Engine(self.program)
        self.seed = 0
        self.solution: Solution | None = None
        self._line: list[tuple[int, dict[str, int]]] = []  # (choice, seat RNG states after it)
        self._made = 0  # how many of _line are on the board; the rest can be redone
        self._marks: dict[int, _Mark] = {}  # choices made → snapshot at that wait (or the end)
        self._rngs: dict[str, int] = {}  # random seats' SplitMix64 states, made on first use
        self._pending: int | None = None  # an AutoMove returned but not applied yet
        self.restart(seed)

    # -- set-up -----------------------------------------------------------------------------

    def restart(self, seed: int | None = None) -> None:
        """Start again, with the same seed by default; the engine object stays the same."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**53:
                raise ValueError(f"a seed is a whole number in [0, 2^53), not {seed!r}")
            self.seed = seed
        fresh = Engine(self.program)
        fresh.seed(self.seed)
        if self.board is not None:
            fresh.set_board(self.board)
        self.engine.restore(fresh.snapshot())
        self.solution = None
        self.proof = None
        self._line, self._made, self._marks, self._rngs, self._pending = [], 0, {}, {}, None

    def seat_of(self, pid: Any) -> str:
        """The seat kind of player ``pid`` (compared as a string; unlisted = human)."""
        return self.seats.get(str(pid), "human")

    def set_seat(self, pid: Any, seat: str) -> None:
        """Seat player ``pid`` anew mid-game (from the next wait on; undo marks stay as made).

        Raises:
            ValueError: ``seat`` is not a seat.
        """
        kind, seconds = parse_seat(seat)
        self.seats[str(pid)] = kind
        self.seconds.pop(str(pid), None)
        if seconds is not None:
            self.seconds[str(pid)] = seconds
        self._pending = None  # an automatic pick made for the old seat is not made
        mark = self._marks.get(self._made)
        engine = self.engine
        if mark is not None and mark.kind != "end" and str(engine.choice_player) == str(pid):
            # undo stops at human turns: this one is now the seat's new kind
            self._marks[self._made] = replace(mark, kind="human" if kind == "human" else "auto")

    # -- state ------------------------------------------------------------------------------

    @property
    def result(self) -> dict[str, Any] | None:
        """The game result (§7.8), ``None`` while running."""
        return self.engine.result

    @property
    def result_text(self) -> str:
        """The game-over sentence (§7.8), or ``"Game not over"``."""
        return _result_text(self.engine.result)

    @property
    def choices_made(self) -> list[int]:
        """Choice indices made so far on this line, first first (automatic seats included)."""
        return [index for index, _ in self._line[: self._made]]

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` has a human choice wait to return to."""
        return self._undo_target() is not None

    @property
    def can_redo(self) -> bool:
        """Whether :meth:`redo` has something to redo."""
        return self._made < len(self._line) or any(k > self._made for k in self._marks)

    def replay_data(self, game_sha256: str) -> dict[str, Any]:
        """The ``.btreplay.json`` content of the run so far (§4.5)."""
        return {
            "format": REPLAY_FORMAT,
            "version": 1,
            "game_sha256": game_sha256,
            "seed": self.seed,
            "board": self.board,
            "choices": self.choices_made,
            "result": self.engine.result,
        }

    # -- playing ----------------------------------------------------------------------------

    def advance(self, show_displays: bool = True, show_auto: bool = True, think: bool = True) -> Wait:
        """Run until something needs the outside world and return it.

        Automatic seats pick on their own: with ``show_auto`` the pick is returned as an
        :class:`AutoMove` and applied by the next call, else applied at once. With
        ``show_displays`` a display wait is returned (the caller waits, then calls
        :meth:`clear_display`); else it is cleared at once. Calling again without acting returns
        the same wait. A ``computer`` seat searches in place; with ``think`` False its turn is
        returned as :class:`Thinking` instead, for the caller to search elsewhere (a worker) and
        hand back to :meth:`play_computer`.
        """
        engine = self.engine
        while True:
            if self._pending is not None:
                index, self._pending = self._pending, None
                self._apply(index)
            engine.run_to_wait()
            if engine.result is not None:
                self._mark("end")
                return GameOver(dict(engine.result), self.result_text)
            if engine.waiting == "display":
                if show_displays:
                    return DisplayWait(_delay(engine.display_delay))
                self.clear_display()
                continue
            pid = str(engine.choice_player)
            seat = self.seat_of(pid)
            self._mark("human" if seat == "human" else "auto")
            if seat == "human":
                return ChoiceWait(pid, engine.choices)
            if seat == "computer" and not think:
                return Thinking(pid, self.computer_job())
            index, note = self._pick(pid, seat)
            if not show_auto:
                self._apply(index)
                continue
            self._pending = index
            return AutoMove(pid, seat, index, engine.choices[index], note)

    def choose(self, index: int) -> None:
        """Apply choice ``index`` at the current choice wait (also overrides a pending AutoMove).

        Raises:
            ValueError: no choice wait is pending.
            IndexError: ``index`` is out of range.
        """
        engine = self.engine
        if engine.waiting != "choice":
            raise ValueError("the game is not waiting for a choice")
        if not 0 <= index < len(engine.choices):
            raise IndexError(f"choice {index} out of range 0..{len(engine.choices) - 1}")
        self._pending = None
        self._mark("human" if self.seat_of(engine.choice_player) == "human" else "auto")
        self._apply(index)

    def clear_display(self) -> None:
        """End the pending display wait (resetting the step budget if ``display_reset``)."""
        self.engine.clear_display(reset=self.display_reset)

    def undo(self) -> bool:
        """Return to the previous human choice wait, skipping automatic moves; False if none."""
        target = self._undo_target()
        if target is None:
            return False
        self._go(target)
        return True

    def redo(self) -> bool:
        """Go forward along the undone line to the next human choice wait (or the end).

        If the undone line stops before any (undone mid-run), go as far as it was played.
        """
        ahead = [k for k in self._marks if k > self._made]
        stops = [k for k in ahead if self._marks[k].kind != "auto"]
        if stops:
            self._go(min(stops))
            return True
        if not ahead and self._made >= len(self._line):
            return False
        furthest = max(ahead, default=self._made)
        if furthest not in self._marks:
            return False
        self._go(furthest)
        if furthest < len(self._line) and self.engine.waiting == "choice":
            index, rngs = self._line[furthest]
            self.engine.choose(index)
            self._made = furthest + 1
            self._rngs = dict(rngs)
        return True

    # -- computer ---------------------------------------------------------------------------

    def computer_job(self) -> ComputerJob:
        """The search for the seat to move now (make it on the session's thread; run it anywhere)."""
        from studio.engines.btree.play.computer import ComputerJob

        pid = str(self.engine.choice_player)
        seconds = None if self.computer_playouts else self.seconds.get(pid, COMPUTER_SECONDS)
        job = ComputerJob.at(self, seconds, self.computer_playouts)
        job.kernel = self.computer_kernel
        return job

    def play_computer(self, job: ComputerJob) -> bool:
        """Make a finished job's move; False (nothing done) if the game has left its position."""
        engine = self.engine
        if (job.result is None or engine.waiting != "choice" or len(self.choices_made) != job.ply
                or str(engine.choice_player) != job.player
                or not 0 <= job.result.index < len(engine.choices)):
            return False
        self._pending = None
        self._mark("auto")
        self._keep_proof(job)
        self._apply(job.result.index)
        return True

    @property
    def proven(self) -> Proof | None:
        """The computer's proven result from the position reached now, if it proved one."""
        if self.proof is None or self.proof[0] != len(self.choices_made):
            return None
        return self.proof[1]

    def _keep_proof(self, job: ComputerJob) -> None:
        from studio.engines.btree.play.computer import after_move

        proof = after_move(job.result.proof if job.result is not None else None)
        self.proof = None if proof is None else (job.ply + 1, proof)

    # -- internals --------------------------------------------------------------------------

    def _pick(self, pid: str, seat: str) -> tuple[int, str]:
        count = len(self.engine.choices)
        if seat == "random":
            rng = SplitMix64(self._rngs[pid]) if pid in self._rngs else seat_rng(self.seed, pid)
            index = rng.below(count)
            self._rngs[pid] = rng.state
            return index, ""
        if seat == "computer":
            job = self.computer_job()
            found = job.run()
            self._keep_proof(job)
            return found.index, job.note
        if seat == "solver":
            index = self.solution_choice()
            if index is not None:
                return index, ""
            return 0, NO_SOLVER_LINE
        return 0, ""

    def _mark(self, kind: str) -> None:
        """Remember the state at this choice wait (or the end), once per position on the line."""
        if self._made in self._marks:
            return
        self._marks[self._made] = _Mark(self.engine.snapshot(), dict(self._rngs), kind)
        while len(self._marks) > self.undo_cap:
            del self._marks[min(self._marks)]

    def _apply(self, index: int) -> None:
        self.engine.choose(index)
        if self._made < len(self._line) and self._line[self._made][0] == index:
            self._line[self._made] = (index, dict(self._rngs))  # the same move: keep the redo line
        else:
            del self._line[self._made:]
            self._line.append((index, dict(self._rngs)))
            for key in [k for k in self._marks if k > self._made]:
                del self._marks[key]
        self._made += 1

    def _undo_target(self) -> int | None:
        earlier = [k for k, m in self._marks.items() if k < self._made and m.kind == "human"]
        return max(earlier, default=None)

    def _go(self, key: int) -> None:
        mark = self._marks[key]
        self.engine.restore(mark.snapshot)
        self._made = key
        self._rngs = dict(mark.rngs)
        self._pending = None

    # -- debugger companion (see debugger.Debugger) -------------------------------------------

    def debug_save(self) -> tuple[int, dict[str, int]]:
        """The session's own part of a debugger history entry."""
        return self._made, dict(self._rngs)

    def debug_load(self, saved: tuple[int, dict[str, int]]) -> None:
        """Follow the debugger back to an earlier state (the line beyond stays redoable)."""
        self._made, rngs = saved
        self._rngs = dict(rngs)
        self._pending = None


def _delay(value: Any) -> float:
    """A display delay in seconds; anything that is not a non-negative number counts as 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return 0.0
    return max(0.0, float(value))
