"""Addressing, creating and labelling authored tree nodes, for the tree view and the edits of
:mod:`studio.engines.btree.editing.tree_edit` (spec §11.2), which re-exports all of it.

A node is named by its path: the tuple of child indices from the root (``()`` is the root), the
``at`` of the project file. :func:`spec_path` converts to the diagnostics' notation
(``tree/children[1]/children[0]``) and back.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from typing import Any

from studio.engines.btree.model.schema import (
    CONTROL_TYPES, PARENT_TYPES, TILE_TYPES, Node, js_string, pattern_size,
)
from studio.engines.btree.model.text import BUTTON_GLYPHS

NodePath = tuple[int, ...]

CONTROL_ORDER = ("order", "all", "none", "random-try", "loop-until-all", "loop-times", "player", "win", "lose", "draw")
TILE_ORDER = ("match", "match-times", "rewrite", "rewrite-all", "set-board", "layer-template",
              "append-rows", "append-columns", "display-board")
TRANSFORM_ORDER = ("x-ident", "x-prune", "x-mirror", "x-flip", "x-skew", "x-rotate", "x-spin", "x-swap",
                   "x-replace", "x-unroll-replace", "x-link", "x-file")
TYPE_ORDER = CONTROL_ORDER + TILE_ORDER + TRANSFORM_ORDER
"""Every authored node type, in the order of spec §3.2 (the editor's menus)."""

_SPEC_PATH = re.compile(r"tree((?:/children\[\d+\])*)\Z")


class EditError(Exception):
    """An edit that does not apply; ``message`` says why, in words for the status line."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ------------------------------------------------------------------------------------ addressing


def node_at(tree: Node, path: NodePath) -> Node:
    """The node at ``path``.

    Raises:
        EditError: no node has that path.
    """
    node = tree
    for depth, index in enumerate(path):
        children = node.get("children")
        if not isinstance(children, list) or not 0 <= index < len(children):
            raise EditError(f"no node at {list(path)} (stopped at {list(path[:depth])})")
        node = children[index]
    return node


def parent_path(path: NodePath) -> NodePath:
    """The path of the parent.

    Raises:
        EditError: the root has no parent.
    """
    if not path:
        raise EditError("the root has no parent")
    return path[:-1]


def walk(tree: Node) -> Iterator[tuple[NodePath, Node]]:
    """Every ``(path, node)`` of the tree in pre-order (the order of the project file)."""
    stack: list[tuple[NodePath, Node]] = [((), tree)]
    while stack:
        path, node = stack.pop()
        yield path, node
        children = node.get("children") or ()
        stack.extend((path + (i,), child) for i, child in reversed(list(enumerate(children))))


def spec_path(path: NodePath) -> str:
    """The diagnostics' notation of a path: ``(1, 0)`` → ``tree/children[1]/children[0]``."""
    return "tree" + "".join(f"/children[{i}]" for i in path)


def at_label(path: NodePath) -> str:
    """The screens' short notation of a path: ``(1, 0)`` → ``@1/0``, ``()`` → ``@root``."""
    return "@" + ("/".join(map(str, path)) or "root")


def path_from_spec(text: str) -> NodePath:
    """The inverse of :func:`spec_path` (the path part of a compiled node's ``origin``).

    Raises:
        EditError: ``text`` is not a path in that notation.
    """
    match = _SPEC_PATH.match(text)
    if match is None:
        raise EditError(f"not a node path: {text!r} (expected tree/children[i]/…)")
    return tuple(int(i) for i in re.findall(r"\[(\d+)\]", match.group(1)))


def category(kind: str) -> str:
    """``"control"``, ``"tile"`` or ``"transform"``: how the tree view draws a node type.

    Raises:
        EditError: an unknown type.
    """
    if kind in CONTROL_TYPES:
        return "control"
    if kind in TILE_TYPES:
        return "tile"
    if kind in TRANSFORM_ORDER:
        return "transform"
    raise EditError(f"unknown node type {kind!r}")


# ------------------------------------------------------------------------------------- new nodes


def new_node(kind: str) -> Node:
    """A new node of ``kind`` with the editor defaults of spec §3.2.

    Required fields get values that pass the structural check (links get an empty ``target`` to be
    filled in; they fail to compile until it is). Optional fields are left out: the property editor
    shows their defaults (:func:`studio.engines.btree.editing.node_fields.fields_of`).

    Raises:
        EditError: an unknown type.
    """
    category(kind)
    node: Node = {"type": kind}
    empty = {"main": [["_"]]}
    defaults: dict[str, dict[str, Any]] = {
        "loop-times": {"times": 1},
        "player": {"pid": ""},
        "match": {"pattern": empty},
        "match-times": {"times": 1, "pattern": empty},
        "rewrite": {"lhs": empty, "rhs": empty},
        "rewrite-all": {"lhs": empty, "rhs": empty},
        "set-board": {"pattern": {"main": [["_"] * 3 for _ in range(3)]}},
        "append-rows": {"pattern": empty},
        "append-columns": {"pattern": empty},
        "layer-template": {"layer": "NEW", "with": "_"},
        "display-board": {"delay": 0.5},
        "x-swap": {"what": "", "with": ""},
        "x-replace": {"what": "", "withs": []},
        "x-unroll-replace": {"what": "", "withs": []},
        "x-link": {"target": ""},
        "x-file": {"file": "", "target": ""},
    }
    # One deep copy per field: no two fields of a node share a pattern object.
    node.update({key: copy.deepcopy(value) for key, value in defaults.get(kind, {}).items()})
    if kind in PARENT_TYPES:
        node["children"] = []
    return node


def replace_node(tree: Node, path: NodePath, change: Callable[[Node], Node]) -> Node:
    """``tree`` with the node at ``path`` replaced by ``change(node)``.

    Args:
        tree: the tree, left unchanged.
        path: an existing node's path.
        change: returns the new node (a new dict; it must not modify its argument).

    Returns:
        A tree that copies only the dicts and children lists from the root to that node and
        shares every other subtree with ``tree``.
    """
    if not path:
        return change(tree)
    children = list(tree["children"])
    children[path[0]] = replace_node(children[path[0]], path[1:], change)
    return {**tree, "children": children}


# ------------------------------------------------------------------------------ find and labels


def find(tree: Node, text: str) -> list[NodePath]:
    """Paths of the nodes whose ``nid``, ``comment`` or ``desc`` contains ``text`` (any case), pre-order."""
    needle = text.strip().casefold()
    if not needle:
        return []
    found = []
    for path, node in walk(tree):
        for key in ("nid", "comment", "desc"):
            value = node.get(key)
            if value is not None and needle in js_string(value).casefold():
                found.append(path)
                break
    return found


def _size(pattern: Any) -> str:
    if not isinstance(pattern, dict) or not pattern:
        return "∅"
    try:
        rows, cols = pattern_size(pattern)
    except (TypeError, AttributeError):
        return "?"
    return f"{rows}×{cols}" + (f"×{len(pattern)}" if len(pattern) > 1 else "")


def summary(node: Node, width: int = 60) -> str:
    """The one-line label of a node in the tree view.

    Args:
        node: an authored node.
        width: the longest label; longer ones end in ``…``.

    Returns:
        Type, ``#nid``, the key fields (pid, ×times, delay, what/with, link target, layer, button
        glyph, pattern size), then the desc in quotes or the comment's first line after ``·``,
        e.g. ``rewrite [←] 1×2 "push"``.
    """
    kind = node.get("type")
    parts = [str(kind)]
    text = {k: js_string(v) for k, v in node.items() if k != "children" and not isinstance(v, (dict, list))}
    if text.get("nid"):
        parts.append("#" + text["nid"])
    if text.get("pid"):
        parts.append("pid " + text["pid"])
    if "times" in text:
        parts.append("×" + text["times"])
    if "delay" in text:
        parts.append(text["delay"] + "s")
    if node.get("remorig") is True:
        parts.append("-orig")
    if kind == "layer-template":
        parts.append(f"{text.get('layer', '?')}={text.get('with', '?')}")
    elif kind == "x-swap":
        parts.append(f"{text.get('what', '')}↔{text.get('with', '')}")
    elif isinstance(node.get("withs"), list) or "what" in text:
        withs = node.get("withs")
        listed = " ".join(js_string(w) for w in withs) if isinstance(withs, list) else ""
        parts.append(f"{text.get('what', '')}→[{listed}]")
    if kind == "x-file":
        parts.append(f"→ {text.get('file', '')}:{text.get('target', '')}")
    elif "target" in text:
        parts.append("→ " + text["target"])
    if text.get("button") in BUTTON_GLYPHS:
        parts.append(f"[{BUTTON_GLYPHS[text['button']]}]")
    for key in ("pattern", "lhs"):
        if key in node:
            parts.append(_size(node[key]))
    if text.get("desc"):
        parts.append(f'"{text["desc"]}"')
    elif text.get("comment"):
        parts.append("· " + text["comment"].splitlines()[0])
    label = " ".join(parts)
    return label if len(label) <= width else label[: max(width - 1, 0)] + "…"
