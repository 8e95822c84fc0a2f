"""Stepping through a saved play run (``.btreplay.json``): the game replayed choice by choice.

Every seat is played as a human here: the run's choices (automatic players' included) are made
as recorded, so a random seat cannot pick anew. Back is the session's undo, one choice a step.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studio.engines.btree.model.text import result_text
from studio.engines.btree.play.session import PlaySession
from studio.engines.btree.play.waits import ChoiceWait, Wait


class ReplayMismatch(Exception):
    """The recorded choice is not offered: the game is not the one the run was played on."""


class ReplayRun:
    """A game at one point of a recorded run: ``position`` choices made, ``wait`` what it
    waits for there (the next choice, or the end)."""

    def __init__(self, compiled: Any, seed: int, choices: Sequence[int],
                 board: Mapping[str, Any] | None = None) -> None:
        self.session = PlaySession(compiled, seed, {}, board)
        self.choices = tuple(choices)
        self.position = 0
        self.wait: Wait = self.session.advance(show_displays=False)

    @property
    def next_choice(self) -> int | None:
        """The choice the run made here (None at its end)."""
        return self.choices[self.position] if self.position < len(self.choices) else None

    @property
    def at_end(self) -> bool:
        return self.next_choice is None or not isinstance(self.wait, ChoiceWait)

    def step(self, delta: int) -> int:
        """Go ``delta`` choices forwards (or back); returns how many were gone.

        Raises:
            ReplayMismatch: a recorded choice is not among those offered.
        """
        gone = 0
        while delta > gone and not self.at_end:
            index = self.next_choice
            if not 0 <= index < len(self.session.engine.choices):
                raise ReplayMismatch(
                    f"move {self.position + 1} of the run was choice {index + 1}, but only "
                    f"{len(self.session.engine.choices)} are offered: the game changed since")
            self.session.choose(index)
            self.position += 1
            self.wait = self.session.advance(show_displays=False)
            gone += 1
        while -delta > gone and self.position > 0 and self.session.undo():
            self.position -= 1
            self.wait = self.session.advance(show_displays=False)
            gone += 1
        return gone

    def go_to(self, position: int) -> None:
        """Go to ``position`` choices made (clamped to the run)."""
        self.step(position - self.position)


@dataclass(frozen=True)
class Verdict:
    """Whether a run plays back as recorded, and what to tell the user."""

    ok: bool
    message: str


def verify_run(compiled: Any, seed: int, choices: Sequence[int],
               board: Mapping[str, Any] | None, result: Mapping[str, Any] | None) -> Verdict:
    """Play a recorded run through again and compare how it ends with how it ended then: a
    replay of a game edited since may offer other moves, run out of moves early or end
    otherwise."""
    run = ReplayRun(compiled, seed, choices, board)
    try:
        run.step(len(run.choices))
    except ReplayMismatch as exc:
        return Verdict(False, str(exc))
    if run.position < len(run.choices):
        return Verdict(False, f"the game ends after move {run.position}; the run made "
                              f"{len(run.choices)}")
    ended = run.session.engine.result
    # Compared as saved: the recorded result went through JSON (tuples became lists).
    if json.loads(json.dumps(ended)) != (json.loads(json.dumps(result)) if result else None):
        now = result_text(ended) if ended else "not finished"
        then = result_text(result) if result else "not finished"
        return Verdict(False, f"it ends otherwise: {now} (recorded: {then})")
    return Verdict(True, f"plays back the same to its end ({len(run.choices)} moves)")
