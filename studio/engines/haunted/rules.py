"""The turn rules of Haunted Tiles (spec haunted.md §5): pure, deterministic, no I/O.

``Round(map).initial_state()`` places the monsters; ``step(state, moves_home, moves_away)``
applies one turn of already validated moves (§5.2 steps 4-7) and returns the new state and what
happened. States are immutable; a step copies the board once (O(board)).

Monsters are numbered 0..5 inside the engine: home 0, 1, 2 then away 0, 1, 2 - the processing
order of every phase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from studio.engines.haunted.board import SIDES, Coord, Map, digest

DELTAS: dict[str, Coord] = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
MOVES = ("north", "south", "east", "west", "none")
"""The five answers an AI may give for a monster; ``none`` is a jump in place."""
_MONSTERS = tuple((k, SIDES[k // 3], k % 3, k // 3) for k in range(6))
"""(engine number, side, index in the team, team number) in processing order."""
_new = tuple.__new__
"""Builds event tuples without the named tuples' Python-level ``__new__`` (2x faster; the hot
path makes up to a dozen events per turn). Field order must match the class definitions."""

# Death causes.
BROKE_TILE = "broke_tile"
"""Its own hit brought the tile to 0."""
BROKEN_TILE = "broken_tile"
"""It stepped onto a tile that was already broken."""
OFF_BOARD = "off_board"
"""It stepped off the board."""
PURGE = "purge"
"""It stood on a broken tile at the end of the turn (§5.2 step 6)."""

# Round end reasons decided by the rules (the referee adds ai_failure and both_failed).
ELIMINATED, TIEBREAK, TIE = "eliminated", "tiebreak", "tie"


class Hit(NamedTuple):
    """A monster's action lowered a tile (or landed on a hole: ``before == after == 0``)."""

    side: str
    index: int
    tile: Coord
    before: int
    after: int
    action: str
    """``jump`` or ``step``."""


class Death(NamedTuple):
    side: str
    index: int
    pos: Coord
    """Where it died: its tile, or the off-board cell it stepped to."""
    cause: str


class RoundEnd(NamedTuple):
    winner: str | None
    """``home``, ``away`` or None for a tie."""
    reason: str
    broken: tuple[int, int]
    turns: int


Event = Hit | Death | RoundEnd


class RoundState(NamedTuple):
    """Everything about a round between two turns. Immutable: ``step`` returns a new one.

    A named tuple rather than a frozen dataclass: a new state is made every turn, and tuple
    construction is several times cheaper (the engine's hot path).
    """

    size: int
    strengths: tuple[int, ...]
    """Row-major, ``strengths[row * size + col]``."""
    positions: tuple[Coord, ...]
    """Home 0..2 then away 0..2; a dead monster keeps where it died (maybe off the board)."""
    alive: tuple[bool, ...]
    broken: tuple[int, int]
    """Hits by home's and away's monsters that lowered a tile (§6.1)."""
    turn: int
    """The turn about to be played (1-based); after the end, the last turn played."""
    max_turns: int
    """The bound of §5.4 for this board."""
    end: RoundEnd | None = None

    @property
    def over(self) -> bool:
        return self.end is not None

    def strength(self, row: int, col: int) -> int:
        return self.strengths[row * self.size + col]

    def living(self, side: str) -> list[bool]:
        """Alive flags of one team's monsters 0..2."""
        base = 3 * SIDES.index(side)
        return list(self.alive[base:base + 3])

    def board_sha256(self) -> str:
        return digest(self.size, self.strengths, self.positions, self.alive)


