"""The fast world: same answers as :class:`~.world.ReferenceWorld`, from indexes.

- a per-tile sprite index (flat tile -> slots by kind, id) instead of scans over all sprites;
- packed tile words (see :mod:`.compiled`) on a map padded by one tile of "off-map" words, so
  each record test is a fixed offset and a couple of ANDs, with no bounds checks;
- for phases with many candidate sprites, each view is tested on all of them at once with numpy
  (the per-call overhead only pays off above :data:`VECTOR_MIN` candidates).

No numba here: what remains after the indexes is object-level work (firing Do rows, logs, the
RNG in a fixed order) that a kernel cannot take over, and a first compile would only add start-up
time (bench/tilecode.py meets the targets without it).
"""

from __future__ import annotations

import numpy as np

from .compiled import CENTRE, PRED_OK, CView
from .state import State
from .world import Match, Witnesses

VECTOR_MIN = 64
"""Candidates per phase from which the numpy path is used."""
OFF_MAP = 1 << 24
"""Tile-word bit of the padding: any record that constrains its tile fails there (§7)."""
_PRED_NP = np.array(PRED_OK, dtype=bool)


class BackgroundCache:
    """Padded background words; a round that paints nothing reuses the same tuple object."""

    def __init__(self) -> None:
        self.key: tuple[int, ...] | None = None
        self.width = 0
        self.words: list[int] = []
        self.words_np: np.ndarray | None = None
        self.by_kind: dict[int, list[int]] = {}

    def get(self, bg: tuple[int, ...], width: int) -> BackgroundCache:
        if self.key is not bg:
            self.key, self.width = bg, width
            self.words = []
            self.words_np = None
            self.by_kind = {}
        return self

    def advance(self, old: tuple[int, ...], new: tuple[int, ...],
                painted: list[tuple[int, int]]) -> None:
        """Follow a round's paints without rebuilding (only if we hold ``old``)."""
        if self.key is not old or old is new:
            return
        self.key = new
        self.by_kind = {}
        pw = self.width + 2
        spots = [((t // self.width + 1) * pw + t % self.width + 1, 1 << k) for t, k in painted]
        if self.words:
            for spot, word in spots:
                self.words[spot] = word
        if self.words_np is not None:
            self.words_np = self.words_np.copy()
            for spot, word in spots:
                self.words_np[spot] = word

    def padded_list(self) -> list[int]:
        if not self.words:
            w = self.width
            words = [OFF_MAP] * (w + 3)
            for y in range(len(self.key) // w):
                words += [1 << k for k in self.key[y * w:(y + 1) * w]]
                words += [OFF_MAP, OFF_MAP]
            words += [OFF_MAP] * (w + 1)
            self.words = words
        return self.words

    def padded_np(self) -> np.ndarray:
        if self.words_np is None:
            w = self.width
            grid = np.full((len(self.key) // w + 2, w + 2), OFF_MAP, dtype=np.int64)
            grid[1:-1, 1:-1] = np.left_shift(1, np.array(self.key, dtype=np.int64)).reshape(-1, w)
            self.words_np = grid.reshape(-1)
        return self.words_np

    def tiles_of(self, kind: int) -> list[int]:
        tiles = self.by_kind.get(kind)
        if tiles is None:
            tiles = self.by_kind[kind] = [t for t, k in enumerate(self.key) if k == kind]
        return tiles


def padded_checks(cv: CView, pw: int) -> tuple[tuple[int, int, int, int], ...]:
    """The view's record checks as (padded offset, exclude | OFF_MAP, include2, include)."""
    cached = getattr(cv, "_padded", None)
    if cached is None or cached[0] != pw:
        checks = tuple((dy * pw + dx, excl | OFF_MAP, inc2, inc)
                       for dx, dy, excl, inc2, inc in cv.checks)
        cached = (pw, checks)
        cv._padded = cached
    return cached[1]


class FastWorld:
    """Indexed and vectorised queries on the round-start state."""

    def __init__(self, state: State, cache: BackgroundCache, vector_min: int = VECTOR_MIN) -> None:
        self.state = state
        self.vector_min = vector_min
        self.n = len(state.ids)
        self.width, self.height = state.width, state.height
        self.pw = self.width + 2
        self.bgc = cache.get(state.bg, self.width)
        self._words: list[int] | None = None
        self._words_np: np.ndarray | None = None
        self._columns: tuple[np.ndarray, ...] | None = None
        self._base: np.ndarray | None = None
        self.index = self._build_index()

    def _build_index(self) -> dict[int, list[int]]:
        """Flat tile -> slots on it by (kind, id)."""
        state, w = self.state, self.width
        if self.n >= self.vector_min:
            xs, ys, _, _ = self.columns()
            tiles = (ys * w + xs).tolist()
            index = {tile: [slot] for slot, tile in enumerate(tiles)}
            if len(index) == self.n:
                return index  # no stacks: nothing to order
        index = {}
        kinds, xs_, ys_ = state.kinds, state.xs, state.ys
        # Slots are in id order, so a stable sort by kind gives (kind, id) order per tile.
        for slot in sorted(range(self.n), key=kinds.__getitem__):
            tile = ys_[slot] * w + xs_[slot]
            cell = index.get(tile)
            if cell is None:
                index[tile] = [slot]
            else:
                cell.append(slot)
        return index

    # --- packed tile words --------------------------------------------------------------------

    def words(self) -> list[int]:
        """Padded tile words: tile (x, y) is at ``(y + 1) * pw + x + 1``."""
        if self._words is None:
            s, pw = self.state, self.pw
            words = self.bgc.padded_list().copy()
            for slot in range(self.n):
                words[(s.ys[slot] + 1) * pw + s.xs[slot] + 1] |= (
                    1 << (4 + 4 * s.dirs[slot] + s.kinds[slot]))
            self._words = words
        return self._words

    def columns(self) -> tuple[np.ndarray, ...]:
        """(xs, ys, kinds, dirs) as numpy arrays."""
        if self._columns is None:
            s, n = self.state, self.n
            self._columns = tuple(
                np.fromiter(col, dtype=np.int64, count=n) for col in (s.xs, s.ys, s.kinds, s.dirs)
            )
        return self._columns

    def base(self) -> np.ndarray:
        """Each sprite's padded tile index."""
        if self._base is None:
            xs, ys, _, _ = self.columns()
            self._base = (ys + 1) * self.pw + xs + 1
        return self._base

    def words_np(self) -> np.ndarray:
        if self._words_np is None:
            _, _, kinds, dirs = self.columns()
            words = self.bgc.padded_np().copy()
            np.bitwise_or.at(words, self.base(), np.left_shift(1, 4 + 4 * dirs + kinds))
            self._words_np = words
        return self._words_np

    # --- primitive queries --------------------------------------------------------------------

    def on_tile_by_id(self, tile: int) -> list[int]:
        return sorted(self.index.get(tile, ()))

    def changed_near(self, slot: int) -> bool:
        s = self.state
        if s.changed is None:
            return True
        changed, w, h = s.changed, self.width, self.height
        x0, y0 = s.xs[slot], s.ys[slot]
        for y in (y0 - 1, y0, y0 + 1):
            if 0 <= y < h:
                base = y * w
                for x in (x0 - 1, x0, x0 + 1):
                    if 0 <= x < w and base + x in changed:
                        return True
        return False

    def changed_near_all(self) -> list[bool]:
        """``changed_near`` for every slot, vectorised: dilate the changed map by 3×3."""
        s = self.state
        if s.changed is None:
            return [True] * self.n
        w, h = self.width, self.height
        padded = np.zeros((h + 2) * (w + 2), dtype=bool)
        if s.changed:
            tiles = np.fromiter(s.changed, dtype=np.int64, count=len(s.changed))
            padded[(tiles // w + 1) * (w + 2) + tiles % w + 1] = True
        grid = padded.reshape(h + 2, w + 2)
        near = np.zeros((h, w), dtype=bool)
        for dy in (0, 1, 2):
            for dx in (0, 1, 2):
                near |= grid[dy:dy + h, dx:dx + w]
        xs, ys, _, _ = self.columns()
        return near[ys, xs].tolist()

    def free_tiles(self, kind: int) -> list[int]:
        index = self.index
        return [t for t in self.bgc.tiles_of(kind) if t not in index]

    def bind(self, cv: CView, slot: int) -> Witnesses:
        """The witnesses of a view known to hold: first qualifying sprite by (kind, id)."""
        bound = [(CENTRE, slot)]
        s = self.state
        for position, dx, dy, kinds, pred in cv.witnesses:
            tile = (s.ys[slot] + dy) * self.width + s.xs[slot] + dx
            ok = PRED_OK[pred]
            for other in self.index[tile]:
                if s.kinds[other] in kinds and ok[s.dirs[other]]:
                    bound.append((position, other))
                    break
        return tuple(bound)

    def holds(self, cv: CView, slot: int) -> bool:
        s = self.state
        if not PRED_OK[cv.centre_pred][s.dirs[slot]]:
            return False
        words = self._words if self._words is not None else self.words()
        here = (s.ys[slot] + 1) * self.pw + s.xs[slot] + 1
        if not cv.trivial_centre:
            word = words[here]
            if word & cv.centre_excl or (cv.centre_inc2 and not word & cv.centre_inc2):
                return False
        for off, excl, inc2, inc in padded_checks(cv, self.pw):
            word = words[here + off]
            if word & excl or (inc2 and not word & inc2) or (inc and not word & inc):
                return False
        return True

    def when(self, cv: CView, slot: int) -> Witnesses | None:
        return self.bind(cv, slot) if self.holds(cv, slot) else None

    # --- phase-level questions ---------------------------------------------------------------

    def never_fires(self, cv: CView) -> bool:
        if self.n >= self.vector_min:
            _, _, kinds, _ = self.columns()
            domain = np.flatnonzero(np.isin(kinds, list(cv.kinds)))
            return not self._holds_np(cv, domain).any()
        kinds = self.state.kinds
        return not any(self.holds(cv, i) for i in range(self.n) if kinds[i] in cv.kinds)

    def matches(self, slots: list[int], views_by_kind: dict[int, list[CView]],
                buttons: frozenset[str] | None) -> list[Match]:
        if len(slots) < self.vector_min:
            s = self.state
            out: list[Match] = []
            for slot in slots:
                for cv in views_by_kind.get(s.kinds[slot], ()):
                    if buttons is not None and cv.button not in buttons:
                        continue
                    if self.holds(cv, slot):
                        out.append((slot, cv, self.bind(cv, slot)))
            return out
        return self._matches_np(slots, views_by_kind, buttons)

    def _matches_np(self, slots: list[int], views_by_kind: dict[int, list[CView]],
                    buttons: frozenset[str] | None) -> list[Match]:
        _, _, kinds, _ = self.columns()
        cand = np.array(slots, dtype=np.int64)
        cand_kinds = kinds[cand]
        by_kind = {k: cand_kinds == k for k in views_by_kind}
        seen: dict[int, CView] = {}
        for views in views_by_kind.values():
            for cv in views:
                seen[id(cv)] = cv
        subsets: dict[frozenset[int], np.ndarray] = {}
        found: list[tuple[int, tuple[int, int], CView]] = []
        for cv in sorted(seen.values(), key=lambda v: v.order):
            if buttons is not None and cv.button not in buttons:
                continue
            mine = subsets.get(cv.kinds)
            if mine is None:
                pick = np.zeros(len(cand), dtype=bool)
                for k in cv.kinds:
                    if k in by_kind:
                        pick |= by_kind[k]
                mine = subsets[cv.kinds] = cand[pick]
            if not len(mine):
                continue
            hits = mine[self._holds_np(cv, mine)]
            order = cv.order
            found.extend((slot, order, cv) for slot in hits.tolist())
        found.sort()  # (slot, order) pairs are unique, so views are never compared
        bind = self.bind
        return [(slot, cv, bind(cv, slot) if cv.witnesses else ((CENTRE, slot),))
                for slot, _, cv in found]

    def _holds_np(self, cv: CView, slots: np.ndarray) -> np.ndarray:
        _, _, _, dirs = self.columns()
        words = self.words_np()
        here = self.base()[slots]
        ok = _PRED_NP[cv.centre_pred][dirs[slots]]
        if not cv.trivial_centre:
            word = words[here]
            ok &= (word & cv.centre_excl) == 0
            if cv.centre_inc2:
                ok &= (word & cv.centre_inc2) != 0
        for off, excl, inc2, inc in padded_checks(cv, self.pw):
            word = words[here + off]
            ok &= (word & excl) == 0
            if inc2:
                ok &= (word & inc2) != 0
            if inc:
                ok &= (word & inc) != 0
        return ok
