"""Original TileCode settings (one game slot's keys) decoded into raw images and rules.

Input is the *settings JSON* form of the corpus (spec §4.2 source 1): ``{"name", "source",
"keys"}`` where ``keys`` maps settings keys (slot prefix such as ``TW5-`` optional) to strings,
integers and lowercase hex buffers. The key suffix gives the type: ``S`` string, ``N`` number,
``M`` map, ``I`` image, ``B`` rule buffer.

Nothing here maps codes to the studio model; see :mod:`studio.engines.tilecode.importer`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from studio.engines.tilecode.codec import Image, TilecodeImportError, decode_image, parse_hex
from studio.engines.tilecode.rules_codec import RawRule, decode_rule

KIND_COUNT = 4
"""Backgrounds and sprites per game; the rule layout packs exactly 4 kinds per attribute byte."""
SLOT_PREFIX = re.compile(r"^TW\d+-")
KEY_PATTERN = re.compile(
    r"^(VersionS|WBackM|WSpriteM|BackN|SpriteN|PlayerN|HelpN|HighN|BackI\d+|SpriteI\d+|RuleB\d+)$")
REQUIRED = ("VersionS", "WBackM", "WSpriteM", "BackN", "SpriteN",
            *(f"BackI{k}" for k in range(KIND_COUNT)), *(f"SpriteI{k}" for k in range(KIND_COUNT)))
VERSION = "4.0.0"


@dataclass(frozen=True)
class DecodedSettings:
    """Every buffer of one game slot, decoded but with codes kept as stored."""

    name: str
    version: str
    player_kind: int
    help: bool
    high_score: int
    background_map: Image
    sprite_map: Image
    background_art: tuple[Image, ...]
    sprite_art: tuple[Image, ...]
    rules: dict[int, RawRule]
    """Rule id → rule, in ascending id."""
    rule_sizes: dict[int, int]
    """Rule id → buffer length in bytes."""
    source: dict[str, Any] = field(default_factory=dict)
    """The document's provenance metadata (repository, commit, function, licence …)."""
    warnings: tuple[str, ...] = ()


def is_settings_document(document: object) -> bool:
    """True for the settings JSON form: a ``keys`` table holding ``VersionS`` (prefix allowed)."""
    if not isinstance(document, dict) or not isinstance(document.get("keys"), dict):
        return False
    return any(SLOT_PREFIX.sub("", str(key)) == "VersionS" for key in document["keys"])


def _strip_prefixes(keys: dict[str, Any]) -> dict[str, Any]:
    stripped: dict[str, Any] = {}
    for key, value in keys.items():
        bare = SLOT_PREFIX.sub("", str(key))
        if bare in stripped:
            raise TilecodeImportError("the key appears twice (with and without a slot prefix)", bare)
        stripped[bare] = value
    return stripped


def _number(keys: dict[str, Any], key: str, default: int | None = None) -> int:
    """An ``N`` value; ``default`` (when given) replaces a missing or non-numeric value."""
    value = keys.get(key)
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if default is not None:
        return default
    if key not in keys:
        raise TilecodeImportError("the key is missing", key)
    raise TilecodeImportError(f"expected an integer, got {value!r}", key)


def decode_settings(document: dict[str, Any], name: str | None = None) -> DecodedSettings:
    """Decode a settings JSON document.

    Args:
        document: the parsed JSON (``name``, ``source``, ``keys``).
        name: the game name when the document has none.

    Raises:
        TilecodeImportError: a missing key, kind counts other than 4, or a buffer that does not
            decode exactly (the message names the key and byte offset).
    """
    if not isinstance(document, dict) or not isinstance(document.get("keys"), dict):
        raise TilecodeImportError("not a TileCode settings document (no 'keys' table)")
    keys = _strip_prefixes(document["keys"])
    for key in REQUIRED:
        if key not in keys:
            raise TilecodeImportError("the key is missing", key)
    warnings = [f"{key}: unknown settings key, ignored" for key in keys if not KEY_PATTERN.match(key)]
    for key in ("BackN", "SpriteN"):
        count = _number(keys, key)
        if count != KIND_COUNT:
            raise TilecodeImportError(f"kind count is {count}, the studio needs exactly {KIND_COUNT}", key)
    for key in keys:
        match = re.fullmatch(r"(BackI|SpriteI)(\d+)", key)
        if match and int(match.group(2)) >= KIND_COUNT:
            warnings.append(f"{key}: art of a kind beyond the {KIND_COUNT} kinds, ignored")
    version = keys["VersionS"]
    if version != VERSION:
        warnings.append(f"VersionS: version {version!r}, expected {VERSION!r}; decoded as {VERSION}")
    rules: dict[int, RawRule] = {}
    sizes: dict[int, int] = {}
    for key in sorted((k for k in keys if k.startswith("RuleB")), key=lambda k: int(k[5:])):
        data = parse_hex(keys[key], key)
        if int(key[5:]) in rules:
            raise TilecodeImportError(f"rule id {int(key[5:])} is stored twice", key)
        rules[int(key[5:])] = decode_rule(data, key)
        sizes[int(key[5:])] = len(data)

    def image(key: str) -> Image:
        return decode_image(parse_hex(keys[key], key), key)

    game_name = document.get("name") if isinstance(document.get("name"), str) else name
    source = document.get("source")
    return DecodedSettings(
        name=game_name or "TileCode game",
        version=str(version),
        player_kind=_number(keys, "PlayerN", 0),
        help=_number(keys, "HelpN", 1) == 1,
        high_score=max(0, _number(keys, "HighN", 0)),
        background_map=image("WBackM"),
        sprite_map=image("WSpriteM"),
        background_art=tuple(image(f"BackI{k}") for k in range(KIND_COUNT)),
        sprite_art=tuple(image(f"SpriteI{k}") for k in range(KIND_COUNT)),
        rules=rules,
        rule_sizes=sizes,
        source=dict(source) if isinstance(source, dict) else {},
        warnings=tuple(warnings),
    )
