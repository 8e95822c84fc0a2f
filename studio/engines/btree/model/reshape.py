"""Reading trrbt games from text: YAML (with pattern reshaping, spec §4.1) and JSON (§4.2).

Pure functions of text; reading files is the caller's business (storage, commands).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from studio.engines.btree.model.errors import BtreeError
from studio.engines.btree.model.schema import DEFAULT_LAYER, RESHAPED_FIELDS, Node, child_path
from studio.engines.common.limits import (
    MAX_GAME_BYTES, MAX_NESTING, MAX_TREE_DEPTH, human_bytes, line_of, nesting_overflow, too_deep,
)


@dataclass
class Game:
    """An authored game: ``name``, packed ``sprites`` (or None) and the authored ``tree``."""

    name: str
    tree: Node | None
    sprites: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    """Things the reader dropped or changed (e.g. JSON nulls a TOML project cannot hold)."""

    def to_json(self) -> dict[str, Any]:
        """The trrbt JSON object (``name``, ``sprites``, ``tree``)."""
        return {"name": self.name, "sprites": self.sprites, "tree": self.tree}


def parse_yaml_game(text: str, file: str = "") -> Game:
    """Parse a trrbt YAML game and reshape its patterns.

    Raises:
        BtreeError: YAML syntax errors, a missing tree, or a pattern that is not text; a text
            past the limits of :mod:`studio.engines.common.limits` (size, nesting, aliases,
            tree depth).
    """
    # yaml takes about 30 ms to import: loaded with the first YAML game, not with every project
    import yaml

    from studio.engines.btree.model.yaml_bounds import check_yaml_bounds

    _check_size(text, file)
    # libyaml's loader has the same safe_load semantics and is ~10x faster (level files are big).
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        check_yaml_bounds(text, file)
        data = yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise BtreeError(
            f"YAML syntax error{where}: {problem}",
            file=file,
            hint="a comment line inside a multi-line pattern ends it; quote patterns that start "
            "with @ * & ! % - ' \" or contain ': ' or ' #'",
        ) from None
    if not isinstance(data, dict):
        raise BtreeError("the file is not a trrbt game (expected a mapping with name and tree)", file=file)
    tree = data.get("tree")
    if tree is not None and not isinstance(tree, dict):
        raise BtreeError("tree must be a node (a mapping with a type)", node_path="tree", file=file)
    if tree is not None:
        check_tree_depth(tree, file)
        tree = reshape_tree(tree, file=file)
    return Game(name=_name(data), tree=tree, sprites=None)


def parse_json_game(text: str, file: str = "") -> Game:
    """Parse a trrbt JSON game (patterns already in grid form).

    Raises:
        BtreeError: JSON syntax errors, a tree that is not a node; a text past the limits of
            :mod:`studio.engines.common.limits` (size, nesting, tree depth).
    """
    _check_size(text, file)
    deep_at = nesting_overflow(text, "json")
    if deep_at is not None:
        raise _too_deep(file, f"line {line_of(text, deep_at)}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BtreeError(
            f"JSON syntax error at line {exc.lineno}, column {exc.colno}: {exc.msg}", file=file
        ) from None
    except RecursionError:  # json's C parser raises it cleanly, should the scan have given up
        raise _too_deep(file, "the file") from None
    deep = too_deep(data)
    if deep is not None:
        raise _too_deep(file, "/".join(str(part) for part in deep[:6]))
    if not isinstance(data, dict):
        raise BtreeError("the file is not a trrbt game (expected an object with name and tree)", file=file)
    tree = data.get("tree")
    if tree is not None and not isinstance(tree, dict):
        raise BtreeError("tree must be a node (an object with a type)", node_path="tree", file=file)
    if tree is not None:
        check_tree_depth(tree, file)
    sprites = data.get("sprites")
    return Game(name=_name(data), tree=tree, sprites=sprites if isinstance(sprites, dict) else None)


def _check_size(text: str, file: str) -> None:
    if len(text) > MAX_GAME_BYTES:
        raise BtreeError(f"the game is longer than {human_bytes(MAX_GAME_BYTES)}, the most a "
                         "trrbt game may have", file=file,
                         hint="no trrbt game is this big: the file is damaged or hostile")


def _too_deep(file: str, where: str) -> BtreeError:
    return BtreeError(f"lists and objects nest more than {MAX_NESTING} deep ({where})",
                      file=file, hint="no trrbt game is built like this: the file is damaged "
                                      "or hostile")


def check_tree_depth(tree: Node, file: str = "", limit: int = MAX_TREE_DEPTH) -> None:
    """Raise :class:`BtreeError` when nodes nest more than ``limit`` deep: the compiler and the
    editors walk trees recursively. Walks with its own stack."""
    stack: list[tuple[Any, str, int]] = [(tree, "tree", 1)]
    while stack:
        node, path, depth = stack.pop()
        if depth > limit:
            raise BtreeError(f"nodes nest more than {limit} deep", node_path=path[:120] + "…",
                             file=file, hint="people write trees a dozen nodes deep: the file "
                                             "is damaged or hostile")
        children = node.get("children") if isinstance(node, dict) else None
        if isinstance(children, list):
            stack.extend((child, child_path(path, i), depth + 1) for i, child in enumerate(children))


def _name(data: dict[str, Any]) -> str:
    name = data.get("name")
    return name if isinstance(name, str) else ("" if name is None else str(name))


def reshape_tree(node: Node, file: str = "", path: str = "tree") -> Node:
    """A copy of a YAML tree with the pattern fields of tile nodes turned into layer grids."""
    out = dict(node)
    for key in RESHAPED_FIELDS.get(node.get("type"), ()):  # type: ignore[arg-type]
        if key in out:
            out[key] = reshape_pattern(out[key], out.get("layer"), node, f"{path}", key, file)
    children = node.get("children")
    if isinstance(children, list):
        out["children"] = [
            reshape_tree(child, file, child_path(path, i)) if isinstance(child, dict) else child
            for i, child in enumerate(children)
        ]
    return out


def reshape_pattern(
    value: Any, layer: Any, node: Node | None = None, path: str = "", key: str = "", file: str = ""
) -> dict[str, list[list[str]]]:
    """A YAML pattern value (text, ``{layer: text}`` or ``{layer: grid}``) as ``{layer: grid}``."""
    if isinstance(value, str):
        name = layer if isinstance(layer, str) and layer else DEFAULT_LAYER
        return {name: text_to_grid(value)}
    if isinstance(value, dict):
        out: dict[str, list[list[str]]] = {}
        for name, text in value.items():
            if isinstance(text, str):
                out[str(name)] = text_to_grid(text)
            elif _is_grid(text):
                out[str(name)] = [list(row) for row in text]
            else:
                raise _pattern_error(node, path, f"{key}.{name}", text, file)
        return out
    if _is_grid(value):  # our extension: a bare grid is a one-layer pattern
        name = layer if isinstance(layer, str) and layer else DEFAULT_LAYER
        return {name: [list(row) for row in value]}
    raise _pattern_error(node, path, key, value, file)


def _pattern_error(node: Node | None, path: str, key: str, value: Any, file: str) -> BtreeError:
    kind = type(value).__name__ if value is not None else "empty"
    return BtreeError(
        f"{key} must be a pattern (text, layer mapping or grid), not a {kind} ({value!r})",
        node_path=path,
        node_type=str((node or {}).get("type", "")),
        nid=str((node or {}).get("nid") or ""),
        file=file,
        hint="quote it: YAML reads an unquoted number or true/false as a value, not as tiles",
    )


def _is_grid(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(row, list) and all(isinstance(tile, str) for tile in row) for row in value
    )


def text_to_grid(text: str) -> list[list[str]]:
    """Rows split at ``;``, tiles at whitespace; blank rows dropped; short rows padded with ``.``."""
    rows = [row.split() for row in text.split(";")]
    rows = [row for row in rows if row]
    width = max((len(row) for row in rows), default=0)
    return [row + ["."] * (width - len(row)) for row in rows]
