"""What the AIs see and what their answers mean (spec haunted.md §7.1, §7.2). Pure.

:func:`game_state` builds the snapshot in the original data shape; :func:`interpret` turns an
answer (a JSON value) into one move per monster, or a ``bad_shape`` failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.engines.haunted.rules import MOVES, RoundState

_MOVE_SET = frozenset(MOVES)


def game_state(state: RoundState) -> dict[str, Any]:
    """The §7.1 snapshot; a new object on every call, so each AI may keep or mutate its own."""
    n = state.size
    tiles = state.strengths
    teams = []
    for base in (0, 3):
        teams.append([
            {"coord": [state.positions[k][0], state.positions[k][1]], "isDead": not state.alive[k]}
            for k in range(base, base + 3)
        ])
    return {
        "boardSize": [n, n],
        "tileStates": [list(tiles[r * n:(r + 1) * n]) for r in range(n)],
        "teamStates": {"home": teams[0], "away": teams[1]},
    }


@dataclass
class Interpretation:
    """An answer read against the team's living monsters."""

    moves: list[str | None] | None
    """One entry per monster (None for dead ones); None when the answer is unusable."""
    error: str = ""
    """Why the answer is a ``bad_shape`` failure (when ``moves`` is None)."""
    warnings: list[str] = field(default_factory=list)
    """Unknown directions that became jumps, naming team, turn, monster and value."""


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def interpret(answer: Any, alive: list[bool], team: str, turn: int) -> Interpretation:
    """Read an AI's answer (§7.2).

    Args:
        answer: the value ``main`` returned, as received (tuples count as lists).
        alive: alive flags of the team's monsters 0..2.
        team: how warnings name the team, e.g. ``"Greedy Ghosts (home)"``.
        turn: the turn number, for warnings.

    Returns:
        The per-monster moves, or ``moves=None`` with the ``bad_shape`` reason.
    """
    living = [i for i in range(3) if alive[i]]
    if not isinstance(answer, (list, tuple)):
        return Interpretation(None, f"expected a list of moves, got {_kind(answer)}")
    if len(answer) == 3:
        pairs = [(i, answer[i]) for i in living]
    elif len(answer) == len(living):
        pairs = list(zip(living, answer))
    else:
        expected = "3" if len(living) == 3 else f"3 or {len(living)}"
        return Interpretation(
            None, f"expected a list of {expected} moves, got a list of {len(answer)}"
        )
    moves: list[str | None] = [None, None, None]
    warnings = []
    for i, value in pairs:
        if isinstance(value, str) and value in _MOVE_SET:
            moves[i] = value
        else:
            moves[i] = "none"
            warnings.append(
                f"{team}, turn {turn}, monster {i}: unknown move {value!r}, jumping instead"
            )
    return Interpretation(moves, warnings=warnings)
