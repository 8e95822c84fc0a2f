"""Maps and boards of Haunted Tiles (spec haunted.md §3, §4.1, §10): pure data, no rules.

Coordinates are ``(row, col)`` everywhere; north is ``row - 1``. Strengths are 3 (good),
2 (warning), 1 (danger) and 0 (broken, a hole).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

MIN_SIZE, MAX_SIZE = 5, 15
SIDES = ("home", "away")
Coord = tuple[int, int]


def default_starts(size: int) -> tuple[tuple[Coord, ...], tuple[Coord, ...]]:
    """Home on row 0 and away on the last row, at columns 0, middle and last (§4.1)."""
    cols = (0, (size - 1) // 2, size - 1)
    return tuple((0, c) for c in cols), tuple((size - 1, c) for c in cols)


@dataclass(frozen=True)
class Map:
    """A square board with strengths and the six start tiles.

    Build one with :meth:`from_rows`; the constructor checks what the rules rely on and raises
    ``ValueError`` otherwise (storage reports the same problems with field paths first).
    """

    name: str
    size: int
    strengths: tuple[int, ...]
    """Row-major, ``size * size`` entries: ``strengths[row * size + col]``."""
    home: tuple[Coord, ...]
    away: tuple[Coord, ...]
    description: str = ""
    provenance: str = ""
    starts: tuple[Coord, ...] = field(init=False, repr=False, compare=False)
    """Home 0..2 then away 0..2: the order of monsters everywhere in the engine."""

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"map {self.name!r}: size {self.size} is not in {MIN_SIZE}..{MAX_SIZE}")
        if len(self.strengths) != self.size * self.size:
            raise ValueError(f"map {self.name!r}: {len(self.strengths)} strengths for size {self.size}")
        if any(s not in (0, 1, 2, 3) for s in self.strengths):
            raise ValueError(f"map {self.name!r}: strengths must be 0..3")
        starts = tuple(tuple(p) for p in (*self.home, *self.away))
        if len(self.home) != 3 or len(self.away) != 3:
            raise ValueError(f"map {self.name!r}: each side needs 3 start tiles")
        for r, c in starts:
            if not self.on_board(r, c):
                raise ValueError(f"map {self.name!r}: start ({r}, {c}) is off the board")
            if self.strengths[r * self.size + c] < 1:
                raise ValueError(f"map {self.name!r}: start ({r}, {c}) is on a broken tile")
        object.__setattr__(self, "starts", starts)

    @classmethod
    def from_rows(
        cls,
        name: str,
        rows: Sequence[str] | Sequence[Sequence[int]],
        home: Sequence[Sequence[int]] | None = None,
        away: Sequence[Sequence[int]] | None = None,
        description: str = "",
        provenance: str = "",
    ) -> Map:
        """A map from rows of digits (``"3303033"``) or of ints; missing starts get the defaults."""
        size = len(rows)
        flat: list[int] = []
        for row in rows:
            if len(row) != size:
                raise ValueError(f"map {name!r}: the board must be square ({size} rows)")
            flat.extend(int(v) for v in row)
        dh, da = default_starts(size)
        return cls(
            name,
            size,
            tuple(flat),
            tuple(tuple(p) for p in home) if home is not None else dh,  # type: ignore[misc]
            tuple(tuple(p) for p in away) if away is not None else da,  # type: ignore[misc]
            description,
            provenance,
        )

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size

    def rows(self) -> list[str]:
        """The strengths as digit strings, one per row (the project and replay form)."""
        n = self.size
        return ["".join(str(v) for v in self.strengths[r * n:(r + 1) * n]) for r in range(n)]

    def to_json(self) -> dict:
        """The replay form (§4.5)."""
        return {
            "size": self.size,
            "tiles": self.rows(),
            "home": [list(p) for p in self.home],
            "away": [list(p) for p in self.away],
        }

    @classmethod
    def from_json(cls, name: str, data: dict) -> Map:
        return cls.from_rows(name, data["tiles"], data.get("home"), data.get("away"))

    def max_turns(self) -> int:
        """The round-length bound of §5.4: every action lowers a strength or kills its actor, and
        at least two monsters act every turn."""
        return (sum(self.strengths) + 6) // 2

    def is_symmetric(self) -> bool:
        """True when strengths and starts mirror top/bottom or by a half turn, with home and away
        exchanged (the fairness check of §10.3)."""
        n = self.size

        def mirrored(flip) -> bool:
            same_tiles = all(
                self.strengths[r * n + c] == self.strengths[flip(r, c)[0] * n + flip(r, c)[1]]
                for r in range(n) for c in range(n)
            )
            return same_tiles and sorted(flip(*p) for p in self.home) == sorted(self.away)

        return mirrored(lambda r, c: (n - 1 - r, c)) or mirrored(lambda r, c: (n - 1 - r, n - 1 - c))


def digest(size: int, strengths: Sequence[int], positions: Sequence[Coord], alive: Sequence[bool]) -> str:
    """``board_sha256`` of a replay (§4.5): SHA-256 of the compact JSON of the final strengths
    (rows of ints), monster positions and alive flags, home 0..2 then away 0..2."""
    import json  # here: checking a project's maps (the home screen's list) needs no JSON

    rows = [list(strengths[r * size:(r + 1) * size]) for r in range(size)]
    monsters = [[p[0], p[1], bool(a)] for p, a in zip(positions, alive)]
    text = json.dumps({"tiles": rows, "monsters": monsters}, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
