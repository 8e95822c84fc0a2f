"""Play sessions (spec tilecode.md §6.1, §8.10): the headless twin of the play screen.

:class:`PlaySession` is what the play screen drives: keys call :meth:`PlaySession.press`, the
round timer calls :meth:`PlaySession.step`; the screen only renders. :class:`ReplayRun` plays a
:class:`~.replay.Replay` back for the viewer through the very same session, so play, the
viewer and ``studio run`` cannot drift apart. Time is never read here.
"""

from __future__ import annotations

from .engine import TilecodeGame, load
from .errors import TilecodeError
from .events import Event
from .model import Game
from .replay import Buttons, Replay, Verdict, canonical_buttons, verify_outcome
from .state import State


def result_of(state: State) -> str:
    """How a run stands as a replay result.

    Args:
        state: the last state of the run.

    Returns:
        ``won`` or ``lost`` once the game ended, else ``stopped``.
    """
    return state.status if state.status != "play" else "stopped"


class PlaySession:
    """One play run: the current state, the round's events and the input log so far.

    The constructor runs round 0 at once with no buttons, as play does (§6.1).

    Args:
        game: the game to play.
        seed: the run seed, an integer in [0, 2^63).
        engine: a loaded engine for ``game`` to reuse (loaded when None).
        record: keep each round's events (False for fast headless runs: ``events`` stays empty).

    Raises:
        TilecodeError: the game cannot run, or the seed is out of range.
    """

    def __init__(self, game: Game, seed: int, engine: TilecodeGame | None = None,
                 record: bool = True) -> None:
        self.game = game
        self.engine = engine if engine is not None else load(game)
        self.record = record
        self._seed = seed
        self.restart(seed)

    # --- state ------------------------------------------------------------------------------

    @property
    def seed(self) -> int:
        """The seed of the current run."""
        return self._seed

    @property
    def state(self) -> State:
        """The state after the last round run."""
        return self._state

    @property
    def previous(self) -> State:
        """The state before the last round run (the initial state after a (re)start)."""
        return self._previous

    @property
    def events(self) -> list[Event]:
        """Events of the last round run, in execution order (empty when not recording)."""
        return list(self._events)

    @property
    def inputs(self) -> list[Buttons]:
        """The button set of every round run so far; index = round index (round 0: none)."""
        return list(self._inputs)

    @property
    def pending(self) -> Buttons:
        """Buttons pressed since the last round, in canonical order."""
        return canonical_buttons(self._pending)

    @property
    def over(self) -> bool:
        """The game was won or lost; no more rounds can run."""
        return self._state.status != "play"

    @property
    def result(self) -> str:
        """``won`` or ``lost`` once over, ``stopped`` while still playing."""
        return result_of(self._state)

    # --- actions ----------------------------------------------------------------------------

    def press(self, button: str) -> None:
        """Add a button to the next round's set; pressing it again changes nothing (§6.1).

        Args:
            button: left, up, right, down or A.

        Raises:
            TilecodeError: not one of left, up, right, down, A.
        """
        self._pending.update(canonical_buttons((button,)))

    def step(self) -> list[Event]:
        """Run one round with the pending buttons, which it consumes.

        Returns:
            The round's events (empty when not recording).

        Raises:
            TilecodeError: the game is over.
        """
        if self.over:
            raise TilecodeError(f"the game is over ({self._state.status}): restart to play again")
        buttons = self.pending
        self._run(buttons)
        return self.events

    def restart(self, seed: int | None = None) -> None:
        """Start again from the initial state and run round 0.

        Args:
            seed: the new run seed; None keeps the current one (the play screen's ``r``).

        Raises:
            TilecodeError: the seed is out of range.
        """
        seed = self._seed if seed is None else seed
        initial = self.engine.initial_state(seed)
        self._seed = seed
        self._inputs: list[Buttons] = []
        self._pending: set[str] = set()
        self._state = initial
        self._run(())

    def replay(self, project_name: str, project_sha256: str) -> Replay:
        """The run so far as a replay.

        Args:
            project_name: the project file name (informative).
            project_sha256: hex SHA-256 of the canonical project text.

        Returns:
            A replay whose playback reproduces this run.
        """
        return Replay.from_rounds(project_name, project_sha256, self._seed, self._inputs,
                                  self.result, self._state.score)

    def _run(self, buttons: Buttons) -> None:
        self._previous = self._state
        self._state, self._events = self.engine.step(self._state, buttons, record=self.record)
        self._inputs.append(buttons)
        self._pending.clear()


class ReplayRun:
    """A replay played back for the viewer: any position, forwards or backwards.

    Position ``k`` is the state after ``k`` rounds (``state_at(k).round == k``); position 0 is
    the initial state before round 0. Positions are computed on first use and kept, so stepping
    through the replay costs one round per new position.

    Args:
        game: the game the replay was recorded on.
        replay: the recording.
        engine: a loaded engine for ``game`` to reuse (loaded when None).

    Raises:
        TilecodeError: the game cannot run, or the replay's seed is out of range.
    """

    def __init__(self, game: Game, replay: Replay, engine: TilecodeGame | None = None) -> None:
        self.game = game
        self.replay = replay
        self._session = PlaySession(game, replay.seed, engine)
        self.engine = self._session.engine
        self._states: list[State] = [self._session.previous]
        self._events: list[list[Event]] = [[]]
        self._last: int | None = None
        if replay.rounds >= 1:
            self._keep()

    @property
    def last(self) -> int:
        """The final position: ``replay.rounds``, or earlier if the game ended before."""
        while self._last is None:
            self._advance()
        return self._last

    def state_at(self, position: int) -> State:
        """The state after ``position`` rounds.

        Args:
            position: 0 (the initial state) to :attr:`last`.

        Returns:
            The state, with ``round == position``.

        Raises:
            TilecodeError: the position is outside ``0 .. last``.
        """
        self._reach(position)
        return self._states[position]

    def events_at(self, position: int) -> list[Event]:
        """Events of the round that led to ``position``.

        Args:
            position: 0 to :attr:`last`.

        Returns:
            That round's events in execution order; none for position 0.

        Raises:
            TilecodeError: the position is outside ``0 .. last``.
        """
        self._reach(position)
        return list(self._events[position])

    def buttons_at(self, position: int) -> Buttons:
        """The buttons of the round that led to ``position``.

        Args:
            position: a position; round ``position - 1`` led to it.

        Returns:
            Its button set (always empty for positions 0 and 1).
        """
        return self.replay.buttons(position - 1) if position > 0 else ()

    def verify(self) -> Verdict:
        """Play to the end and compare the result, score and rounds with the recording.

        Returns:
            The verdict; ``ok`` False means the engine or the project changed since recording.
        """
        final = self.state_at(self.last)
        return verify_outcome(self.replay, result_of(final), final.score, final.round)

    def _reach(self, position: int) -> None:
        if not isinstance(position, int) or position < 0:
            raise TilecodeError(f"no position {position!r} in this replay")
        while position >= len(self._states) and self._last is None:
            self._advance()
        if position >= len(self._states):
            raise TilecodeError(f"no position {position} in this replay: it ends at {self._last}")

    def _advance(self) -> None:
        count = len(self._states) - 1  # rounds run so far
        if count >= self.replay.rounds or self._states[-1].over:
            self._last = count
            return
        for button in self.replay.buttons(count):
            self._session.press(button)
        self._session.step()
        self._keep()

    def _keep(self) -> None:
        self._states.append(self._session.state)
        self._events.append(self._session.events)
