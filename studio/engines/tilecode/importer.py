"""Original TileCode games (settings JSON form) → studio :class:`Game` (spec §4.2).

Pure: the caller reads and parses the file, this module only decodes and converts.

Typical use::

    result = import_settings(json.loads(text))
    result.game, result.warnings
    decoded_form(json.loads(text))   # the corpus ``NAME.expected.json`` shape
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.engines.tilecode.codec import Image, TilecodeImportError
from studio.engines.tilecode.expected_form import NO_SPRITE, expected_form
from studio.engines.tilecode.import_rules import convert_rule
from studio.engines.tilecode.model import (
    ART_SIZE, MAX_MAP, MIN_MAP, ArtKind, Game, Rule, SpritePlacement, TileMap,
)
from studio.engines.tilecode.settings import KIND_COUNT, DecodedSettings, decode_settings

REPOSITORY = "microsoft/tilecode"
COMMIT = "9641b7d86e1c8cf7eb76eba897a67fc48abc5864"
"""HEAD of the original repository, the commit the corpus and the spec are taken from."""
LICENSE = "MIT"
COPYRIGHT = "Copyright (c) Microsoft Corporation."

KIND_NAMES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "HelloWorld": (("brick", "water", "dark sand", "dirt"), ("player", "apple", "snake", "diamond")),
    "ApplesGrow": (("brick", "space", "water", "dirt"), ("head", "body", "apple", "apple core")),
    "MineRocks": (("wall", "dirt", "space", "dirt2"), ("player", "boulder", "diamond", "enemy")),
    "PushBoxes": (("brick", "floor", "goal", "dirt"), ("player", "box", "unused", "box-on-goal")),
    "EatDots": (("wall", "path", "tunnel", "dirt"), ("Pac-Man", "dot", "ghost", "diamond")),
    "SwapSprites": (("brick", "space", "selected", "swap marker"), ("cursor", "diamond", "boulder", "apple")),
    "SkeletonDungeon": (("brick", "water", "space", "heart"), ("player", "apple", "skeleton", "diamond")),
    "LeftHandRule": (("brick", "grass", "background 2", "background 3"),
                     ("player", "diamond", "sprite 2", "sprite 3")),
}
"""Kind names of the samples as spec §9.1 gives them; the original stores no names."""


@dataclass(frozen=True)
class ImportResult:
    """An imported game and what had to be dropped, reset or disabled on the way."""

    game: Game
    warnings: tuple[str, ...] = ()


def kind_names(game_name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Background and sprite names for a game: the sample's names, else numbered ones."""
    generic = (tuple(f"background {k}" for k in range(KIND_COUNT)), tuple(f"sprite {k}" for k in range(KIND_COUNT)))
    return KIND_NAMES.get(game_name, generic)


def _art(image: Image, key: str) -> tuple[str, ...]:
    if (image.width, image.height) != (ART_SIZE, ART_SIZE):
        raise TilecodeImportError(f"art is {image.width}×{image.height}, it must be {ART_SIZE}×{ART_SIZE}", key)
    return image.hex_rows()


def _map(settings: DecodedSettings) -> TileMap:
    back, sprites = settings.background_map, settings.sprite_map
    if not (MIN_MAP <= back.width <= MAX_MAP and MIN_MAP <= back.height <= MAX_MAP):
        raise TilecodeImportError(f"map is {back.width}×{back.height}; sides must be {MIN_MAP}..{MAX_MAP}", "WBackM")
    if (sprites.width, sprites.height) != (back.width, back.height):
        raise TilecodeImportError(
            f"sprite map is {sprites.width}×{sprites.height}, the background map {back.width}×{back.height}",
            "WSpriteM")
    placements = []
    for y in range(back.height):
        for x in range(back.width):
            if back.rows[y][x] >= KIND_COUNT:
                raise TilecodeImportError(f"tile ({x}, {y}) has background kind {back.rows[y][x]}", "WBackM")
            kind = sprites.rows[y][x]
            if kind == NO_SPRITE:
                continue
            if kind >= KIND_COUNT:
                raise TilecodeImportError(f"tile ({x}, {y}) has sprite kind {kind}", "WSpriteM")
            # Row-major by tile: the initial sprite ids of §3.5.
            placements.append(SpritePlacement(x, y, kind))
    return TileMap(back.width, back.height, back.rows, tuple(placements))


def provenance(settings: DecodedSettings) -> dict[str, Any]:
    """Source, commit, licence and copyright; the corpus metadata wins over the defaults.

    A studio export carries the game's own provenance table (possibly empty) and keeps it.
    """
    source = settings.source
    if isinstance(source.get("provenance"), dict):
        return dict(source["provenance"])
    repository = str(source.get("repository") or REPOSITORY).removeprefix("https://github.com/")
    function = source.get("function") or f"create{settings.name}"
    return {
        "source": f"{repository} {source.get('file') or 'games.ts'} {function}",
        "commit": str(source.get("commit") or COMMIT),
        "license": str(source.get("license") or LICENSE),
        "copyright": str(source.get("copyright") or COPYRIGHT),
    }


def game_from_settings(settings: DecodedSettings) -> ImportResult:
    """Convert decoded settings into a game.

    Raises:
        TilecodeImportError: art that is not 16×16, a map outside 8..128 or with kinds outside
            0..3, maps of different sizes, or an undefined rule code.
    """
    warnings = [f"{settings.name}: {note}" for note in settings.warnings]

    def warn(note: str) -> None:
        warnings.append(f"{settings.name}: {note}")

    if not 0 <= settings.player_kind < KIND_COUNT:
        raise TilecodeImportError(f"player kind {settings.player_kind} is outside 0..{KIND_COUNT - 1}", "PlayerN")
    back_names, sprite_names = kind_names(settings.name)
    backgrounds = tuple(ArtKind(back_names[k], _art(image, f"BackI{k}")) for k, image in enumerate(settings.background_art))
    sprites = tuple(ArtKind(sprite_names[k], _art(image, f"SpriteI{k}")) for k, image in enumerate(settings.sprite_art))
    rules: list[Rule] = []
    for rule_id, raw in settings.rules.items():
        rule = convert_rule(rule_id, raw, warn)
        if rule is not None:
            rules.append(rule)
    game = Game(
        name=settings.name,
        backgrounds=backgrounds,
        sprites=sprites,
        map=_map(settings),
        rules=tuple(rules),
        player_kind=settings.player_kind,
        help=settings.help,
        high_score=settings.high_score,
        provenance=provenance(settings),
    )
    return ImportResult(game, tuple(warnings))


def import_settings(document: dict[str, Any], name: str | None = None) -> ImportResult:
    """Decode and convert a settings JSON document (``name``, ``source``, ``keys``).

    Args:
        document: the parsed JSON.
        name: the game name when the document has none (e.g. the file stem).

    Raises:
        TilecodeImportError: anything that cannot be decoded or represented; the message names
            the settings key and, for buffers, the byte offset.
    """
    return game_from_settings(decode_settings(document, name))


def decoded_form(document: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    """The game decoded field by field in the corpus ``NAME.expected.json`` shape (codes as stored).

    Raises:
        TilecodeImportError: as :func:`import_settings` for buffers that do not decode.
    """
    return expected_form(decode_settings(document, name))
