"""The TileCode round VM (spec tilecode.md §6): ``load`` a game, then ``step`` states.

    from studio.engines.tilecode.engine import load, dump_state
    tg = load(game)
    state = tg.initial_state(seed=7)
    state2, events = tg.step(state, buttons=("right",))

States are immutable values; ``step`` never mutates its input, so a snapshot is just a
reference. ``load(game, reference=True)`` runs the plain-Python reference path (linear scans,
literal §6.4) that the tests hold the fast path against.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..common.splitmix import SplitMix64
from .checks import check_runnable
from .commit import commit
from .compiled import CView
from .errors import TilecodeError
from .events import Event
from .execute import Round
from .fastcommit import commit_np
from .fastpath import VECTOR_MIN, BackgroundCache, FastWorld
from .model import BUTTONS, Game
from .smash import run_smash
from .state import State, dump_state, initial_state
from .views import View, derive_views
from .world import ReferenceWorld

__all__ = ["TilecodeGame", "load", "dump_state", "State", "TilecodeError"]


class TilecodeGame:
    """A loaded game: compiled views and indexes; makes and steps states."""

    def __init__(self, game: Game, reference: bool = False,
                 vector_min: int = VECTOR_MIN) -> None:
        check_runnable(game)
        self.game = game
        self.reference = reference
        self.vector_min = vector_min
        """Candidates from which the fast path tests views with numpy (tests force 0)."""
        self.views: list[View] = []
        """Every view of every enabled rule after de-duplication, by rule id then view order."""
        self.never: list[CView] = []
        self.press: dict[int, list[CView]] = {}
        self.change: dict[int, list[CView]] = {}
        self.smash: dict[tuple[int, int], list[CView]] = {}
        rules = sorted((r for r in game.rules if r.enabled), key=lambda r: r.id)
        for position, rule in enumerate(rules):
            for index, view in enumerate(derive_views(rule)):
                self.views.append(view)
                cv = CView(view, (position, index))
                if rule.type == "never":
                    self.never.append(cv)
                elif rule.type == "smash":
                    for kind in cv.kinds:
                        self.smash.setdefault((kind, cv.smash_dir), []).append(cv)
                else:
                    table = self.press if rule.type == "press" else self.change
                    for kind in cv.kinds:
                        table.setdefault(kind, []).append(cv)
        self._cache = BackgroundCache()

    def initial_state(self, seed: int = 0) -> State:
        """The state before round 0 (changed map all true). ``seed`` in [0, 2^63)."""
        return initial_state(self.game, seed)

    def step(self, state: State, buttons: Iterable[str] = (), record: bool = True
             ) -> tuple[State, list[Event]]:
        """Run one round.

        Args:
            state: the state before the round (left untouched).
            buttons: the round's button set, a subset of left, up, right, down, A (a string
                such as ``"up A"`` is split on spaces and ``+``).
            record: build the event list (False skips it, for benchmarks and batch runs).

        Returns:
            The next state and the round's events in execution order.

        Raises:
            TilecodeError: the game is already over, or an unknown button.
        """
        if state.status != "play":
            raise TilecodeError(f"the game is over ({state.status})")
        if isinstance(buttons, str):  # "up A" or "up+A" for convenience
            buttons = buttons.replace("+", " ").split()
        pressed = frozenset(buttons)
        unknown = pressed - set(BUTTONS)
        if unknown:
            raise TilecodeError(f"unknown button(s) {sorted(unknown)}: use {', '.join(BUTTONS)}")
        if self.reference:
            world: ReferenceWorld | FastWorld = ReferenceWorld(state)
        else:
            world = FastWorld(state, self._cache, self.vector_min)
        rnd = Round(world, SplitMix64(state.rng), record)
        blocked = state.blocked
        kinds = state.kinds

        # Phase 0: never rules (blocked kinds do not matter).
        for cv in self.never:
            if world.never_fires(cv):
                rnd.fire("never", cv, None, ())

        # Phase 1: press rules; a sprite whose press view held gets no change rules.
        if pressed and self.press:
            slots = [i for i in range(world.n)
                     if kinds[i] in self.press and kinds[i] not in blocked]
            for slot, cv, bound in world.matches(slots, self.press, pressed):
                rnd.press_matched.add(slot)
                rnd.fire("press", cv, slot, bound)

        # Phase 2: change rules for sprites whose neighbourhood changed last round.
        if self.change:
            slots = [i for i in range(world.n) if kinds[i] in self.change
                     and kinds[i] not in blocked and i not in rnd.press_matched]
            if not self.reference and len(slots) >= self.vector_min:
                near = world.changed_near_all()
                slots = [i for i in slots if near[i]]
            else:
                slots = [i for i in slots if world.changed_near(i)]
            for slot, cv, bound in world.matches(slots, self.change, None):
                rnd.fire("change", cv, slot, bound)

        rnd.resolve_moves()
        if self.smash and rnd.pending:
            run_smash(rnd, self.smash, blocked, indexed=not self.reference)
        if self.reference:
            return commit(rnd), rnd.events
        new = commit_np(rnd) if world.n >= self.vector_min else commit(rnd)
        self._cache.advance(state.bg, new.bg, rnd.painted)
        return new, rnd.events


def load(game: Game, reference: bool = False, vector_min: int = VECTOR_MIN) -> TilecodeGame:
    """Compile a game for running.

    Args:
        game: the game model.
        reference: use the plain-Python reference path instead of the fast path.
        vector_min: fast path only: candidate count from which views are tested with numpy.

    Raises:
        TilecodeError: the game cannot be run (broken map, unsupported or misplaced commands).
    """
    return TilecodeGame(game, reference, vector_min)
