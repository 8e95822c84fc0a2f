"""The map editor's operations (spec haunted.md §10.3), pure: no Textual, no I/O.

The editor works on a :class:`MapDraft`, a map that may be invalid — a start on a hole, starts
that are not distinct, an empty name. :class:`~studio.engines.haunted.board.Map` refuses such
a map; the draft keeps it, so nothing a person made is dropped while they are still making it,
and :func:`problems` says in words what stops it from being saved. Every operation returns a
new draft (the same one when nothing changes) and leaves its argument untouched.

Coordinates are ``(row, col)`` as everywhere in Haunted Tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from studio.engines.haunted.board import MAX_SIZE, MIN_SIZE, SIDES, Coord, Map, default_starts

SYMMETRIES = ("none", "left/right", "top/bottom", "both", "point")
"""The symmetry helpers in the order ``y`` cycles through them."""
FAIRNESS_MODES = ("top/bottom", "point")
"""The symmetries under which a map is fair with home and away exchanged (§10.3)."""
SIDE_LETTER = {"home": "H", "away": "A"}


@dataclass(frozen=True)
class MapDraft:
    """A square map being edited; the fields of :class:`Map`, none of its checks but the shape."""

    name: str
    size: int
    strengths: tuple[int, ...]
    """Row-major: ``strengths[row * size + col]``, each 0..3."""
    home: tuple[Coord, ...]
    away: tuple[Coord, ...]
    description: str = ""
    provenance: str = ""

    def __post_init__(self) -> None:
        # Only what every operation relies on; rule problems are :func:`problems`' business.
        if len(self.strengths) != self.size * self.size:
            raise ValueError(f"{len(self.strengths)} strengths for a {self.size}x{self.size} map")
        if len(self.home) != 3 or len(self.away) != 3:
            raise ValueError("each side has three start tiles")

    @classmethod
    def of_map(cls, board: Map) -> MapDraft:
        return cls(board.name, board.size, board.strengths, board.home, board.away,
                   board.description, board.provenance)

    def at(self, row: int, col: int) -> int:
        return self.strengths[row * self.size + col]

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size

    def rows(self) -> list[str]:
        """The strengths as digit strings, one per row (the project file's ``tiles``)."""
        n = self.size
        return ["".join(map(str, self.strengths[r * n:(r + 1) * n])) for r in range(n)]

    def starts(self, side: str) -> tuple[Coord, ...]:
        return self.home if side == "home" else self.away

    def labelled_starts(self) -> list[tuple[str, Coord]]:
        """``("H0", (r, c))`` … ``("A2", (r, c))``: home 0..2 then away 0..2."""
        return [(f"{SIDE_LETTER[side]}{i}", p) for side in SIDES
                for i, p in enumerate(self.starts(side))]

    def to_map(self) -> Map:
        """The playable map; raises ``ValueError`` while the draft has an error."""
        return Map(self.name, self.size, self.strengths, self.home, self.away, self.description,
                   self.provenance)


def at(tile: Coord) -> str:
    """A tile as people read it here: ``(row,col)``."""
    return f"({tile[0]},{tile[1]})"


def blank(name: str, size: int = 7) -> MapDraft:
    """A new map: every tile at full strength, the default starts."""
    home, away = default_starts(size)
    return MapDraft(name, size, (3,) * (size * size), home, away)


def unique_name(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``"base (2)"``, ``"base (3)"``… whichever is not taken yet."""
    taken = set(taken)
    name, k = base, 2
    while name in taken:
        name, k = f"{base} ({k})", k + 1
    return name


# ------------------------------------------------------------------------------- symmetry


def next_symmetry(mode: str) -> str:
    return SYMMETRIES[(SYMMETRIES.index(mode) + 1) % len(SYMMETRIES)]


def _flips(size: int) -> dict[str, Callable[[int, int], Coord]]:
    last = size - 1
    return {
        "left/right": lambda r, c: (r, last - c),
        "top/bottom": lambda r, c: (last - r, c),
        "point": lambda r, c: (last - r, last - c),
    }


def mirrored_tiles(size: int, row: int, col: int, mode: str) -> list[Coord]:
    """The tile and its mirror images under ``mode``, each once, the tile itself first."""
    flips = _flips(size)
    names = {"none": (), "left/right": ("left/right",), "top/bottom": ("top/bottom",),
             "both": ("left/right", "top/bottom", "point"), "point": ("point",)}[mode]
    out = [(row, col)]
    for name in names:
        tile = flips[name](row, col)
        if tile not in out:
            out.append(tile)
    return out


def start_mirror(size: int, row: int, col: int, mode: str) -> Coord | None:
    """Where the other side's start goes when one is placed at (row, col), or None.

    Top/bottom and point symmetry exchange home and away (§10.3); ``both`` includes the
    top/bottom mirror, so it exchanges them too. Left/right keeps each side on its own half.
    """
    flip = {"top/bottom": "top/bottom", "both": "top/bottom", "point": "point"}.get(mode)
    return _flips(size)[flip](row, col) if flip else None


# ------------------------------------------------------------------------------- editing


def paint(draft: MapDraft, row: int, col: int, strength: int, mode: str = "none") -> MapDraft:
    """Set the strength of (row, col) and of its mirror images under ``mode``.

    Painting a hole under a start is allowed: the draft keeps it and :func:`problems` flags it.
    """
    if strength not in (0, 1, 2, 3):
        raise ValueError(f"strength {strength} is not 0..3")
    if not draft.on_board(row, col):
        raise ValueError(f"({row}, {col}) is off the {draft.size}x{draft.size} board")
    cells = list(draft.strengths)
    for r, c in mirrored_tiles(draft.size, row, col, mode):
        cells[r * draft.size + c] = strength
    new = tuple(cells)
    return draft if new == draft.strengths else replace(draft, strengths=new)


def _with_start(draft: MapDraft, side: str, index: int, tile: Coord) -> MapDraft:
    starts = list(draft.starts(side))
    starts[index] = tile
    return replace(draft, **{side: tuple(starts)})


def place_start(draft: MapDraft, side: str, index: int, row: int, col: int,
                mode: str = "none") -> MapDraft:
    """Put start ``index`` (0..2) of ``side`` on (row, col); under top/bottom, both or point
    symmetry its partner on the other side (the start on its mirror tile, else the one of the
    same index) goes to the mirrored tile."""
    if side not in SIDES or index not in (0, 1, 2):
        raise ValueError(f"no start {side} {index}")
    if not draft.on_board(row, col):
        raise ValueError(f"({row}, {col}) is off the {draft.size}x{draft.size} board")
    new = _with_start(draft, side, index, (row, col))
    mirror = start_mirror(draft.size, row, col, mode)
    if mirror is not None:
        # The partner is the other side's start on the mirror of where this one stood (under
        # point symmetry H0's is A2 in the default layout), by position, not by number.
        other = SIDES[1 - SIDES.index(side)]
        was = start_mirror(draft.size, *draft.starts(side)[index], mode)
        theirs = draft.starts(other)
        partner = theirs.index(was) if was in theirs else index
        new = _with_start(new, other, partner, mirror)
    return draft if new == draft else new


def resize(draft: MapDraft, size: int) -> MapDraft:
    """A ``size`` × ``size`` map keeping the top-left part; new tiles have strength 3. If any
    start falls off, all six go back to the defaults of the new size (§10.3)."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size {size} is not in {MIN_SIZE}..{MAX_SIZE}")
    if size == draft.size:
        return draft
    keep = min(size, draft.size)
    cells = [3] * (size * size)
    for r in range(keep):
        for c in range(keep):
            cells[r * size + c] = draft.at(r, c)
    home, away = draft.home, draft.away
    if any(not (r < size and c < size) for r, c in (*home, *away)):
        home, away = default_starts(size)
    return replace(draft, size=size, strengths=tuple(cells), home=home, away=away)


# ------------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class Issue:
    """Something wrong with a draft, in words, with the field of its ``[[map]]`` table."""

    level: str
    """``error`` (saving refuses) or ``warning`` (legal, but worth a look)."""
    message: str
    field: tuple[str | int, ...] = ()
    """Relative to the map's table, e.g. ``("home", 1)``."""
    tiles: tuple[Coord, ...] = ()
    """The tiles concerned, for the board to mark."""


def problems(draft: MapDraft) -> list[Issue]:
    """What is wrong with the draft: errors first (as storage's map validation), then warnings."""
    errors: list[Issue] = []
    if not draft.name.strip():
        errors.append(Issue("error", "the map has no name", ("name",)))
    if not MIN_SIZE <= draft.size <= MAX_SIZE:
        errors.append(Issue("error", f"size {draft.size} is not in {MIN_SIZE}..{MAX_SIZE}",
                            ("size",)))
    for side in SIDES:
        for i, (r, c) in enumerate(draft.starts(side)):
            label = f"{SIDE_LETTER[side]}{i}"
            if not draft.on_board(r, c):
                errors.append(Issue("error", f"{label} starts off the board at ({r},{c})",
                                    (side, i)))
            elif draft.at(r, c) < 1:
                errors.append(Issue("error", f"{label} starts on a hole at ({r},{c})", (side, i),
                                    ((r, c),)))
    warnings = []
    by_tile: dict[Coord, list[str]] = {}
    for label, tile in draft.labelled_starts():
        by_tile.setdefault(tile, []).append(label)
    for (r, c), labels in by_tile.items():
        if len(labels) > 1:
            warnings.append(Issue("warning", f"{' and '.join(labels)} share ({r},{c})", (),
                                  ((r, c),)))
    return errors + warnings


@dataclass(frozen=True)
class SymmetryCheck:
    """How a draft fares under one symmetry with home and away exchanged."""

    mode: str
    tiles: tuple[tuple[Coord, Coord], ...]
    """Pairs of mirrored tiles whose strengths differ (each pair once, in row-major order)."""
    starts: tuple[str, ...]
    """Starts without a counterpart on the other side, in words."""

    @property
    def ok(self) -> bool:
        return not self.tiles and not self.starts


@dataclass(frozen=True)
class Fairness:
    """The fairness check of §10.3: one :class:`SymmetryCheck` per symmetry that could make
    the map fair. The map is fair when at least one of them holds."""

    checks: tuple[SymmetryCheck, ...]

    @property
    def fair(self) -> bool:
        return any(check.ok for check in self.checks)

    @property
    def modes(self) -> list[str]:
        """The symmetries that hold."""
        return [check.mode for check in self.checks if check.ok]


def _unmatched(starts: Iterable[Coord], flip: Callable[[int, int], Coord],
               others: Iterable[Coord]) -> list[int]:
    """Indices of ``starts`` whose mirror images are not among ``others`` (as multisets)."""
    left = Counter(others)
    out = []
    for i, (r, c) in enumerate(starts):
        image = flip(r, c)
        if left[image]:
            left[image] -= 1
        else:
            out.append(i)
    return out


def _symmetry_check(draft: MapDraft, mode: str) -> SymmetryCheck:
    flip = _flips(draft.size)[mode]
    n = draft.size
    tiles = []
    for r in range(n):
        for c in range(n):
            image = flip(r, c)
            if (r, c) < image and draft.at(r, c) != draft.at(*image):
                tiles.append(((r, c), image))
    # Which monster index stands where does not matter for fairness, only the two sets of start
    # tiles (as Map.is_symmetric): the sides act in a fixed order whatever their indices.
    words = []
    for side in SIDES:
        other = SIDES[1 - SIDES.index(side)]
        for i in _unmatched(draft.starts(side), flip, draft.starts(other)):
            tile = draft.starts(side)[i]
            words.append(f"{SIDE_LETTER[side]}{i} {at(tile)} mirrors to {at(flip(*tile))}, "
                         f"where no {other} monster starts")
    return SymmetryCheck(mode, tuple(tiles), tuple(words))


def fairness(draft: MapDraft) -> Fairness:
    """Whether strengths and starts are symmetric under top/bottom or point symmetry with home
    and away exchanged, and where each symmetry fails."""
    return Fairness(tuple(_symmetry_check(draft, mode) for mode in FAIRNESS_MODES))
