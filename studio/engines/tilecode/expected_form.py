"""The decoded form of an original game in the shape of the corpus ``NAME.expected.json`` files.

Built from the raw decode (codes as stored), not from the studio model, so that tests can compare
every field of every rule record and command with the corpus, and so that the summary counts are
the original's own statistics (derived views counted before the studio's deduplication).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from studio.engines.tilecode.model import BUTTONS, DIR_PREDICATES, RULE_TYPES, TRANSFORMS
from studio.engines.tilecode.rules_codec import RawCommand, RawRecord, RawRule
from studio.engines.tilecode.settings import DecodedSettings

FORMAT = "tilecode-expected/1"
NO_SPRITE = 15
"""Sprite-map pixel value for a tile without a sprite."""
ORIGINAL_BUTTONS = (*BUTTONS, "B")
"""Press ruleArg names, including B (5), which the original defines but never offers."""
INSTRUCTIONS = ("move", "paint", "spawn", "destroy", "game", "portal", "block")
"""Instruction names as the original source spells them (``create`` is ``spawn``)."""
MOVE_NAMES = ("left", "up", "right", "down", "stop", "u-turn")
GAME_NAMES = ("win", "lose", "score10", "next-level")
ATTRIBUTE_CLASSES = ((1, "include"), (2, "include2"), (3, "exclude"))

DERIVED_VIEWS = {0: [], 1: [1], 2: [2], 3: [3], 4: [], 5: [5], 6: [3, 4, 5]}
"""Views each stored transforms code adds in the original. rotate-180 (4) on its own adds none
there: it only exists as part of rotate-3-way. (Spec §5 gives a stored 4 one view in the studio
engine; no corpus rule stores it.)"""


def _name(names: tuple[str, ...], code: int) -> str:
    return names[code] if 0 <= code < len(names) else f"code {code}"


def command_arg_name(command: RawCommand) -> str:
    """The argument description of the expected files (``right``, ``background 2``, ``score10`` …)."""
    inst, arg = command.inst, command.arg
    if inst == 0:
        return _name(MOVE_NAMES, arg)
    if inst in (1, 5):
        return f"background {arg}"
    if inst in (2, 6):
        return f"sprite {arg}"
    if inst == 3:
        return "remove"
    return _name(GAME_NAMES, arg)


def _classes(codes: tuple[int, ...]) -> dict[str, list[int]]:
    return {name: [kind for kind, c in enumerate(codes) if c == code] for code, name in ATTRIBUTE_CLASSES}


def record_form(record: RawRecord) -> dict[str, Any]:
    """One tile record as in the expected files."""
    return {
        "col": record.col,
        "row": record.row,
        "background": _classes(record.background),
        "sprite": _classes(record.sprite),
        "background_attr_codes": list(record.background),
        "sprite_attr_codes": list(record.sprite),
        "dir": record.dir,
        "dir_name": _name(DIR_PREDICATES, record.dir),
        "commands": [
            {"inst": c.inst, "name": _name(INSTRUCTIONS, c.inst), "arg": c.arg, "arg_name": command_arg_name(c)}
            for c in record.commands
        ],
    }


def rule_form(rule: RawRule, size: int) -> dict[str, Any]:
    """One rule as in the expected files; ``size`` is its buffer length."""
    arg_names = ORIGINAL_BUTTONS if rule.type == 0 else DIR_PREDICATES
    return {
        "type": RULE_TYPES[rule.type],
        "type_code": rule.type,
        "arg": rule.arg,
        "arg_name": _name(arg_names, rule.arg),
        "transforms": rule.transforms,
        "transforms_name": TRANSFORMS[rule.transforms],
        "derived_view_transforms": list(DERIVED_VIEWS[rule.transforms]),
        "bytes": size,
        "tiles": [record_form(record) for record in rule.records],
    }


def summary(rules: dict[int, RawRule]) -> dict[str, Any]:
    """The original export's statistics: base rules, derived views, records, commands, attributes."""
    records = [record for rule in rules.values() for record in rule.records]
    mix = Counter(RULE_TYPES[rule.type] for rule in rules.values())
    return {
        "base_rules": len(rules),
        "derived_views": sum(len(DERIVED_VIEWS[rule.transforms]) for rule in rules.values()),
        "tile_records_stored": len(records),
        "tile_records": sum(len({(r.col, r.row) for r in rule.records}) for rule in rules.values()),
        "commands": sum(len(record.commands) for record in records),
        "attributes": sum(code != 0 for record in records for code in (*record.background, *record.sprite)),
        "rule_mix": {name: mix[name] for name in RULE_TYPES},
    }


def expected_form(settings: DecodedSettings) -> dict[str, Any]:
    """The whole decoded game in the ``NAME.expected.json`` shape."""
    sprite_rows = [
        "".join("." if value == NO_SPRITE else f"{value:x}" for value in row) for row in settings.sprite_map.rows
    ]
    counts = Counter(value for row in settings.sprite_map.rows for value in row if value != NO_SPRITE)
    return {
        "name": settings.name,
        "format": FORMAT,
        "background_kinds": len(settings.background_art),
        "sprite_kinds": len(settings.sprite_art),
        "player_kind": settings.player_kind,
        "map": {
            "width": settings.background_map.width,
            "height": settings.background_map.height,
            "background": list(settings.background_map.hex_rows()),
            "sprites": sprite_rows,
            "sprite_counts": {str(kind): counts[kind] for kind in range(len(settings.sprite_art))},
        },
        "art": {
            "backgrounds": [list(image.hex_rows()) for image in settings.background_art],
            "sprites": [list(image.hex_rows()) for image in settings.sprite_art],
        },
        "rules": {str(rid): rule_form(rule, settings.rule_sizes[rid]) for rid, rule in settings.rules.items()},
        "summary": summary(settings.rules),
    }
