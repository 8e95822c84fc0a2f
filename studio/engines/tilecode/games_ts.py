"""The original's ``games.ts`` text → settings JSON documents (spec §4.2, source form 2).

``games.ts`` holds one ``function createXxx(prefix: string) { … }`` per sample game, each a list
of ``settings.writeString/writeNumber/writeBuffer(prefix + "Key", value)`` calls with buffers as
``hex`` template literals, and top-level ``createXxx("TWn-");`` calls choosing the slots (a
commented-out call names a slot but does not load the game). Only these three call forms are
read, with regular expressions; the text is never executed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from studio.engines.tilecode.codec import TilecodeImportError

REPOSITORY_URL = "https://github.com/microsoft/tilecode"
FUNCTION = re.compile(r"^function\s+create(\w+)\s*\(\s*prefix\b[^)]*\)\s*\{", re.MULTILINE)
FUNCTION_END = re.compile(r"^\}", re.MULTILINE)
"""A function body ends at the first closing brace in column 0."""
WRITE = re.compile(
    r"settings\.write(?:"
    r"String\(\s*prefix\s*\+\s*\"(?P<skey>\w+)\"\s*,\s*\"(?P<svalue>[^\"]*)\"\s*\)"
    r"|Number\(\s*prefix\s*\+\s*\"(?P<nkey>\w+)\"\s*,\s*(?P<nvalue>[^)]*?)\s*\)"
    r"|Buffer\(\s*prefix\s*\+\s*\"(?P<bkey>\w+)\"\s*,\s*hex\s*`(?P<bvalue>[^`]*)`\s*\)"
    r")"
)
SLOT_CALL = re.compile(r"^[ \t]*(?P<comment>//)?[ \t]*create(?P<name>\w+)\(\s*\"(?P<slot>TW\d+-)\"\s*\)\s*;",
                       re.MULTILINE)


@dataclass(frozen=True)
class SourceGame:
    """One game found in a ``games.ts`` text."""

    name: str
    document: dict[str, Any]
    """The settings JSON form (``name``, ``source``, ``keys``), ready for the importer."""
    slot: str | None
    """The slot of its top-level call (``TW5``), commented out or not; None without a call."""
    loaded: bool
    """Whether that call is live (not commented out)."""


def _number(text: str) -> int | None:
    """An integer literal; None for anything else (two samples write ``undefined`` / ``NaN``)."""
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def _keys(body: str, function: str) -> tuple[dict[str, Any], dict[str, str]]:
    keys: dict[str, Any] = {}
    odd: dict[str, str] = {}
    for match in WRITE.finditer(body):
        if match["skey"]:
            key, value = match["skey"], match["svalue"]
        elif match["nkey"]:
            key, value = match["nkey"], _number(match["nvalue"])
            if value is None:
                odd[key] = match["nvalue"]
        else:
            key, value = match["bkey"], "".join(match["bvalue"].split()).lower()
        if key in keys:
            raise TilecodeImportError(f"create{function} writes the key twice", key)
        keys[key] = value
    return keys, odd


def parse_games_ts(text: str) -> list[SourceGame]:
    """Every ``createXxx`` game of a ``games.ts`` text, in file order.

    Raises:
        TilecodeImportError: a function without its closing brace in column 0.
    """
    games = []
    outside = []  # the text between functions, where the slot calls are
    position = 0
    for match in FUNCTION.finditer(text):
        if match.start() < position:
            continue  # a nested "function create…" line inside an earlier body
        end = FUNCTION_END.search(text, match.end())
        if end is None:
            raise TilecodeImportError(f"create{match[1]} has no closing '}}' in column 0")
        outside.append(text[position:match.start()])
        keys, odd = _keys(text[match.end():end.start()], match[1])
        games.append((match[1], keys, odd))
        position = end.end()
    outside.append(text[position:])
    slots: dict[str, tuple[str, bool]] = {}
    for call in SLOT_CALL.finditer("".join(outside)):
        # A live call wins over a commented-out one for the same game.
        if call["name"] not in slots or not slots[call["name"]][1]:
            slots[call["name"]] = (call["slot"].rstrip("-"), call["comment"] is None)
    found = []
    for name, keys, odd in games:
        slot, loaded = slots.get(name, (None, False))
        source = {"repository": REPOSITORY_URL, "file": "games.ts", "function": f"create{name}",
                  "slot_at_head": slot, "loaded_at_head": loaded}
        document: dict[str, Any] = {"name": name, "source": source, "keys": keys}
        if odd:
            document["non_numeric_literals"] = odd
        found.append(SourceGame(name, document, slot, loaded))
    return found
