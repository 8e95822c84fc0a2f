"""Editing authored trees (btree.md §11.2): the tree editor's operations, pure.

Trees are nested dicts in the trrbt JSON shape and are treated as immutable: every operation
returns a new tree that copies only the dicts and lists on the path to the change and shares the
rest, so the editor can keep every version for undo. A node is named by its path, the child
indices from the root (``()`` is the root), as the project file's ``at``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .schema import (
    CONTROL_TYPES,
    LINK_TYPES,
    PARENT_TYPES,
    RULE_TRANSFORMS,
    TILE_TYPES,
    Node,
)
from .text import BUTTON_GLYPHS

Path = tuple[int, ...]

PLAYER_CHILDREN = frozenset({"rewrite", "x-ident", "x-prune", "x-mirror", "x-flip", "x-skew",
                             "x-rotate", "x-spin", "x-swap", "x-replace", "x-unroll-replace"})
"""What a ``player`` takes as children: rewrites, and transforms that only reshape them."""


class EditError(Exception):
    """An edit that does not apply here; the message says why, in words."""


# ------------------------------------------------------------------------------- reading


def node_at(tree: Node, path: Path) -> Node:
    """The node at ``path``.

    Raises:
        IndexError: no node there.
    """
    node = tree
    for index in path:
        children = node.get("children") or []
        if not 0 <= index < len(children):
            raise IndexError(f"no node at {list(path)}")
        node = children[index]
    return node


def walk(tree: Node | None) -> Iterator[tuple[Path, Node]]:
    """Every node with its path, in pre-order."""
    if tree is None:
        return
    stack: list[tuple[Path, Node]] = [((), tree)]
    while stack:
        path, node = stack.pop()
        yield path, node
        children = node.get("children") or []
        stack.extend(((*path, i), child) for i, child in reversed(list(enumerate(children))))


def spec_path(path: Path) -> str:
    """The spec's notation of a path: ``tree/children[1]/children[0]``."""
    return "tree" + "".join(f"/children[{i}]" for i in path)


_SPEC = re.compile(r"/children\[(\d+)\]")


def path_from_spec(text: str) -> Path:
    """The inverse of :func:`spec_path`.

    Raises:
        ValueError: not a path of that form.
    """
    if not text.startswith("tree"):
        raise ValueError(f"not a node path: {text!r}")
    rest = text[4:]
    parts = _SPEC.findall(rest)
    if "".join(f"/children[{p}]" for p in parts) != rest:
        raise ValueError(f"not a node path: {text!r}")
    return tuple(int(p) for p in parts)


def category(node_type: str) -> str:
    """``control``, ``tile`` or ``transform`` (unknown types count as tiles)."""
    if node_type in CONTROL_TYPES:
        return "control"
    if node_type.startswith("x-"):
        return "transform"
    return "tile"


def _size(pattern: Any) -> str:
    if not isinstance(pattern, dict) or not pattern:
        return "?"
    first = next(iter(pattern.values()))
    rows = len(first) if isinstance(first, list) else 0
    cols = len(first[0]) if rows and isinstance(first[0], list) else 0
    layers = f"×{len(pattern)}" if len(pattern) > 1 else ""
    return f"{rows}×{cols}{layers}"


def _one_line(pattern: Any) -> str:
    if not isinstance(pattern, dict):
        return "?"
    first = next(iter(pattern.values()), [])
    if isinstance(first, list) and len(first) == 1 and isinstance(first[0], list) \
            and len(first[0]) <= 4 and len(pattern) == 1:
        return " ".join(str(t) for t in first[0])
    return _size(pattern)


def summary(node: Node) -> str:
    """The node's line in the tree view: type, then what tells it apart."""
    kind = str(node.get("type", "?"))
    parts = [kind]
    if "pid" in node and node.get("pid") not in (None, ""):
        parts.append(f"{node['pid']}")
    for key in ("times", "delay", "layer", "with", "what"):
        if key in node and node[key] not in (None, ""):
            parts.append(f"{key}={node[key]}")
    if kind in ("rewrite", "rewrite-all"):
        button = BUTTON_GLYPHS.get(str(node.get("button") or ""), "")
        if button:
            parts.append(f"[{button}]")
        parts.append(f"{_one_line(node.get('lhs'))} → {_one_line(node.get('rhs'))}")
    elif "pattern" in node:
        parts.append(_size(node.get("pattern")))
    if kind in LINK_TYPES:
        parts.append(f"→ {node.get('target', '?')}")
    if node.get("nid"):
        parts.append(f"#{node['nid']}")
    text = " ".join(parts)
    label = node.get("desc") or node.get("comment")
    if label:
        text += f"  {label}"
    return text


