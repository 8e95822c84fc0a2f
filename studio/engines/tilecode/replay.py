"""Replays (spec tilecode.md §4.4): a run as (seed, input log) plus the outcome it had.

A run is fully determined by (project, seed, input log), so a replay stores only the button
sets that were not empty and the result to check against. Reading and writing the TOML file is
storage's business (:mod:`studio.storage.tilecode.replay`); this module is pure.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studio.engines.common.limits import MAX_REPLAY_ROUNDS

from .errors import TilecodeError
from .model import BUTTONS

RESULTS = ("won", "lost", "stopped")
"""How a run ended: the game's own end, or stopped while still playing."""
MAX_SEED = 1 << 63

Buttons = tuple[str, ...]


def canonical_buttons(buttons: Iterable[str] | str) -> Buttons:
    """A button set in the canonical order ``left up right down A``, repeats removed.

    Args:
        buttons: button names, or one string of names separated by spaces (``"up A"``).

    Returns:
        The set as a tuple in canonical order (empty for no button).

    Raises:
        TilecodeError: a name that is not a button (B is not a rule button).
    """
    if isinstance(buttons, str):
        buttons = buttons.split()
    given = set()
    for name in buttons:
        if name not in BUTTONS:
            raise TilecodeError(f"unknown button {name!r}: use {' '.join(BUTTONS)}")
        given.add(name)
    return tuple(name for name in BUTTONS if name in given)


@dataclass(frozen=True)
class Replay:
    """A recorded run: what to feed the engine and what it must come to.

    ``inputs`` lists ``(round index, buttons)`` in ascending round order, only for rounds that
    had buttons; round 0 never has any (§6.1), so indices run from 1 to ``rounds - 1``.
    """

    project: str
    """The project file name when recorded (informative)."""
    project_sha256: str
    """Hex SHA-256 of the canonical project text, to notice a project edited since."""
    seed: int
    rounds: int
    """Rounds executed, round 0 included."""
    result: str
    """``won``, ``lost`` or ``stopped``."""
    score: int
    inputs: tuple[tuple[int, Buttons], ...] = ()

    def __post_init__(self) -> None:
        # Storage reports file errors with lines first; this guards replays built in code.
        if not isinstance(self.seed, int) or not 0 <= self.seed < MAX_SEED:
            raise TilecodeError(f"seed must be an integer in [0, 2^63): {self.seed!r}")
        if not isinstance(self.rounds, int) or not 0 <= self.rounds <= MAX_REPLAY_ROUNDS:
            raise TilecodeError(f"rounds must be 0 to {MAX_REPLAY_ROUNDS}: {self.rounds!r}")
        if self.result not in RESULTS:
            raise TilecodeError(f"result must be one of {', '.join(RESULTS)}: {self.result!r}")
        previous = 0
        for index, buttons in self.inputs:
            if not previous < index < self.rounds:
                raise TilecodeError(
                    f"input round {index} is out of order or outside 1..{self.rounds - 1}")
            if not buttons or canonical_buttons(buttons) != tuple(buttons):
                raise TilecodeError(
                    f"input round {index}: buttons {buttons!r} are not a canonical non-empty set")
            previous = index

    @classmethod
    def from_rounds(cls, project: str, project_sha256: str, seed: int,
                    rounds: Sequence[Iterable[str]], result: str, score: int) -> Replay:
        """A replay from the button set of every round run (index = round index).

        Args:
            project: the project file name (informative).
            project_sha256: hex SHA-256 of the canonical project text.
            seed: the run seed.
            rounds: one button set per round executed, round 0 first.
            result: won, lost or stopped.
            score: the final score.

        Returns:
            The replay; ``rounds`` is ``len(rounds)`` and empty sets are left out.

        Raises:
            TilecodeError: an unknown button, a button in round 0, or a bad field.
        """
        inputs = []
        for index, buttons in enumerate(rounds):
            canonical = canonical_buttons(buttons)
            if canonical:
                if index == 0:
                    raise TilecodeError("round 0 runs with no buttons (§6.1)")
                inputs.append((index, canonical))
        return cls(project, project_sha256, seed, len(rounds), result, score, tuple(inputs))

    def buttons(self, round_index: int) -> Buttons:
        """The button set of one round.

        Args:
            round_index: the round, 0 = the automatic first round.

        Returns:
            Its buttons in canonical order; empty when it had none or is past the end.
        """
        # (k,) sorts before every (k, buttons): a binary search keeps viewer stepping cheap.
        at = bisect_left(self.inputs, (round_index,))
        if at < len(self.inputs) and self.inputs[at][0] == round_index:
            return self.inputs[at][1]
        return ()

    def input_list(self) -> list[Buttons]:
        """The input log in full.

        Returns:
            One button set per round, index = round index ``0 .. rounds - 1``.
        """
        out: list[Buttons] = [()] * self.rounds
        for index, buttons in self.inputs:
            out[index] = buttons
        return out


@dataclass(frozen=True)
class Verdict:
    """A replayed run compared with its recording."""

    ok: bool
    result: str
    score: int
    rounds: int
    expected_result: str
    expected_score: int
    expected_rounds: int
    message: str
    """One line in words, e.g. ``replay verified: won, score 120, 240 rounds``."""


def _ending(result: str, score: int, rounds: int) -> str:
    """How a run ended, in words: "stopped" is a run the inputs ran out on while it went on."""
    how = "still running" if result == "stopped" else result
    return f"{how}, score {score}, {rounds} rounds"


def verify_outcome(replay: Replay, result: str, score: int, rounds: int) -> Verdict:
    """Compare a replayed run's end with the replay's record.

    Args:
        replay: the recording.
        result: won, lost or stopped, as the replayed run ended.
        score: its final score.
        rounds: rounds it executed (round 0 included).

    Returns:
        The verdict; a mismatch means the engine or the project changed since recording.
    """
    ok = (result, score, rounds) == (replay.result, replay.score, replay.rounds)
    got = _ending(result, score, rounds)
    if ok:
        message = f"replay verified: {got}"
    else:
        recorded = _ending(replay.result, replay.score, replay.rounds)
        message = (f"replay mismatch: recorded {recorded}; replayed {got} "
                   "(the engine or the project changed since recording)")
    return Verdict(ok, result, score, rounds, replay.result, replay.score, replay.rounds, message)