def label(k: int) -> str:
    """``H0``..``H2``, ``A0``..``A2`` for engine monster ``k``."""
    return ("H", "A")[k // 3] + str(k % 3)


class Round:
    """One round on one map. The rules use no randomness; ``seed`` is kept for the record."""

    def __init__(self, board: Map, seed: int | None = None) -> None:
        self.map = board
        self.seed = seed

    def initial_state(self) -> RoundState:
        """Monsters on their start tiles, alive; placing them hits nothing (§5.1)."""
        return RoundState(
            size=self.map.size,
            strengths=self.map.strengths,
            positions=self.map.starts,
            alive=(True,) * 6,
            broken=(0, 0),
            turn=1,
            max_turns=self.map.max_turns(),
        )

    def step(
        self,
        state: RoundState,
        moves_home: Sequence[str | None],
        moves_away: Sequence[str | None],
        *,
        record: bool = True,
    ) -> tuple[RoundState, list[Event]]:
        """See :func:`step`."""
        return step(state, moves_home, moves_away, record=record)


def step(
    state: RoundState,
    moves_home: Sequence[str | None],
    moves_away: Sequence[str | None],
    *,
    record: bool = True,
) -> tuple[RoundState, list[Event]]:
    """Apply one turn of validated moves (§5.2 steps 4-7).

    Args:
        state: the state before the turn; left untouched.
        moves_home: three entries, one per home monster; entries of dead monsters are ignored
            (the referee passes None), living monsters need one of :data:`MOVES`.
        moves_away: likewise for away.
        record: False skips building events (bulk simulation); the round end is still
            reported, as the only event and in ``state.end``.

    Returns:
        The state after the turn and its events in the order they happened: jumps, steps,
        purge deaths, then a :class:`RoundEnd` when the round is over.

    Raises:
        ValueError: the round is over, or a living monster has no valid move.
        AssertionError: the round outlived the bound of §5.4 (an engine bug).
    """
    if state.end is not None:
        raise ValueError("the round is over")
    if len(moves_home) != 3 or len(moves_away) != 3:
        raise ValueError("step() needs three moves per side (None for dead monsters)")
    n = state.size
    tiles = list(state.strengths)
    positions = list(state.positions)
    alive = list(state.alive)
    broken = [state.broken[0], state.broken[1]]
    events: list[Event] = []
    add = events.append
    moves = (*moves_home, *moves_away)

    # One loop per phase, hits inlined (this is the hot path). A hit on a tile of strength >= 1
    # lowers it and counts for the team, killing the hitter when it reaches 0; a hit on a hole
    # (a step onto one, or a jump on a tile another jump broke this turn) kills without counting. Bad moves raise before anything is
    # returned, so the caller's state is never half-updated (we work on copies).
    # Jumps land before steps (the original's jump hit at t = 1 s, steps at t = 2 s).
    for k, side, index, team in _MONSTERS:
        if alive[k] and moves[k] == "none":
            row, col = positions[k]
            i = row * n + col
            before = tiles[i]  # >= 1 unless a monster that jumped earlier this turn broke it
            if before:
                tiles[i] = before - 1
                broken[team] += 1
                if record:
                    add(_new(Hit, (side, index, (row, col), before, before - 1, "jump")))
                if before == 1:
                    alive[k] = False
                    if record:
                        add(_new(Death, (side, index, (row, col), BROKE_TILE)))
            else:  # two jumps on one tile are two steps into it (§5.3): the second finds a hole
                alive[k] = False
                if record:
                    add(_new(Hit, (side, index, (row, col), 0, 0, "jump")))
                    add(_new(Death, (side, index, (row, col), BROKEN_TILE)))
    for k, side, index, team in _MONSTERS:
        move = moves[k]
        if alive[k] and move != "none":
            delta = DELTAS.get(move)  # type: ignore[arg-type]
            if delta is None:
                raise ValueError(f"{label(k)} is alive and needs a move, got {move!r}")
            row, col = positions[k][0] + delta[0], positions[k][1] + delta[1]
            positions[k] = (row, col)
            if 0 <= row < n and 0 <= col < n:
                i = row * n + col
                before = tiles[i]
                if before:
                    tiles[i] = before - 1
                    broken[team] += 1
                    if record:
                        add(_new(Hit, (side, index, (row, col), before, before - 1, "step")))
                    if before == 1:
                        alive[k] = False
                        if record:
                            add(_new(Death, (side, index, (row, col), BROKE_TILE)))
                else:
                    alive[k] = False
                    if record:
                        add(_new(Hit, (side, index, (row, col), 0, 0, "step")))
                        add(_new(Death, (side, index, (row, col), BROKEN_TILE)))
            else:
                alive[k] = False
                if record:
                    add(_new(Death, (side, index, (row, col), OFF_BOARD)))
    for k in range(6):
        if alive[k]:
            row, col = positions[k]
            if tiles[row * n + col] == 0:
                alive[k] = False
                if record:
                    add(_new(Death, (SIDES[k // 3], k % 3, (row, col), PURGE)))

    home_alive = alive[0] or alive[1] or alive[2]
    away_alive = alive[3] or alive[4] or alive[5]
    end = None
    turn = state.turn
    if not (home_alive and away_alive):
        counts = (broken[0], broken[1])
        if home_alive or away_alive:
            end = RoundEnd("home" if home_alive else "away", ELIMINATED, counts, turn)
        elif counts[0] != counts[1]:
            end = RoundEnd("home" if counts[0] > counts[1] else "away", TIEBREAK, counts, turn)
        else:
            end = RoundEnd(None, TIE, counts, turn)
        add(end)
    else:
        turn += 1
        if turn > state.max_turns:
            raise AssertionError(f"round longer than its bound of {state.max_turns} turns")
    new_state = RoundState(
        n, tuple(tiles), tuple(positions), tuple(alive), (broken[0], broken[1]), turn,
        state.max_turns, end,
    )
    return new_state, events


def describe(event: Event) -> str:
    """One line for the log and the replay, e.g. ``H0 hit (1,0) 3→2``."""
    if isinstance(event, Hit):
        who = ("H", "A")[SIDES.index(event.side)] + str(event.index)
        r, c = event.tile
        if event.before == 0:
            how = "jumped on" if event.action == "jump" else "stepped into"
            return f"{who} {how} the hole at ({r},{c})"
        return f"{who} {'jumped on' if event.action == 'jump' else 'hit'} ({r},{c}) {event.before}→{event.after}"
    if isinstance(event, Death):
        who = ("H", "A")[SIDES.index(event.side)] + str(event.index)
        r, c = event.pos
        return {
            BROKE_TILE: f"{who} broke ({r},{c}) and fell",
            BROKEN_TILE: f"{who} fell into the hole at ({r},{c})",
            OFF_BOARD: f"{who} walked off the board to ({r},{c})",
            PURGE: f"{who} fell with the broken tile ({r},{c})",
        }[event.cause]
    winner = event.winner or "nobody"
    return f"round over after {event.turns} turns: {winner} wins ({event.reason}), broken {event.broken[0]}-{event.broken[1]}"
