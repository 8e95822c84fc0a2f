"""trrbt JSON export (spec §4.2): stable, readable text that the reference editor can import.

Layout: 2-space indentation; objects one key per line in their original order; a list of plain
values (a pattern row, ``withs``, a colour) on one line; non-ASCII as ``\\uXXXX`` escapes (surrogate
pairs beyond the BMP); ``dispid`` editor ids dropped; numbers keep their type.
"""

from __future__ import annotations

import json
from typing import Any

from studio.engines.btree.model.reshape import Game
from studio.engines.btree.model.schema import Node


def strip_dispids(node: Node) -> Node:
    """A copy of a tree without ``dispid`` fields (the reference editor drops them on export)."""
    out = {k: v for k, v in node.items() if k != "dispid"}
    children = node.get("children")
    if isinstance(children, list):
        out["children"] = [strip_dispids(c) if isinstance(c, dict) else c for c in children]
    return out


def export_json(game: Game, tree: Node | None = None) -> str:
    """The trrbt JSON text of ``game`` (its authored tree, or ``tree`` when given: e.g. compiled)."""
    chosen = game.tree if tree is None else tree
    document = {
        "name": game.name,
        "sprites": game.sprites,
        "tree": None if chosen is None else strip_dispids(chosen),
    }
    return dumps_json(document)


def dumps_json(document: Any) -> str:
    """Any JSON value in the export layout (used for ``{"name", "tree"}`` expansions too)."""
    out: list[str] = []
    _write(out, document, 0)
    return "".join(out) + "\n"


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, allow_nan=False)


def _is_plain(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def _write(out: list[str], value: Any, depth: int) -> None:
    pad = "  " * (depth + 1)
    end = "  " * depth
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        out.append("{\n")
        for i, (key, item) in enumerate(value.items()):
            out.append(f"{pad}{_scalar(str(key))}: ")
            _write(out, item, depth + 1)
            out.append(",\n" if i + 1 < len(value) else "\n")
        out.append(end + "}")
    elif isinstance(value, list):
        if all(_is_plain(item) for item in value):
            out.append("[" + ", ".join(_scalar(item) for item in value) + "]")
            return
        out.append("[\n")
        for i, item in enumerate(value):
            out.append(pad)
            _write(out, item, depth + 1)
            out.append(",\n" if i + 1 < len(value) else "\n")
        out.append(end + "]")
    else:
        out.append(_scalar(value))