# ------------------------------------------------------------------------------ building


def new_node(node_type: str) -> Node:
    """A new node of ``node_type`` with the editor defaults of §3.2."""
    empty = [["_"]]
    defaults: dict[str, Node] = {
        "loop-times": {"times": 1},
        "match-times": {"pattern": {"main": [["_"]]}, "times": 1},
        "match": {"pattern": {"main": [["_"]]}},
        "rewrite": {"lhs": {"main": [list(r) for r in empty]}, "rhs": {"main": [["_"]]}},
        "rewrite-all": {"lhs": {"main": [["_"]]}, "rhs": {"main": [["_"]]}},
        "set-board": {"pattern": {"main": [["_"] * 3 for _ in range(3)]}},
        "layer-template": {"layer": "layer", "with": "_"},
        "append-rows": {"pattern": {"main": [["_"]]}},
        "append-columns": {"pattern": {"main": [["_"]]}},
        "display-board": {"delay": 0.5},
        "player": {"pid": ""},
        "x-swap": {"what": "A", "with": "B"},
        "x-replace": {"what": "A", "withs": ["B"]},
        "x-unroll-replace": {"what": "A", "withs": ["B"]},
        "x-link": {"target": ""},
        "x-file": {"file": "", "target": ""},
    }
    node: Node = {"type": node_type, **defaults.get(node_type, {})}
    if node_type in PARENT_TYPES:
        node["children"] = []
    return node


def _with_children(node: Node, children: list[Node]) -> Node:
    return {**node, "children": children}


def _replace(tree: Node, path: Path, new: Node | None) -> Node:
    """The tree with the node at ``path`` replaced (or removed, with None), copying the path."""
    if not path:
        if new is None:
            raise EditError("the root cannot be removed this way")
        return new
    parent = node_at(tree, path[:-1])
    children = list(parent.get("children") or [])
    if new is None:
        del children[path[-1]]
    else:
        children[path[-1]] = new
    return _replace(tree, path[:-1], _with_children(parent, children))


def can_have_children(node: Node) -> bool:
    return str(node.get("type")) in PARENT_TYPES


def allowed_child_types(tree: Node, path: Path) -> frozenset[str]:
    """The node types the node at ``path`` accepts as children.

    Raises:
        EditError: it takes no children.
    """
    node = node_at(tree, path)
    kind = str(node.get("type"))
    if not can_have_children(node):
        raise EditError(f"a {kind} node has no children")
    if kind == "player":
        return PLAYER_CHILDREN
    return frozenset(CONTROL_TYPES | TILE_TYPES | RULE_TRANSFORMS | LINK_TYPES
                     | {"x-unroll-replace"})


def _check_child(parent: Node, child: Node) -> None:
    kind = str(parent.get("type"))
    if not can_have_children(parent):
        raise EditError(f"a {kind} node takes no children")
    if kind == "player" and str(child.get("type")) not in PLAYER_CHILDREN:
        raise EditError(f"a player takes only rewrites (and transforms of them), "
                        f"not {child.get('type')}")


# ----------------------------------------------------------------------------- operations


def add_child(tree: Node, path: Path, node: Node, first: bool = False) -> tuple[Node, Path]:
    """Add ``node`` as the first or last child of the node at ``path``.

    Returns:
        The new tree and the path of the added node.

    Raises:
        EditError: the node takes no such child.
    """
    parent = node_at(tree, path)
    _check_child(parent, node)
    children = list(parent.get("children") or [])
    index = 0 if first else len(children)
    children.insert(index, node)
    return _replace(tree, path, _with_children(parent, children)), (*path, index)


def insert_above(tree: Node, path: Path, node: Node) -> tuple[Node, Path]:
    """Put ``node`` in place of the node at ``path``, which becomes its only child."""
    current = node_at(tree, path)
    if not can_have_children(node):
        raise EditError(f"a {node.get('type')} node cannot be a parent")
    if path:
        _check_child(node_at(tree, path[:-1]), node)
    _check_child(node, current)
    return _replace(tree, path, _with_children(node, [current])), path


def insert_below(tree: Node, path: Path, node: Node) -> tuple[Node, Path]:
    """Give the node at ``path`` the new ``node`` as only child, which adopts its children."""
    current = node_at(tree, path)
    _check_child(current, node)
    kids = list(current.get("children") or [])
    if kids and not can_have_children(node):
        raise EditError(f"a {node.get('type')} node cannot adopt children")
    for kid in kids:
        _check_child(node, kid)
    adopted = _with_children(node, kids) if can_have_children(node) else node
    return _replace(tree, path, _with_children(current, [adopted])), (*path, 0)


