"""What a round did (spec tilecode.md §6.13): the play screen animates from these, tests assert.

Events are listed in execution order. Sprites are named by id, tiles by ``(x, y)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Command


@dataclass(frozen=True)
class Issued:
    """One command as a firing issued it: Do-row position, the command, and what it addressed.

    ``target`` is a sprite id (move, stop, destroy), an ``(x, y)`` tile (paint, create, portal),
    or None when the command was skipped (no target, off-map tile, portal with nowhere to go).
    ``created`` is the id of the sprite a ``create`` made.
    """

    row: tuple[int, int]
    command: Command
    target: int | tuple[int, int] | None = None
    created: int | None = None


@dataclass(frozen=True)
class Firing:
    """A view fired: ``phase`` is never, press, change or smash."""

    phase: str
    rule: int
    view: str
    """The view's transform (``none`` = base view)."""
    centre: int | None
    """Centre sprite id (None for never rules)."""
    witnesses: tuple[tuple[tuple[int, int], int], ...]
    """((col, row), sprite id) per bound witness, centre first; the collider in smash rules."""
    commands: tuple[Issued, ...]


@dataclass(frozen=True)
class Draw:
    """One RNG draw: ``site`` is portal, move or paint; ``choice`` indexes ``candidates``."""

    site: str
    candidates: tuple
    choice: int


@dataclass(frozen=True)
class MoveResolved:
    """Move resolution gave ``sprite`` a pending move (or cancelled it: off the map)."""

    sprite: int
    direction: str
    cancelled: bool = False


@dataclass(frozen=True)
class StopPass:
    """One pass of the smash fixpoint and the sprites it stopped (ascending id)."""

    index: int
    stopped: tuple[int, ...]


@dataclass(frozen=True)
class Commit:
    """The end of the round: what changed in the world."""

    destroyed: tuple[int, ...]
    created: tuple[tuple[int, int, int, int], ...]
    """(id, kind, x, y) of sprites that joined."""
    moved: tuple[tuple[int, int, int, str], ...]
    """(id, from x, from y, direction) of sprites that moved one tile."""
    rested: tuple[int, ...]
    """Sprites that stayed put this round."""
    paints: tuple[tuple[int, int, int], ...]
    """(x, y, new kind) of tiles actually repainted."""
    score: int
    """Points added this round."""
    status: str
    changed: tuple[tuple[int, int], ...]
    """Tiles marked changed, row-major."""


Event = Firing | Draw | MoveResolved | StopPass | Commit
