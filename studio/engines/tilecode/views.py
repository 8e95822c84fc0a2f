"""Derived views of a rule (spec tilecode.md §5): the base rule seen through flips and rotations.

A view is computed, never stored: positions, ``dir`` predicates, move arguments and the press
button are mapped through the transform, then identical views of one rule are dropped (§11.7).
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import CENTRE, DIRECTIONS, Command, Rule, TileRecord

DECLARED_VIEWS: dict[str, tuple[str, ...]] = {
    "none": (),
    "flip-horizontal": ("flip-horizontal",),
    "flip-vertical": ("flip-vertical",),
    "rotate-left": ("rotate-left",),
    "rotate-180": ("rotate-180",),
    "rotate-right": ("rotate-right",),
    "rotate-3-way": ("rotate-left", "rotate-180", "rotate-right"),
}
"""transforms -> the derived views it declares, in view order (after the base view)."""

# Position maps in centred coordinates (x, y) = (col - 2, row - 2), y downward.
_POSITION = {
    "none": lambda x, y: (x, y),
    "flip-horizontal": lambda x, y: (-x, y),
    "flip-vertical": lambda x, y: (x, -y),
    "rotate-left": lambda x, y: (y, -x),
    "rotate-180": lambda x, y: (-x, -y),
    "rotate-right": lambda x, y: (-y, x),
}
# Direction maps on codes left=0 up=1 right=2 down=3 (clockwise order).
_DIRECTION = {
    "none": (0, 1, 2, 3),
    "flip-horizontal": (2, 1, 0, 3),
    "flip-vertical": (0, 3, 2, 1),
    "rotate-left": (3, 0, 1, 2),
    "rotate-180": (2, 3, 0, 1),
    "rotate-right": (1, 2, 3, 0),
}

ROW_ORDER = ((1, 2), (2, 1), (2, 2), (2, 3), (3, 2))
"""Do rows run column-major: left, up, centre, down, right (§6.10)."""
OFFSETS = {"left": (-1, 0), "up": (0, -1), "right": (1, 0), "down": (0, 1)}


def map_direction(name: str, transform: str) -> str:
    """A direction, direction predicate or button seen through ``transform``.

    ``resting``, ``moving``, ``any``, ``stop`` and ``A`` are unchanged.
    """
    if name not in DIRECTIONS:
        return name
    return DIRECTIONS[_DIRECTION[transform][DIRECTIONS.index(name)]]


def map_position(col: int, row: int, transform: str) -> tuple[int, int]:
    """Where the base record at (col, row) appears in the view."""
    x, y = _POSITION[transform](col - 2, row - 2)
    return x + 2, y + 2


def _map_command(command: Command, transform: str) -> Command:
    if command.verb == "move" and command.arg in DIRECTIONS:
        return Command("move", map_direction(command.arg, transform))
    return command


def _map_record(record: TileRecord, transform: str) -> TileRecord:
    col, row = map_position(record.col, record.row, transform)
    return TileRecord(
        col, row, record.include, record.include2, record.exclude,
        map_direction(record.dir, transform),
        tuple(_map_command(command, transform) for command in record.do),
    )


@dataclass(frozen=True)
class View:
    """A rule as seen through one transform (``none`` = the base view).

    Records keep the base rule's stored order; vacuous records are dropped.
    """

    rule_id: int
    transform: str
    type: str
    button: str | None
    records: tuple[TileRecord, ...]

    def record(self, col: int, row: int) -> TileRecord | None:
        for record in self.records:
            if record.col == col and record.row == row:
                return record
        return None

    @property
    def centre(self) -> TileRecord:
        """The centre record (an empty one when there is none)."""
        return self.record(*CENTRE) or TileRecord(*CENTRE)

    @property
    def direction(self) -> str:
        """The centre ``dir``: the rule's direction (§3.3)."""
        return self.centre.dir

    @property
    def collide_position(self) -> tuple[int, int] | None:
        """Smash rules: the centre's neighbour in the centre direction (None if not a direction)."""
        offset = OFFSETS.get(self.centre.dir)
        if offset is None:
            return None
        return CENTRE[0] + offset[0], CENTRE[1] + offset[1]

    @property
    def rows(self) -> tuple[TileRecord, ...]:
        """Records with commands in Do-row execution order (left, up, centre, down, right)."""
        rows = []
        for position in ROW_ORDER:
            record = self.record(*position)
            if record is not None and record.do:
                rows.append(record)
        return tuple(rows)

    def same_as(self, other: View) -> bool:
        """Identical per §5: type, button and the set of non-vacuous records."""
        return (
            self.type == other.type
            and self.button == other.button
            and _record_key(self) == _record_key(other)
        )


def _record_key(view: View) -> frozenset[tuple]:
    return frozenset(
        (r.col, r.row, r.include, r.include2, r.exclude, r.dir, r.do) for r in view.records
    )


def view_of(rule: Rule, transform: str) -> View:
    """The view of ``rule`` through one transform (``none`` = the base view)."""
    button = rule.button
    if rule.type == "press" and button is not None:
        button = map_direction(button, transform)
    else:
        button = button if rule.type == "press" else None
    records = tuple(
        _map_record(record, transform) for record in rule.tiles if not record.is_empty
    )
    return View(rule.id, transform, rule.type, button, records)


def declared_views(rule: Rule) -> int:
    """How many derived views the rule's transforms declare, before de-duplication.

    This is the "derived views" count of the original encoding (§4.2): 0, 1 or 3.
    """
    return len(DECLARED_VIEWS[rule.transforms])


def all_views(rule: Rule) -> list[tuple[View, int | None]]:
    """Every view in view order with the index of the earlier identical view (None if unique).

    The generalise screen draws a view with a duplicate index as "same as view N".
    """
    out: list[tuple[View, int | None]] = []
    for transform in ("none", *DECLARED_VIEWS[rule.transforms]):
        view = view_of(rule, transform)
        same = next((i for i, (v, d) in enumerate(out) if d is None and v.same_as(view)), None)
        out.append((view, same))
    return out


def derive_views(rule: Rule, dedup: bool = True) -> list[View]:
    """The views of ``rule`` in view order: the base view, then its derived views.

    Args:
        rule: the base rule.
        dedup: drop views identical to an earlier view of the same rule (§5); False keeps
            every declared view (``len(...) - 1 == declared_views(rule)``).

    Returns:
        The views, base view first.
    """
    return [view for view, same in all_views(rule) if not dedup or same is None]


def default_transforms(centre_kinds: frozenset[str] | set[str], player_kind: int = 0) -> str:
    """Transforms the editor gives a new rule: rotate-3-way when its centre kind is the player."""
    return "rotate-3-way" if f"s{player_kind}" in centre_kinds else "none"
