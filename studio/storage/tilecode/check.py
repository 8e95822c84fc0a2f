"""The authoring constraints of TileCode rules (spec tilecode.md §3.4): errors and warnings.

The editor makes the errors impossible to create, so they come only from hand-edited or imported
files; warnings describe rules that run but do less than they seem to. Every problem carries the
rule id, the tile and a field path relative to its rule, so the CLI can point into the file and
the rule editor can list the problems of one rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.engines.common.words import counted
from studio.engines.tilecode.model import (
    BACKGROUND_CODES, CENTRE, CORNERS, DIRECTIONS, MAX_MAP, MIN_MAP, SPRITE_CODES, Game, Rule,
    TileRecord,
)

SETS = ("include", "include2", "exclude")
SPRITE_VERBS = ("move", "destroy")
NEVER_VERBS = ("game", "block")
OFFSETS = {"left": (-1, 0), "up": (0, -1), "right": (1, 0), "down": (0, 1)}


@dataclass(frozen=True)
class Problem:
    """One finding of the validator."""

    severity: str
    """``error`` (blocks play) or ``warning``."""
    message: str
    """Names the rule and tile, says what is wrong."""
    hint: str = ""
    """What to do about it."""
    rule_id: int | None = None
    """The rule concerned; None for map problems."""
    path: tuple[str | int, ...] = ()
    """Inside the rule (``("tiles", 1, "do", 0)``), or from the body root for map problems."""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


def has_witness(record: TileRecord) -> bool:
    """Whether commands on this row have a sprite to act on.

    The centre's witness is the centre sprite itself (§6.4), so a centre that includes any sprite
    kind has one even when it also names backgrounds; other rows need a declared witness (§3.3).
    """
    if record.position == CENTRE:
        return any(code in SPRITE_CODES for code in record.include)
    return record.declares_witness


def collide_position(rule: Rule) -> tuple[int, int] | None:
    """The smash rule's collide tile: the centre's neighbour in the centre direction."""
    offset = OFFSETS.get(rule.centre.dir)
    return None if offset is None else (CENTRE[0] + offset[0], CENTRE[1] + offset[1])


def rule_problems(rule: Rule) -> list[Problem]:
    """Every error and warning of one rule, errors first within each record."""
    problems: list[Problem] = []

    def add(severity: str, where: tuple[str | int, ...], text: str, hint: str = "") -> None:
        problems.append(Problem(severity, f"rule {rule.id}, {text}", hint, rule.id, where))

    centre_index = next((j for j, r in enumerate(rule.tiles) if r.position == CENTRE), None)
    centre_path = ("tiles", centre_index) if centre_index is not None else ("tiles",)
    centre = rule.centre
    if (rule.type == "press") != (rule.button is not None):
        add("error", ("button",), "only press rules have a button, and every press rule has one",
            "set button on press rules only")
    if rule.type == "smash" and centre.dir not in DIRECTIONS:
        add("error", (*centre_path, "dir"), f"tile (2,2): a smash rule's centre dir must be a "
            f"direction, not {centre.dir!r}", "set dir to the way the sprite is about to move")
    if rule.type == "never" and rule.enabled:
        if not any(c in SPRITE_CODES for c in centre.include):
            add("error", (*centre_path, "include"), "tile (2,2): a never rule needs a sprite kind "
                "in the centre include", "include the sprite kind that must never appear")
        elif any(c in BACKGROUND_CODES for c in centre.include):
            add("error", (*centre_path, "include"), "tile (2,2): a never rule's centre include "
                "may not hold a background kind", "remove the background kind from include")
    for j, record in enumerate(rule.tiles):
        _record_problems(rule, record, ("tiles", j), add)
    _rule_warnings(rule, centre_path, add)
    return problems


def _record_problems(rule: Rule, record: TileRecord, path: tuple, add) -> None:
    where = f"tile ({record.col},{record.row})"
    seen: dict[str, str] = {}
    for name in SETS:
        for code in sorted(getattr(record, name)):
            if code in seen:
                add("error", (*path, name), f"{where}: {code} is in both {seen[code]} and {name}",
                    "keep it in one set")
            seen[code] = name
    if record.do and record.position in CORNERS:
        add("error", (*path, "do"), f"{where}: corner tiles cannot carry commands",
            "move the commands to the centre or an edge tile")
    if len(record.do) > 4:
        add("error", (*path, "do"), f"{where}: {len(record.do)} commands, at most 4 per row",
            "remove some commands")
    used: set[str] = set()
    for k, command in enumerate(record.do):
        after_create = k > 0 and record.do[k - 1].verb == "create" and command.verb == "move"
        at = (*path, "do", k)
        text = f"{where}, command {k + 1} {command.text!r}"
        if rule.type == "never" and command.verb not in NEVER_VERBS:
            add("error", at, f"{text}: never rules may only use game and block",
                "remove the command")
        elif command.verb in used and not after_create:
            add("error", at, f"{text}: {command.verb} is used twice in this row",
                "keep one of them")
        elif command.verb in SPRITE_VERBS and k > 0 and not after_create:
            add("error", at, f"{text}: {command.verb} must be the first command of its row",
                "move it to the front of the row")
        elif command.verb in SPRITE_VERBS and not after_create and not has_witness(record):
            add("error", at, f"{text}: this tile declares no sprite witness to {command.verb}",
                "include only sprite kinds on this tile, or remove the command")
        elif command.verb == "move" and rule.type == "smash" and command.arg != "stop":
            add("error", at, f"{text}: smash rules can only 'move stop'",
                "use move stop, or put the move in a press or change rule")
        elif command.arg == "stop" and rule.type != "smash":
            add("error", at, f"{text}: stop is only for smash rules", "use a direction")
        used.add(command.verb)


def _rule_warnings(rule: Rule, centre_path: tuple, add) -> None:
    centre = rule.centre
    dead = not any(c in SPRITE_CODES for c in centre.include)
    if rule.type != "never" and dead:
        add("warning", (*centre_path, "include"), "tile (2,2): no sprite kind in the centre "
            "include, so the rule never fires", "include the sprite kind the rule is for")
    elif rule.type in ("press", "change") and any(c in BACKGROUND_CODES for c in centre.include):
        add("warning", (*centre_path, "include"), "tile (2,2): background kinds in the centre "
            "include are redundant", "remove them; the centre sprite always stands there")
    if rule.type == "smash":
        collide = collide_position(rule)
        for j, record in enumerate(rule.tiles):
            if record.position not in (CENTRE, collide) and not record.is_empty:
                add("warning", ("tiles", j), f"tile ({record.col},{record.row}): smash rules only "
                    "look at the centre and the collide tile; this record is ignored",
                    "remove it")
        if centre.include2 or centre.exclude or any(c in BACKGROUND_CODES for c in centre.include):
            add("warning", centre_path, "tile (2,2): include′, exclude and background kinds at a "
                "smash rule's centre are ignored", "keep only sprite kinds in include")
    for j, record in enumerate(rule.tiles):
        if record.position != CENTRE and record.dir != "any" and not record.declares_witness:
            add("warning", ("tiles", j, "dir"), f"tile ({record.col},{record.row}): dir "
                f"{record.dir!r} is ignored on a tile without a sprite witness", "set it to any")
    if not rule.enabled:
        add("warning", ("enabled",), "is disabled and never runs",
            "fix its centre include and remove enabled = false")


def map_problems(game: Game) -> list[Problem]:
    """Map errors (§3.4 item 8) of a game built in code (files are checked while being read)."""
    problems: list[Problem] = []
    tile_map = game.map
    for key, size in (("width", tile_map.width), ("height", tile_map.height)):
        if not MIN_MAP <= size <= MAX_MAP:
            problems.append(Problem("error", f"map {key} {size} is outside {MIN_MAP}..{MAX_MAP}",
                                    path=("map", key)))
    if len(tile_map.background) != tile_map.height or any(
        len(row) != tile_map.width or any(not 0 <= k <= 3 for k in row) for row in tile_map.background
    ):
        problems.append(Problem("error", "the background grid does not match the map size or "
                                "holds a kind outside 0..3", path=("map", "background")))
    for sprite in tile_map.sprites:
        if not (0 <= sprite.x < tile_map.width and 0 <= sprite.y < tile_map.height):
            problems.append(Problem("error", f"a sprite at ({sprite.x},{sprite.y}) is outside the "
                                    "map", path=("map", "sprites")))
        if not 0 <= sprite.kind <= 3:
            problems.append(Problem("error", f"the sprite at ({sprite.x},{sprite.y}) has kind "
                                    f"{sprite.kind}, outside 0..3", path=("map", "sprites")))
    return problems


def game_problems(game: Game) -> list[Problem]:
    """Every problem of a game: map first, then rules in ascending id."""
    problems = map_problems(game)
    for rule in game.rules:
        problems += rule_problems(rule)
    return problems


def missing_player(game: Game) -> str:
    """Empty when the player's kind is on the map; else what to tell whoever is about to play.

    Not a problem of the game (some have no player), but a run where the buttons move nothing
    looks broken without a word: the game home and play both say it.
    """
    if any(sprite.kind == game.player_kind for sprite in game.map.sprites):
        return ""
    return (f"No {game.sprites[game.player_kind].name} (the player's kind) is on the map: "
            "the buttons move nothing")


def blocking_play(errors: int) -> str:
    """``1 error blocks play``, ``2 errors block play``: what errors mean, in every place told."""
    return f"{counted(errors, 'error')} {'blocks' if errors == 1 else 'block'} play"
