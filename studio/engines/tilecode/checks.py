"""Load-time checks: what would make the round VM misbehave (a subset of the §3.4 errors).

The full validator (errors and warnings with field paths) belongs to storage; the engine only
refuses games it cannot run faithfully.
"""

from __future__ import annotations

from .errors import TilecodeError
from .model import (
    BUTTONS, CORNERS, DIRECTIONS, DIR_PREDICATES, KIND_CODES, MAX_MAP, MIN_MAP, RULE_TYPES,
    TRANSFORMS, Game, Rule,
)


def check_runnable(game: Game) -> None:
    """Raise :class:`TilecodeError` naming the first problem that blocks play."""
    _check_map(game)
    seen: set[int] = set()
    for rule in game.rules:
        if rule.id in seen:
            raise TilecodeError("duplicate rule id", f"rules[id={rule.id}]")
        seen.add(rule.id)
        _check_rule(rule)


def _check_map(game: Game) -> None:
    tmap = game.map
    if len(game.backgrounds) != 4 or len(game.sprites) != 4:
        raise TilecodeError("a game has exactly 4 background and 4 sprite kinds", "kinds")
    if not (MIN_MAP <= tmap.width <= MAX_MAP and MIN_MAP <= tmap.height <= MAX_MAP):
        raise TilecodeError(f"map size {tmap.width}x{tmap.height} outside 8..128", "map")
    if len(tmap.background) != tmap.height or any(len(r) != tmap.width for r in tmap.background):
        raise TilecodeError("background rows do not match the map size", "map.background")
    if any(not 0 <= k <= 3 for row in tmap.background for k in row):
        raise TilecodeError("background kind outside 0..3", "map.background")
    for i, sprite in enumerate(tmap.sprites):
        if not 0 <= sprite.kind <= 3:
            raise TilecodeError(f"sprite kind {sprite.kind} outside 0..3", f"map.sprites[{i}]")
        if not (0 <= sprite.x < tmap.width and 0 <= sprite.y < tmap.height):
            raise TilecodeError(f"sprite at ({sprite.x}, {sprite.y}) is off the map",
                                f"map.sprites[{i}]")


def _check_rule(rule: Rule) -> None:
    where = f"rules[id={rule.id}]"
    if rule.type not in RULE_TYPES:
        raise TilecodeError(f"unknown rule type {rule.type!r}", where)
    if rule.transforms not in TRANSFORMS:
        raise TilecodeError(f"unknown transforms {rule.transforms!r}", where)
    if rule.type == "press" and rule.button not in BUTTONS:
        raise TilecodeError(f"press rule needs a button, got {rule.button!r}", where)
    positions = set()
    for record in rule.tiles:
        at = f"{where} ({record.col},{record.row})"
        if not (1 <= record.col <= 3 and 1 <= record.row <= 3) or record.position in positions:
            raise TilecodeError("tile position outside 1..3 or repeated", at)
        positions.add(record.position)
        sets = (record.include, record.include2, record.exclude)
        if any(code not in KIND_CODES for s in sets for code in s):
            raise TilecodeError("unknown kind code", at)
        if (record.include & record.include2 or record.include & record.exclude
                or record.include2 & record.exclude):
            raise TilecodeError("a kind is in more than one attribute set", at)
        if record.dir not in DIR_PREDICATES:
            raise TilecodeError(f"unknown direction predicate {record.dir!r}", at)
        if record.do and record.position in CORNERS:
            raise TilecodeError("corner tiles carry no commands", at)
        if len(record.do) > 4:
            raise TilecodeError("more than 4 commands in a row", at)
        for command in record.do:
            _check_command(rule, command.verb, command.arg, at)
    centre = rule.centre
    if rule.type == "smash" and centre.dir not in DIRECTIONS:
        raise TilecodeError("smash rules need a centre direction", where)
    if rule.type == "never" and rule.enabled:
        if not any(c.startswith("s") for c in centre.include) or any(
            c.startswith("b") for c in centre.include
        ):
            raise TilecodeError("never rules need sprite kinds (only) in the centre include",
                                where)


def _check_command(rule: Rule, verb: str, arg: str | None, at: str) -> None:
    if rule.type == "never" and verb not in ("game", "block"):
        raise TilecodeError(f"never rules only issue game and block, not {verb}", at)
    if verb == "move":
        if arg == "stop" and rule.type != "smash":
            raise TilecodeError("move stop is for smash rules only", at)
        if arg != "stop" and rule.type == "smash":
            raise TilecodeError("smash rules can only stop, not move", at)