def move(tree: Node, path: Path, delta: int) -> tuple[Node, Path]:
    """Move the node at ``path`` ``delta`` places among its siblings."""
    if not path:
        raise EditError("the root has no siblings")
    parent = node_at(tree, path[:-1])
    children = list(parent.get("children") or [])
    index = path[-1]
    target = index + delta
    if not 0 <= target < len(children):
        raise EditError("already the " + ("first" if delta < 0 else "last") + " child")
    children.insert(target, children.pop(index))
    return _replace(tree, path[:-1], _with_children(parent, children)), (*path[:-1], target)


def swap_with_parent(tree: Node, path: Path) -> tuple[Node, Path]:
    """Exchange a node with its parent: the parent's other children stay with the parent."""
    if not path:
        raise EditError("the root has no parent")
    parent = node_at(tree, path[:-1])
    child = node_at(tree, path)
    if not can_have_children(child):
        raise EditError(f"a {child.get('type')} node cannot become a parent")
    siblings = list(parent.get("children") or [])
    siblings[path[-1]] = _with_children(parent, list(child.get("children") or []))
    lowered = {**child, "children": siblings}
    for kid in siblings:
        _check_child(lowered, kid)
    if len(path) > 1:
        _check_child(node_at(tree, path[:-2]), lowered)
    return _replace(tree, path[:-1], lowered), path[:-1]


def delete_subtree(tree: Node, path: Path) -> tuple[Node, Path]:
    """Delete the node at ``path`` with its children; the selection moves to a neighbour."""
    if not path:
        raise EditError("the root cannot be deleted (use Delete children, or start again)")
    new = _replace(tree, path, None)
    parent = node_at(new, path[:-1])
    remaining = len(parent.get("children") or [])
    if remaining:
        return new, (*path[:-1], min(path[-1], remaining - 1))
    return new, path[:-1]


def delete_node(tree: Node, path: Path) -> tuple[Node, Path]:
    """Delete a leaf (or a node without children)."""
    if node_at(tree, path).get("children"):
        raise EditError("this node has children: delete the subtree, or keep them (reparent)")
    return delete_subtree(tree, path)


def delete_children(tree: Node, path: Path) -> tuple[Node, Path]:
    """Remove every child of the node at ``path``."""
    node = node_at(tree, path)
    if not node.get("children"):
        raise EditError("this node has no children")
    return _replace(tree, path, _with_children(node, [])), path


def delete_and_reparent(tree: Node, path: Path) -> tuple[Node, Path]:
    """Delete the node at ``path``; its children take its place in its parent."""
    node = node_at(tree, path)
    kids = list(node.get("children") or [])
    if not path:
        if len(kids) != 1:
            raise EditError("the root can be replaced by its child only when it has exactly one")
        return kids[0], ()
    parent = node_at(tree, path[:-1])
    for kid in kids:
        _check_child(parent, kid)
    siblings = list(parent.get("children") or [])
    siblings[path[-1]:path[-1] + 1] = kids
    new = _replace(tree, path[:-1], _with_children(parent, siblings))
    if kids:
        return new, path
    remaining = len(siblings)
    return new, (*path[:-1], min(path[-1], remaining - 1)) if remaining else path[:-1]


def copy_subtree(tree: Node, path: Path) -> Node:
    """The subtree at ``path`` (shared: trees are never mutated)."""
    return node_at(tree, path)


def paste(tree: Node, path: Path, node: Node, where: str = "last") -> tuple[Node, Path]:
    """Paste a copied subtree: ``last``/``first`` child of the selection, or ``after`` it."""
    if where in ("last", "first"):
        return add_child(tree, path, node, first=where == "first")
    if where == "after":
        if not path:
            raise EditError("the root has no siblings")
        parent = node_at(tree, path[:-1])
        _check_child(parent, node)
        children = list(parent.get("children") or [])
        children.insert(path[-1] + 1, node)
        return (_replace(tree, path[:-1], _with_children(parent, children)),
                (*path[:-1], path[-1] + 1))
    raise EditError(f"unknown place to paste: {where}")


def find(tree: Node | None, text: str) -> list[Path]:
    """Nodes whose nid, comment or desc contains ``text`` (any case), in pre-order."""
    needle = text.strip().casefold()
    if not needle:
        return []
    hits = []
    for path, node in walk(tree):
        for key in ("nid", "comment", "desc"):
            value = node.get(key)
            if isinstance(value, str) and needle in value.casefold():
                hits.append(path)
                break
    return hits
