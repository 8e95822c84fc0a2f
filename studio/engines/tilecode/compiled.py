"""Views compiled for matching: bit masks over a packed tile word, offsets, Do rows.

A tile is summarised by one integer (the *tile word*): bit ``k`` (0..3) is set when the background
is kind ``k``; bit ``4 + 4*d + k`` when a sprite of kind ``k`` with direction code ``d`` (0..3 the
directions, 4 resting) stands on it. Every Include/Include2/Exclude test of §6.4, including the
witness direction predicate, is then one AND with a precomputed mask.
"""

from __future__ import annotations

from .model import CENTRE, DIR_PREDICATES, DIRECTIONS, EDGES, MOVE_ARGS, TileRecord
from .views import View

RESTING = 4
PRED_DIRS: tuple[tuple[int, ...], ...] = (
    (0,), (1,), (2,), (3,), (4,), (0, 1, 2, 3), (0, 1, 2, 3, 4),
)
"""Direction codes each predicate (left, up, right, down, resting, moving, any) accepts."""
PRED_OK = tuple(tuple(d in dirs for d in range(5)) for dirs in PRED_DIRS)
"""``PRED_OK[pred][dir]``: does a sprite whose ``dir`` code is ``dir`` satisfy ``pred``?"""
ANY = DIR_PREDICATES.index("any")
STEP = ((-1, 0), (0, -1), (1, 0), (0, 1))
"""Tile offset of each direction code."""
OPPOSITE = (2, 3, 0, 1)


def kind_bits(codes: frozenset[str], prefix: str) -> list[int]:
    return sorted(int(c[1:]) for c in codes if c[0] == prefix)


def mask(codes: frozenset[str], dirs: tuple[int, ...] = (0, 1, 2, 3, 4)) -> int:
    """Tile-word mask of kind codes; sprite kinds only in the given direction slots."""
    bits = 0
    for k in kind_bits(codes, "b"):
        bits |= 1 << k
    for k in kind_bits(codes, "s"):
        for d in dirs:
            bits |= 1 << (4 + 4 * d + k)
    return bits


def nontrivial(record: TileRecord) -> bool:
    """Does the record constrain its tile at all (§7: any non-don't-care attribute)?"""
    return bool(record.include or record.include2 or record.exclude)


def declares_witness(record: TileRecord) -> bool:
    return record.position in EDGES and record.declares_witness


class CView:
    """One view ready to run. ``order`` = (rule position by id, view index) for firing order."""

    __slots__ = (
        "view", "rule_id", "transform", "type", "order", "kinds", "button", "centre_pred",
        "centre_excl", "centre_inc2", "checks", "witnesses", "rows", "smash_dir",
        "collide_pos", "collide_bg", "collide_kinds", "collide_pred", "trivial_centre",
        "moves_only", "_padded",
    )

    def __init__(self, view: View, order: tuple[int, int]) -> None:
        self.view = view
        self.rule_id = view.rule_id
        self.transform = view.transform
        self.type = view.type
        self.order = order
        centre = view.centre
        self.kinds = frozenset(kind_bits(centre.include, "s"))
        self.button = view.button
        self.centre_pred = DIR_PREDICATES.index(centre.dir)
        self.centre_excl = mask(centre.exclude)
        self.centre_inc2 = mask(centre.include2)
        self.trivial_centre = not (self.centre_excl or self.centre_inc2)
        checks = []
        witnesses = []
        for record in view.records:
            if record.position == CENTRE or not nontrivial(record):
                continue
            dx, dy = record.col - 2, record.row - 2
            if declares_witness(record):
                pred = DIR_PREDICATES.index(record.dir)
                inc = mask(record.include, PRED_DIRS[pred])
                witnesses.append(
                    (record.position, dx, dy, tuple(kind_bits(record.include, "s")), pred)
                )
            else:
                inc = mask(record.include)
            checks.append((dx, dy, mask(record.exclude), mask(record.include2), inc))
        self.checks = tuple(checks)
        self.witnesses = tuple(witnesses)
        self.rows = tuple(
            (r.position, r.col - 2, r.row - 2, r.do) for r in view.rows
        )
        self.smash_dir = DIRECTIONS.index(centre.dir) if centre.dir in DIRECTIONS else None
        self.collide_pos = view.collide_position
        collide = view.record(*self.collide_pos) if self.collide_pos else None
        if view.type == "smash":
            # Only the centre and the collide row matter in smash rules (§6.9).
            self.rows = tuple(row for row in self.rows if row[0] in (CENTRE, self.collide_pos))
        moves = []
        for position, _, _, commands in self.rows:
            if len(commands) != 1 or commands[0].verb != "move":
                moves = None
                break
            moves.append((position, MOVE_ARGS.index(commands[0].arg)))
        self.moves_only = None if moves is None else tuple(moves)
        self._padded: tuple | None = None
        """Rows that are each one ``move`` (stop = 4): run without the general Do-row loop."""
        if collide is None:
            self.collide_bg: frozenset[int] = frozenset()
            self.collide_kinds: frozenset[int] = frozenset()
            self.collide_pred = ANY
            self.collide_pos = None
        else:
            self.collide_bg = frozenset(kind_bits(collide.include, "b"))
            self.collide_kinds = frozenset(kind_bits(collide.include, "s"))
            self.collide_pred = DIR_PREDICATES.index(collide.dir)

    def __repr__(self) -> str:
        return f"CView(rule={self.rule_id}, {self.transform})"
