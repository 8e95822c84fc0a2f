"""Studio :class:`Game` → original TileCode settings JSON form (spec §4.3, the importer's inverse).

Only games the original can hold are exported: maps up to 127×127, one sprite per tile, all rules
enabled. The original's change/smash ``ruleArg`` (the direction a rule was created with) is not
part of the model; the export writes the centre ``dir`` there, which the original ignored too.
"""

from __future__ import annotations

from typing import Any

from studio.engines.tilecode.codec import MAX_SIDE, Image, encode_image
from studio.engines.tilecode.expected_form import NO_SPRITE
from studio.engines.tilecode.model import (
    ART_SIZE, BACKGROUND_CODES, BUTTONS, DIR_PREDICATES, GAME_ARGS, MOVE_ARGS, RULE_TYPES,
    SPRITE_CODES, TRANSFORMS, VERBS, Command, Game, Rule, TileRecord,
)
from studio.engines.tilecode.rules_codec import RawCommand, RawRecord, RawRule, encode_rule
from studio.engines.tilecode.settings import KIND_COUNT, VERSION

ATTRIBUTE_CODES = {"include": 1, "include2": 2, "exclude": 3}


class TilecodeExportError(ValueError):
    """A game that the original settings format cannot hold."""


def _command(command: Command) -> RawCommand:
    verb, arg = command.verb, command.arg
    inst = VERBS.index(verb)
    if verb == "move":
        return RawCommand(inst, MOVE_ARGS.index(arg))
    if verb == "game":
        return RawCommand(inst, GAME_ARGS.index(arg))
    if verb == "destroy":
        return RawCommand(inst, 0)
    return RawCommand(inst, int(arg[1:]))  # b0..b3 / s0..s3


def _codes(record: TileRecord, codes: tuple[str, ...]) -> tuple[int, int, int, int]:
    return tuple(ATTRIBUTE_CODES.get(record.attribute(code), 0) for code in codes)  # type: ignore[return-value]


def raw_rule(rule: Rule) -> RawRule:
    """The stored form of a rule (records and commands in model order)."""
    if not rule.enabled:
        raise TilecodeExportError(f"rule {rule.id} is disabled; the original has no disabled rules")
    arg = BUTTONS.index(rule.button) if rule.type == "press" else DIR_PREDICATES.index(rule.centre.dir)
    records = tuple(
        RawRecord(r.col, r.row, _codes(r, BACKGROUND_CODES), _codes(r, SPRITE_CODES),
                  DIR_PREDICATES.index(r.dir), tuple(_command(c) for c in r.do))
        for r in rule.tiles if not r.is_empty
    )
    if len(records) > 15:
        raise TilecodeExportError(f"rule {rule.id} has more than 15 tile records")
    return RawRule(RULE_TYPES.index(rule.type), arg, TRANSFORMS.index(rule.transforms), records)


def _image(rows: tuple[str, ...] | None) -> bytes:
    # Kinds without art (e.g. a new studio project) export as a blank image.
    return encode_image(Image.from_hex_rows(rows or ("0" * ART_SIZE,) * ART_SIZE)).hex()


def _maps(game: Game) -> tuple[str, str]:
    tile_map = game.map
    if tile_map.width > MAX_SIDE or tile_map.height > MAX_SIDE:
        raise TilecodeExportError(f"the map is {tile_map.width}×{tile_map.height}; the original holds up to 127×127")
    sprites = [[NO_SPRITE] * tile_map.width for _ in range(tile_map.height)]
    for placement in tile_map.sprites:
        if sprites[placement.y][placement.x] != NO_SPRITE:
            raise TilecodeExportError(f"tile ({placement.x}, {placement.y}) holds several sprites; the original holds one")
        sprites[placement.y][placement.x] = placement.kind
    background = Image(tile_map.width, tile_map.height, tile_map.background)
    sprite_image = Image(tile_map.width, tile_map.height, tuple(tuple(row) for row in sprites))
    return encode_image(background).hex(), encode_image(sprite_image).hex()


def export_settings(game: Game) -> dict[str, Any]:
    """The settings JSON document of a game (keys in the original's write order).

    Raises:
        TilecodeExportError: the game uses something the original format cannot hold.
    """
    back_map, sprite_map = _maps(game)
    keys: dict[str, Any] = {"VersionS": VERSION, "WBackM": back_map, "WSpriteM": sprite_map, "BackN": KIND_COUNT}
    keys.update({f"BackI{k}": _image(kind.art) for k, kind in enumerate(game.backgrounds)})
    keys["SpriteN"] = KIND_COUNT
    keys.update({f"SpriteI{k}": _image(kind.art) for k, kind in enumerate(game.sprites)})
    keys.update({"HelpN": int(game.help), "HighN": game.high_score})
    keys.update({f"RuleB{rule.id}": encode_rule(raw_rule(rule)).hex() for rule in game.rules})
    keys["PlayerN"] = game.player_kind
    # The provenance travels verbatim so that a re-import keeps the MIT notice (or its absence).
    return {"name": game.name, "source": {"provenance": dict(game.provenance)}, "keys": keys}
