"""Structure edits of authored trees for the tree editor (spec §11.2).

Trees are never modified. Every operation returns a new tree that copies only the dicts and
children lists on the way from the root to the edit and shares every other subtree with its input,
so the editor can keep every version for unlimited undo at the cost of one path per edit.

A node is named by its path: the tuple of child indices from the root (``()`` is the root), the
``at`` of the project file. Operations return ``(new_tree, selection)``, the path the editor should
select afterwards, or raise :class:`EditError` saying why the operation does not apply.

Player children: a ``player`` accepts only ``rewrite`` nodes and the rule transforms (``x-ident``,
``x-prune``, ``x-mirror``, ``x-flip``, ``x-skew``, ``x-rotate``, ``x-spin``, ``x-swap``,
``x-replace``), whose compiled copies are rewrites again. ``x-unroll-replace`` (compiles to an
``order``) and links (``x-link``/``x-file``, whose target can be anything) are refused. The rule
applies through rule transforms: the children of an ``x-spin`` under a player become the player's
children once compiled, so they obey it too (``tree_fit`` decides).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio.engines.btree.model.schema import PARENT_TYPES, Node
from studio.engines.btree.editing.tree_fit import (  # re-exported with the views below
    PLAYER_CHILD_TYPES,
    allowed_child_types,
    children_context,
    context_at,
    misplaced,
    require_fit,
)
# re-exported: the editor's one import for trees
from studio.engines.btree.editing.tree_view import (
    CONTROL_ORDER,
    TILE_ORDER,
    TRANSFORM_ORDER,
    TYPE_ORDER,
    EditError,
    NodePath,
    category,
    find,
    new_node,
    node_at,
    parent_path,
    path_from_spec,
    replace_node,
    spec_path,
    summary,
    walk,
)

__all__ = [
    "CONTROL_ORDER", "OPERATIONS", "PLAYER_CHILD_TYPES", "TILE_ORDER", "TRANSFORM_ORDER", "TYPE_ORDER",
    "EditError", "NodePath", "Refusal", "add_child", "allowed_child_types", "can", "category",
    "copy_subtree", "delete_and_reparent", "delete_children", "delete_node", "delete_subtree", "find",
    "insert_above", "insert_below", "insertable_types", "misplaced", "move", "new_node", "node_at", "parent_path", "paste",
    "path_from_spec", "replace_node", "spec_path", "summary", "swap_with_parent", "walk",
]

@dataclass(frozen=True)
class Refusal:
    """What :func:`can` returns when an operation does not apply: falsy, with the reason."""

    reason: str

    def __bool__(self) -> bool:
        return False


# ---------------------------------------------------------------------------- copy on the path


def _with_children(node: Node, children: list[Node]) -> Node:
    return {**node, "children": children}


def _parent_of(tree: Node, path: NodePath, what: str) -> tuple[NodePath, Node, int]:
    node_at(tree, path)
    if not path:
        raise EditError(f"the root cannot be {what}")
    return path[:-1], node_at(tree, path[:-1]), path[-1]


def _needs_children(node: Node, what: str) -> list[Node]:
    children = node.get("children")
    if node.get("type") not in PARENT_TYPES or not isinstance(children, list):
        raise EditError(f"{node.get('type')} is a leaf and cannot {what}")
    return children


def _fresh_copy(node: Node) -> Node:
    if not isinstance(node, dict) or node.get("type") not in TYPE_ORDER:
        raise EditError("only nodes with a known type can be added")
    # A deep copy: one object must never sit twice in a tree (the compiler maps nodes by identity).
    return copy.deepcopy(node)


# ------------------------------------------------------------------------------------ additions


def _insert_child(tree: Node, path: NodePath, at: int, node: Node) -> tuple[Node, NodePath]:
    """Insert a copy of ``node`` as child ``at`` of the node at ``path``, if it fits there."""
    target = node_at(tree, path)
    children = _needs_children(target, "take children")
    node = _fresh_copy(node)
    require_fit(node, children_context(target["type"], context_at(tree, path)), fresh=True)
    kids = [*children[:at], node, *children[at:]]
    return replace_node(tree, path, lambda n: _with_children(n, kids)), path + (at,)


def add_child(tree: Node, path: NodePath, node: Node, first: bool = False) -> tuple[Node, NodePath]:
    """Add ``node`` (copied) as the first or last child of the node at ``path``; selects it.

    Raises:
        EditError: the node is a leaf, or the child is not allowed there.
    """
    children = node_at(tree, path).get("children")
    return _insert_child(tree, path, 0 if first or not isinstance(children, list) else len(children), node)


def insert_above(tree: Node, path: NodePath, node: Node) -> tuple[Node, NodePath]:
    """Put ``node`` (copied, childless) in the place of the node at ``path``, as its new parent.

    At the root, ``node`` becomes the new root. Selects the new parent.

    Raises:
        EditError: ``node`` cannot have children or already has some, or the result breaks the
            player rule.
    """
    current = node_at(tree, path)
    node = _fresh_copy(node)
    if _needs_children(node, "become a parent"):
        raise EditError("the new parent must have no children of its own")
    inside = context_at(tree, path)
    require_fit({**node, "children": []}, inside, fresh=True)
    require_fit(current, children_context(node["type"], inside), fresh=False)
    return replace_node(tree, path, lambda n: _with_children(node, [n])), path


def insert_below(tree: Node, path: NodePath, node: Node) -> tuple[Node, NodePath]:
    """Make ``node`` (copied, childless) the only child of the node at ``path``, adopting its children.

    Selects the new node.

    Raises:
        EditError: either node cannot have children, or the result breaks the player rule.
    """
    current = node_at(tree, path)
    kids = _needs_children(current, "take children")
    node = _fresh_copy(node)
    if _needs_children(node, "adopt children"):
        raise EditError("the new node must have no children of its own")
    inside = children_context(current["type"], context_at(tree, path))
    require_fit({**node, "children": []}, inside, fresh=True)
    inner = children_context(node["type"], inside)
    for child in kids:
        require_fit(child, inner, fresh=False)
    return replace_node(tree, path, lambda n: _with_children(n, [_with_children(node, kids)])), path + (0,)


def paste(tree: Node, path: NodePath, node: Node, where: str = "last") -> tuple[Node, NodePath]:
    """Paste a copy of ``node`` relative to the node at ``path``; selects the pasted node.

    Args:
        tree: the tree.
        path: the node pasted into or next to.
        node: what :func:`copy_subtree` returned (it may be pasted any number of times).
        where: ``"first"`` or ``"last"`` child, or ``"before"``/``"after"`` as a sibling.

    Raises:
        EditError: it does not fit there (a leaf, the root's siblings, the player rule).
    """
    if where in ("first", "last"):
        return add_child(tree, path, node, first=where == "first")
    if where not in ("before", "after"):
        raise EditError(f"paste where? {where!r} is not first, last, before or after")
    parent, _, index = _parent_of(tree, path, "given siblings")
    return _insert_child(tree, parent, index + (where == "after"), node)


def copy_subtree(tree: Node, path: NodePath) -> Node:
    """A deep copy of the node at ``path`` and its subtree (the clipboard)."""
    return copy.deepcopy(node_at(tree, path))


# ---------------------------------------------------------------------------------------- moves


def move(tree: Node, path: NodePath, delta: int) -> tuple[Node, NodePath]:
    """Move the node ``delta`` places among its siblings (negative: earlier); selects it.

    Raises:
        EditError: the root, or a place before the first or after the last sibling.
    """
    parent, owner, index = _parent_of(tree, path, "moved among siblings")
    children = list(owner["children"])
    target = index + delta
    if not 0 <= target < len(children):
        raise EditError("already the first child" if delta < 0 else "already the last child")
    children.insert(target, children.pop(index))
    return replace_node(tree, parent, lambda n: _with_children(n, children)), parent + (target,)


def swap_with_parent(tree: Node, path: NodePath) -> tuple[Node, NodePath]:
    """Exchange the node's fields with its parent's; each place keeps its children.

    The node moves up into its parent's place, over the parent's children; the parent moves down
    into the node's place, over the node's children. Selects the node in its new place.

    Raises:
        EditError: the root, a leaf, or the result breaks the player rule.
    """
    parent, upper_old, index = _parent_of(tree, path, "swapped with a parent")
    lower_old = node_at(tree, path)
    lower_kids = _needs_children(lower_old, "swap with its parent (its parent's children would go to a leaf)")
    lower = _with_children(upper_old, lower_kids)
    siblings = list(upper_old["children"])
    siblings[index] = lower
    upper = _with_children(lower_old, siblings)
    inside = context_at(tree, parent)
    require_fit({**upper, "children": []}, inside, fresh=False)
    upper_inside = children_context(upper["type"], inside)
    for i, child in enumerate(siblings):
        if i == index:
            require_fit({**lower, "children": []}, upper_inside, fresh=False)
            for kid in lower_kids:
                require_fit(kid, children_context(lower["type"], upper_inside), fresh=False)
        else:
            require_fit(child, upper_inside, fresh=False)
    return replace_node(tree, parent, lambda n: upper), parent


# -------------------------------------------------------------------------------------- deletes


def _after_delete(owner_children: list[Node], parent: NodePath, index: int) -> NodePath:
    """Select the sibling that took the place, else the one before, else the parent."""
    if index < len(owner_children):
        return parent + (index,)
    return parent + (index - 1,) if index > 0 else parent


def delete_subtree(tree: Node, path: NodePath) -> tuple[Node, NodePath]:
    """Delete the node and everything below it; selects the next sibling, else the previous, else the parent.

    Raises:
        EditError: the root (a tree always has one).
    """
    parent, owner, index = _parent_of(tree, path, "deleted")
    children = [c for i, c in enumerate(owner["children"]) if i != index]
    return replace_node(tree, parent, lambda n: _with_children(n, children)), _after_delete(children, parent, index)


def delete_node(tree: Node, path: NodePath) -> tuple[Node, NodePath]:
    """Delete a node without children (a leaf, a link or an empty control/transform node).

    Raises:
        EditError: the root, or a node with children (delete the subtree or reparent instead).
    """
    if node_at(tree, path).get("children"):
        raise EditError("the node has children: delete the subtree, or delete and reparent")
    return delete_subtree(tree, path)


def delete_children(tree: Node, path: NodePath) -> tuple[Node, NodePath]:
    """Delete every child of the node; selects the node.

    Raises:
        EditError: a leaf, or no children to delete.
    """
    if not _needs_children(node_at(tree, path), "have children"):
        raise EditError("the node has no children to delete")
    return replace_node(tree, path, lambda n: _with_children(n, [])), path


def delete_and_reparent(tree: Node, path: NodePath) -> tuple[Node, NodePath]:
    """Delete the node; its children move up into its place. Selects the first of them.

    A root with exactly one child can be deleted this way: the child becomes the root.

    Raises:
        EditError: no children to move up, a root with several children, or the player rule.
    """
    node = node_at(tree, path)
    kids = node.get("children") or []
    if not kids:
        raise EditError("the node has no children to move up: delete the node instead")
    if not path:
        if len(kids) != 1:
            raise EditError("the root's children cannot all move up: a tree has one root")
        return kids[0], ()
    parent, owner, index = _parent_of(tree, path, "deleted")
    inside = context_at(tree, path)
    for kid in kids:
        require_fit(kid, inside, fresh=False)
    children = [*owner["children"][:index], *kids, *owner["children"][index + 1:]]
    return replace_node(tree, parent, lambda n: _with_children(n, children)), path


# --------------------------------------------------------------------------------------- menus


def _copyable(tree: Node, path: NodePath, _node: Any) -> tuple[Node, NodePath]:
    node_at(tree, path)  # any node that exists can be copied
    return tree, path


_OPS: dict[str, Callable[[Node, NodePath, Any], tuple[Node, NodePath]]] = {
    "add_first": lambda t, p, n: add_child(t, p, n, first=True),
    "add_last": lambda t, p, n: add_child(t, p, n, first=False),
    "insert_above": insert_above,
    "insert_below": insert_below,
    "paste_first": lambda t, p, n: paste(t, p, n, "first"),
    "paste_last": lambda t, p, n: paste(t, p, n, "last"),
    "paste_before": lambda t, p, n: paste(t, p, n, "before"),
    "paste_after": lambda t, p, n: paste(t, p, n, "after"),
    "move_earlier": lambda t, p, n: move(t, p, -1),
    "move_later": lambda t, p, n: move(t, p, 1),
    "swap_with_parent": lambda t, p, n: swap_with_parent(t, p),
    "delete_node": lambda t, p, n: delete_node(t, p),
    "delete_subtree": lambda t, p, n: delete_subtree(t, p),
    "delete_children": lambda t, p, n: delete_children(t, p),
    "delete_and_reparent": lambda t, p, n: delete_and_reparent(t, p),
    "copy_subtree": _copyable,
    "cut_subtree": lambda t, p, n: delete_subtree(t, p),  # copy, then delete
}
OPERATIONS = tuple(_OPS)
"""The operation names :func:`can` knows."""


def can(op: str, tree: Node, path: NodePath, node: Node | str | None = None) -> bool | Refusal:
    """Whether an operation applies, for menus: ``True`` or a falsy :class:`Refusal` with the reason.

    Args:
        op: one of :data:`OPERATIONS`.
        tree: the tree.
        path: the selected node.
        node: for the add/insert operations a node or a type (None: any type would do); for the
            paste operations the clipboard (None: nothing to paste).
    """
    if op not in _OPS:
        return Refusal(f"unknown operation {op!r}")
    needs_node = op.startswith(("add_", "insert_", "paste_"))
    if needs_node and node is None:
        if op.startswith("paste_"):
            return Refusal("nothing to paste: copy a node first")
        reasons = [can(op, tree, path, kind) for kind in TYPE_ORDER]
        return True if any(r is True for r in reasons) else reasons[0]
    if isinstance(node, str):
        try:
            node = new_node(node)
        except EditError as exc:
            return Refusal(exc.message)
    try:
        _OPS[op](tree, path, node)
    except EditError as exc:
        return Refusal(exc.message)
    return True


def insertable_types(tree: Node, path: NodePath, where: str) -> tuple[str, ...]:
    """The node types (menu order) a new node may have when added ``where`` of the node at
    ``path``: ``first``/``last`` child, ``above`` (the new parent) or ``below`` (adopting the
    children). Each is tried, so the list offers exactly what the edit then accepts: none under
    a leaf, only a player's kinds inside a player."""
    def tried(kind: str) -> bool:
        node = new_node(kind)
        try:
            if where in ("first", "last"):
                add_child(tree, path, node, first=where == "first")
            elif where == "above":
                insert_above(tree, path, node)
            else:
                insert_below(tree, path, node)
        except EditError:
            return False
        return True

    return tuple(kind for kind in TYPE_ORDER if tried(kind))
