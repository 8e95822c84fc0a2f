"""The TileCode data model (spec tilecode.md §3): kinds, map, rules, tile records, commands.

This is the contract between storage (TOML projects, the importer of the original games), the
round VM and the screens. Values are plain and immutable where they can be, so games can be
shared between runs and compared in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RULE_TYPES = ("press", "change", "smash", "never")
"""Rule types in original code order (press = 0 … never = 3)."""
DIRECTIONS = ("left", "up", "right", "down")
"""The four directions in original code order (clockwise)."""
DIR_PREDICATES = (*DIRECTIONS, "resting", "moving", "any")
"""Direction predicates of tile records, in original code order."""
BUTTONS = ("left", "up", "right", "down", "A")
"""Buttons of press rules, in original code order (B is not supported)."""
TRANSFORMS = (
    "none", "flip-horizontal", "flip-vertical", "rotate-left", "rotate-180", "rotate-right",
    "rotate-3-way",
)
"""Rule transforms in original code order; rotate-180 is read but never offered by the editor."""
ATTRIBUTES = ("dontcare", "include", "include2", "exclude")
"""Tile-record attributes in original code order."""
BACKGROUND_CODES = ("b0", "b1", "b2", "b3")
SPRITE_CODES = ("s0", "s1", "s2", "s3")
KIND_CODES = BACKGROUND_CODES + SPRITE_CODES
"""Kinds are referred to by code, never by name, so renaming art changes no rule."""
VERBS = ("move", "paint", "create", "destroy", "game", "portal", "block")
"""Command verbs in original code order (create is "spawn" in the original source)."""
MOVE_ARGS = (*DIRECTIONS, "stop")
GAME_ARGS = ("win", "lose", "score")
CORNERS = ((1, 1), (3, 1), (1, 3), (3, 3))
CENTRE = (2, 2)
EDGES = ((2, 1), (1, 2), (3, 2), (2, 3))
"""The four edge-adjacent tiles of the centre (up, left, right, down)."""
PALETTE = (
    "#000000", "#ffffff", "#ff2121", "#ff93c4", "#ff8135", "#fff609", "#249ca3", "#78dc52",
    "#003fad", "#87f2ff", "#8e2ec4", "#a4839f", "#5c406c", "#e5cdc4", "#91463d", "#000000",
)
"""The fixed 16-colour MakeCode Arcade palette; art pixels index it (0 = transparent)."""
ART_SIZE = 16
MIN_MAP, MAX_MAP = 8, 128
RENDER_MODES = ("glyph", "art")
"""Terminal render modes (§8): 2×1 glyph cells or 4×2 half-block art cells."""
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Command:
    """One command of a Do row: ``verb`` and its argument (None for ``destroy``).

    Arguments: ``move`` a direction or ``stop``; ``paint``/``portal`` a background code;
    ``create``/``block`` a sprite code; ``game`` ``win``/``lose``/``score``.
    """

    verb: str
    arg: str | None = None

    @property
    def text(self) -> str:
        """The project-file form, e.g. ``"move right"``, ``"destroy"``."""
        return self.verb if self.arg is None else f"{self.verb} {self.arg}"

    @classmethod
    def parse(cls, text: str) -> Command:
        """Read the project-file form; raises ValueError naming what is wrong."""
        parts = text.split()
        if not parts or parts[0] not in VERBS:
            raise ValueError(f"unknown command {text!r}: use one of {', '.join(VERBS)}")
        verb, args = parts[0], parts[1:]
        allowed: tuple[str, ...] = {
            "move": MOVE_ARGS, "paint": BACKGROUND_CODES, "portal": BACKGROUND_CODES,
            "create": SPRITE_CODES, "block": SPRITE_CODES, "game": GAME_ARGS, "destroy": (),
        }[verb]
        if verb == "destroy":
            if args:
                raise ValueError(f"'destroy' takes no argument: {text!r}")
            return cls(verb)
        if len(args) != 1 or args[0] not in allowed:
            raise ValueError(f"{verb!r} needs one of {', '.join(allowed)}: {text!r}")
        return cls(verb, args[0])


@dataclass(frozen=True)
class TileRecord:
    """What a rule says about one of its 3×3 tiles (missing record = don't care, no commands)."""

    col: int
    row: int
    include: frozenset[str] = frozenset()
    """Include (green check): see §6.4 for how it binds witnesses."""
    include2: frozenset[str] = frozenset()
    """Include′ (yellow dot): at least one of these kinds."""
    exclude: frozenset[str] = frozenset()
    """Kind codes that must be absent."""
    dir: str = "any"
    """Direction predicate (for the centre: the rule's direction)."""
    do: tuple[Command, ...] = ()
    """Up to 4 commands, executed left to right."""

    @property
    def position(self) -> tuple[int, int]:
        return (self.col, self.row)

    def attribute(self, code: str) -> str:
        """``include``, ``include2``, ``exclude`` or ``dontcare`` for a kind code."""
        for name in ("include", "include2", "exclude"):
            if code in getattr(self, name):
                return name
        return "dontcare"

    @property
    def declares_witness(self) -> bool:
        """Centre or edge tile whose include set is non-empty and holds only sprite kinds."""
        if self.position != CENTRE and self.position not in EDGES:
            return False
        return bool(self.include) and all(code in SPRITE_CODES for code in self.include)

    @property
    def is_empty(self) -> bool:
        """All don't-care and no commands: dropped on save."""
        return not (self.include or self.include2 or self.exclude or self.do) and self.dir == "any"


@dataclass(frozen=True)
class Rule:
    """A When/Do rule."""

    id: int
    type: str
    """``press``, ``change``, ``smash`` or ``never``."""
    tiles: tuple[TileRecord, ...] = ()
    """At most one record per (col, row), in stored order."""
    button: str | None = None
    """Press rules only."""
    transforms: str = "none"
    enabled: bool = True
    """False only for imported never rules that cannot run."""

    def tile(self, col: int, row: int) -> TileRecord | None:
        for record in self.tiles:
            if record.col == col and record.row == row:
                return record
        return None

    @property
    def centre(self) -> TileRecord:
        """The centre record (an empty one when the rule has none)."""
        return self.tile(*CENTRE) or TileRecord(*CENTRE)


@dataclass(frozen=True)
class ArtKind:
    """A background or sprite kind: name, optional 16×16 art, optional terminal look."""

    name: str
    art: tuple[str, ...] | None = None
    """16 rows of 16 hex digits (palette indices), or None."""
    glyph: str | None = None
    """1 or 2 terminal cells; None = derived from the name."""
    color: str | None = None
    """``#rrggbb``; None = the art's most frequent colour."""


@dataclass(frozen=True)
class SpritePlacement:
    """A sprite on the initial map."""

    x: int
    y: int
    kind: int
    """Sprite kind index 0..3."""


@dataclass(frozen=True)
class TileMap:
    """The initial map: one background kind per tile and the sprites."""

    width: int
    height: int
    background: tuple[tuple[int, ...], ...]
    """``background[y][x]`` is a background kind index 0..3."""
    sprites: tuple[SpritePlacement, ...] = ()
    """In initial-id order: row-major by tile; on one tile, in file order (§3.5)."""


@dataclass(frozen=True)
class Game:
    """A TileCode game (the project body, typed)."""

    name: str
    backgrounds: tuple[ArtKind, ...]
    """Exactly 4, kind order b0..b3."""
    sprites: tuple[ArtKind, ...]
    """Exactly 4, kind order s0..s3; kind order is also z-order (s0 drawn on top)."""
    map: TileMap
    rules: tuple[Rule, ...] = ()
    """In ascending id."""
    player_kind: int = 0
    help: bool = True
    round_ms: int = 150
    high_score: int = 0
    provenance: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    """Default run seed for play; None = a fresh random seed for every run."""
    render: str = "glyph"
    """How the studio draws tiles: ``glyph`` (2×1 cells) or ``art`` (4×2 half-block cells)."""

    def rule(self, rule_id: int) -> Rule | None:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        return None

    def kind_name(self, code: str) -> str:
        """A kind code's art name (``b2`` → ``grass``); the code itself if there is no such kind."""
        kinds = self.backgrounds if code[:1] == "b" else self.sprites
        index = int(code[1:]) if code[1:].isdigit() else -1
        return kinds[index].name if 0 <= index < len(kinds) else code
