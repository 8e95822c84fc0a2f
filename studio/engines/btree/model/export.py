"""trrbt JSON export (spec §4.2): stable, readable text that the reference editor can import;
and YAML export (§4.1), patterns written back as text where their tiles allow.

Layout: 2-space indentation; objects one key per line in their original order; a list of plain
values (a pattern row, ``withs``, a colour) on one line; non-ASCII as ``\\uXXXX`` escapes (surrogate
pairs beyond the BMP); ``dispid`` editor ids dropped; numbers keep their type.
"""

from __future__ import annotations

import json
from typing import Any

from studio.engines.btree.model.reshape import Game
from studio.engines.btree.model.schema import DEFAULT_LAYER, RESHAPED_FIELDS, Node


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


class _Block(str):
    """A pattern of several rows: written as a YAML literal block, one row a line."""


def _pattern_text(grid: list[list[str]]) -> str | None:
    """A grid as trrbt pattern text, or None when a tile cannot be written so (it is empty or
    holds a space or ``;``, which the text form splits at): the grid is then kept as a grid."""
    if not grid or any(not tile or ";" in tile or any(c.isspace() for c in tile)
                       for row in grid for tile in row):
        return None
    if len(grid) == 1:
        return " ".join(grid[0])
    return _Block("".join(" ".join(row) + ";\n" for row in grid))


def _yaml_node(node: Node) -> Node:
    out = {k: v for k, v in node.items() if k != "dispid"}
    for key in RESHAPED_FIELDS.get(node.get("type"), ()):  # type: ignore[arg-type]
        value = out.get(key)
        if not isinstance(value, dict):
            continue
        texts = {layer: _pattern_text(grid) if isinstance(grid, list) else None
                 for layer, grid in value.items()}
        layer = node.get("layer") if isinstance(node.get("layer"), str) and node.get("layer") \
            else DEFAULT_LAYER
        if list(texts) == [layer] and texts[layer] is not None:
            out[key] = texts[layer]  # the node's own layer: plain text, as authors write it
        else:
            out[key] = {name: value[name] if text is None else text for name, text in texts.items()}
    children = node.get("children")
    if isinstance(children, list):
        out["children"] = [_yaml_node(c) if isinstance(c, dict) else c for c in children]
    return out


def export_yaml(game: Game, tree: Node | None = None) -> str:
    """The trrbt YAML text of ``game`` (its authored tree, or ``tree`` when given).

    YAML games carry no sprite images (trrbt reads them from JSON only): they are left out.
    """
    import yaml  # loaded when a game is first exported as YAML, as when one is read

    class _Dumper(yaml.SafeDumper):
        pass

    _Dumper.add_representer(_Block, lambda dumper, text: dumper.represent_scalar(
        "tag:yaml.org,2002:str", str(text), style="|"))
    chosen = game.tree if tree is None else tree
    document = {"name": game.name, "tree": None if chosen is None else _yaml_node(chosen)}
    return "---\n" + yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                               default_flow_style=False, width=100)
