"""The compiled tree flattened for execution: nodes numbered in pre-order (root = 0)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from studio.engines.btree.runtime.pattern import Pattern

CONTROL_TYPES = frozenset(
    ("order", "all", "none", "random-try", "loop-until-all", "loop-times", "player", "win", "lose", "draw")
)
TILE_TYPES = frozenset(
    (
        "match",
        "match-times",
        "rewrite",
        "rewrite-all",
        "set-board",
        "layer-template",
        "append-rows",
        "append-columns",
        "display-board",
    )
)
PATTERN_FIELDS = ("pattern", "lhs", "rhs")


@dataclass(eq=False)
class Node:
    """One compiled node.

    Attributes:
        id: pre-order number (root = 0).
        type: one of the 19 engine node types.
        data: the compiled node's dict (fields as in the expanded JSON; ``children`` included).
        children: ids of the children, in order.
        parent: id of the parent (``None`` for the root).
        patterns: the node's ``pattern``/``lhs``/``rhs`` prepared for matching.
    """

    id: int
    type: str
    data: Mapping[str, Any]
    children: tuple[int, ...] = ()
    parent: int | None = None
    patterns: dict[str, Pattern] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        """A field of the compiled node."""
        return self.data.get(name, default)


def flatten(root: Mapping[str, Any]) -> list[Node]:
    """Number the tree in pre-order and prepare its patterns (iterative: trees can be deep)."""
    nodes: list[Node] = []
    todo: list[tuple[Mapping[str, Any], int | None]] = [(root, None)]
    pending_children: dict[int, list[int]] = {}
    while todo:
        data, parent = todo.pop()
        node = Node(id=len(nodes), type=str(data.get("type")), data=data, parent=parent)
        for name in PATTERN_FIELDS:
            value = data.get(name)
            if isinstance(value, Mapping):
                try:
                    node.patterns[name] = Pattern(value)
                except (TypeError, ValueError, AttributeError, IndexError):
                    pass  # malformed: the node reports a run-time error if it ever runs
        nodes.append(node)
        if parent is not None:
            pending_children.setdefault(parent, []).append(node.id)
        kids = data.get("children") or ()
        for child in reversed(kids):
            todo.append((child, node.id))
    for node_id, kids in pending_children.items():
        nodes[node_id].children = tuple(kids)
    return nodes


def is_number(value: Any) -> bool:
    """Numbers compare with ``times`` counts; booleans and strings never do (JS ``===``)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
