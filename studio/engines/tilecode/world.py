"""The state at round start as the rules see it: the plain-Python reference queries.

Matching in phases 0–3 only reads the round-start state (§6.3), so a round asks a *world* built
once from that state. :class:`ReferenceWorld` answers every question by the literal definition of
§6.4 with linear scans over the sprites; :class:`~.fastpath.FastWorld` gives the same answers from
a per-tile sprite index, packed tile words and numpy. Sprites are named by *slot*: their position
in the state's columns.
"""

from __future__ import annotations

from .compiled import CENTRE, PRED_OK, CView
from .model import DIR_PREDICATES, EDGES
from .state import State

Witnesses = tuple[tuple[tuple[int, int], int], ...]
Match = tuple[int, CView, Witnesses]
"""(centre slot, view, bound witnesses) of one firing."""


class ReferenceWorld:
    """Literal §6.4 over linear scans; slow, obviously right, the yardstick of the fast path."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.n = len(state.ids)
        self.width, self.height = state.width, state.height

    # --- primitive queries -------------------------------------------------------------------

    def on_tile(self, x: int, y: int) -> list[int]:
        """Slots of the round-start sprites on (x, y), by (kind, id)."""
        s = self.state
        found = [i for i in range(self.n) if s.xs[i] == x and s.ys[i] == y]
        return sorted(found, key=lambda i: (s.kinds[i], s.ids[i]))

    def on_tile_by_id(self, tile: int) -> list[int]:
        """Slots on a flat tile index, ascending id (smash colliders)."""
        x, y = tile % self.width, tile // self.width
        return sorted(self.on_tile(x, y), key=lambda i: self.state.ids[i])

    def changed_near(self, slot: int) -> bool:
        """Is any in-map tile of the sprite's 3×3 neighbourhood changed?"""
        s = self.state
        if s.changed is None:
            return True
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x, y = s.xs[slot] + dx, s.ys[slot] + dy
                if 0 <= x < self.width and 0 <= y < self.height:
                    if y * self.width + x in s.changed:
                        return True
        return False

    def free_tiles(self, kind: int) -> list[int]:
        """Flat tiles of background ``kind`` without a round-start sprite, row-major."""
        s = self.state
        occupied = {s.ys[i] * self.width + s.xs[i] for i in range(self.n)}
        return [t for t, k in enumerate(s.bg) if k == kind and t not in occupied]

    def when(self, cv: CView, slot: int) -> Witnesses | None:
        """Evaluate the view's When section with sprite ``slot`` as centre (§6.4)."""
        s = self.state
        cx, cy = s.xs[slot], s.ys[slot]
        bound: list[tuple[tuple[int, int], int]] = [(CENTRE, slot)]
        for record in cv.view.records:
            is_centre = record.position == CENTRE
            if is_centre and not PRED_OK[_pred(record.dir)][s.dirs[slot]]:
                return None
            if not (record.include or record.include2 or record.exclude):
                continue
            x, y = cx + record.col - 2, cy + record.row - 2
            if not (0 <= x < self.width and 0 <= y < self.height):
                return None
            background = f"b{s.bg[y * self.width + x]}"
            here = self.on_tile(x, y)
            present = {f"s{s.kinds[i]}" for i in here} | {background}
            if present & record.exclude:
                return None
            if record.include2 and not present & record.include2:
                return None
            if is_centre or not record.include:
                continue
            if record.position in EDGES and record.declares_witness:
                pred = _pred(record.dir)
                witness = next(
                    (i for i in here
                     if f"s{s.kinds[i]}" in record.include and PRED_OK[pred][s.dirs[i]]),
                    None,
                )
                if witness is None:
                    return None
                bound.append((record.position, witness))
            elif not present & record.include:
                return None
        return tuple(bound)

    # --- phase-level questions (the fast world overrides these with batched versions) -------

    def never_fires(self, cv: CView) -> bool:
        """A never view fires when no sprite of its domain satisfies its When section."""
        s = self.state
        return not any(
            self.when(cv, i) is not None for i in range(self.n) if s.kinds[i] in cv.kinds
        )

    def matches(self, slots: list[int], views_by_kind: dict[int, list[CView]],
                buttons: frozenset[str] | None) -> list[Match]:
        """Firings of press (``buttons`` given) or change views in the normative order."""
        s = self.state
        out: list[Match] = []
        for slot in slots:
            for cv in views_by_kind.get(s.kinds[slot], ()):
                if buttons is not None and cv.button not in buttons:
                    continue
                bound = self.when(cv, slot)
                if bound is not None:
                    out.append((slot, cv, bound))
        return out


def _pred(name: str) -> int:
    return DIR_PREDICATES.index(name)
