"""Run-time state (spec tilecode.md §3.5): an immutable value, so snapshots are free.

Sprites are stored column-wise (ids, kinds, xs, ys, dirs; ascending id) and the background as a
flat row-major tuple; a round shares every column it does not change with the previous state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .model import DIRECTIONS, Game

DIR_NAMES = (*DIRECTIONS, "resting")
"""Sprite ``dir`` codes: 0..3 the directions (clockwise from left), 4 resting."""
RESTING = 4


class Sprite(NamedTuple):
    """A live sprite as the API shows it."""

    id: int
    kind: int
    x: int
    y: int
    dir: str


@dataclass(frozen=True)
class State:
    """Everything a round reads; ``step`` returns a new one and never mutates its input."""

    round: int
    """Index of the next round to run (0 = the automatic first round)."""
    status: str
    """``play``, ``won`` or ``lost``."""
    score: int
    high_score: int
    width: int
    height: int
    bg: tuple[int, ...]
    """Background kind per tile, flat row-major (index ``y * width + x``)."""
    ids: tuple[int, ...]
    kinds: tuple[int, ...]
    xs: tuple[int, ...]
    ys: tuple[int, ...]
    dirs: tuple[int, ...]
    """Direction codes (:data:`DIR_NAMES`) of each sprite: how it moved last round."""
    changed: frozenset[int] | None
    """Flat indices of tiles changed by the previous commit; None = all (before round 0)."""
    blocked: frozenset[int]
    """Sprite kinds blocked in the next round."""
    rng: int
    """SplitMix64 state."""
    next_id: int

    @property
    def background(self) -> tuple[tuple[int, ...], ...]:
        """Rows of background kinds: ``background[y][x]``."""
        w = self.width
        return tuple(self.bg[y * w:(y + 1) * w] for y in range(self.height))

    @property
    def sprites(self) -> tuple[Sprite, ...]:
        """Live sprites in ascending id."""
        return tuple(
            Sprite(i, k, x, y, DIR_NAMES[d])
            for i, k, x, y, d in zip(self.ids, self.kinds, self.xs, self.ys, self.dirs)
        )

    def changed_tiles(self) -> list[tuple[int, int]]:
        """Changed tiles as (x, y), row-major."""
        if self.changed is None:
            return [(x, y) for y in range(self.height) for x in range(self.width)]
        return [(t % self.width, t // self.width) for t in sorted(self.changed)]

    @property
    def over(self) -> bool:
        return self.status != "play"


def initial_state(game: Game, seed: int) -> State:
    """Round 0 not yet run; sprite ids 0, 1, … in the map's placement order (§3.5)."""
    if not isinstance(seed, int) or not 0 <= seed < 1 << 63:
        from .errors import TilecodeError

        raise TilecodeError(f"seed must be an integer in [0, 2^63): {seed!r}")
    tmap = game.map
    placements = sorted(
        enumerate(tmap.sprites), key=lambda item: (item[1].y, item[1].x, item[0])
    )
    n = len(placements)
    return State(
        round=0, status="play", score=0, high_score=game.high_score,
        width=tmap.width, height=tmap.height,
        bg=tuple(kind for row in tmap.background for kind in row),
        ids=tuple(range(n)),
        kinds=tuple(p.kind for _, p in placements),
        xs=tuple(p.x for _, p in placements),
        ys=tuple(p.y for _, p in placements),
        dirs=(RESTING,) * n,
        changed=None, blocked=frozenset(), rng=seed, next_id=n,
    )


def dump_state(state: State) -> str:
    """The golden text of §4.5 (ends with a newline)."""
    lines = [
        f"round {state.round} state {state.status} score {state.score} high {state.high_score}",
        "background",
    ]
    lines += ["".join(format(k, "x") for k in row) for row in state.background]
    lines.append("sprites")
    lines += [f"{s.id} s{s.kind} {s.x} {s.y} {s.dir}" for s in state.sprites]
    return "\n".join(lines) + "\n"
