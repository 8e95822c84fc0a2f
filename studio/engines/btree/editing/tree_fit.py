"""Where a node may stand in an authored tree (spec §11.2): a ``player`` accepts only ``rewrite``
nodes and the rule transforms as children, and the rule reaches through rule transforms (their
children become the player's once compiled). The tree editor checks every edit against it.
"""

from __future__ import annotations

from typing import Any

from studio.engines.btree.model.schema import PARENT_TYPES, RULE_TRANSFORMS, Node
from studio.engines.btree.editing.tree_view import TYPE_ORDER, EditError, NodePath, node_at

PLAYER_CHILD_TYPES = frozenset({"rewrite"}) | RULE_TRANSFORMS
"""What a player (or a rule transform under a player) accepts as children."""


def children_context(kind: Any, inherited: bool) -> bool:
    """Whether the children of a node of ``kind`` compile into a player's children."""
    if kind == "player":
        return True
    return inherited if kind in RULE_TRANSFORMS else False


def context_at(tree: Node, path: NodePath) -> bool:
    inside = False
    node = tree
    for index in path:
        inside = children_context(node.get("type"), inside)
        node = node["children"][index]
    return inside


def _refusal(node: Node, inside: bool, fresh: bool) -> str | None:
    """Why ``node`` cannot stand where its context is ``inside`` (None if it can).

    Rule transforms pass their context on, so their subtrees are checked too; a player's own
    children are checked only when the player is ``fresh`` (new here), since moving a player
    leaves its children's context unchanged.
    """
    kind = node.get("type")
    if inside and kind not in PLAYER_CHILD_TYPES:
        return f"a player accepts only rewrite nodes and pattern transforms as children, not {kind}"
    if kind in RULE_TRANSFORMS or (fresh and kind == "player"):
        inner = children_context(kind, inside)
        for child in node.get("children") or ():
            reason = _refusal(child, inner, fresh)
            if reason:
                return reason
    return None


def require_fit(node: Node, inside: bool, fresh: bool) -> None:
    reason = _refusal(node, inside, fresh)
    if reason:
        raise EditError(reason)


def allowed_child_types(tree: Node, path: NodePath) -> tuple[str, ...]:
    """The node types that may be added as children of the node at ``path`` (menu order)."""
    node = node_at(tree, path)
    if node.get("type") not in PARENT_TYPES:
        return ()
    if children_context(node.get("type"), context_at(tree, path)):
        return tuple(kind for kind in TYPE_ORDER if kind in PLAYER_CHILD_TYPES)
    return TYPE_ORDER


def misplaced(tree: Node) -> list[NodePath]:
    """Paths of the nodes that break the player rule (files written by hand can hold them)."""
    out = []
    stack: list[tuple[NodePath, Node, bool]] = [((), tree, False)]
    while stack:
        path, node, inside = stack.pop()
        if inside and node.get("type") not in PLAYER_CHILD_TYPES:
            out.append(path)
        inner = children_context(node.get("type"), inside)
        stack.extend((path + (i,), child, inner) for i, child in reversed(list(enumerate(node.get("children") or ()))))
    return out
