"""Structural checks of authored trees (spec §9.1): the first problem raises a BtreeError."""

from __future__ import annotations

from typing import Any

from studio.engines.btree.model.errors import BtreeError, BtreeWarning
from studio.engines.btree.model.schema import (
    ALL_TYPES,
    LINK_TYPES,
    PARENT_TYPES,
    PATTERN_FIELDS,
    REQUIRED_FIELDS,
    TILE_TYPES,
    Node,
    child_path,
    node_types_hint,
    pattern_size,
)


def node_error(message: str, node: Any, path: str, file: str = "", hint: str = "") -> BtreeError:
    """A BtreeError about ``node`` at ``path``, with its type, nid and comment when present."""
    fields = node if isinstance(node, dict) else {}
    nid = fields.get("nid")
    comment = fields.get("comment")
    return BtreeError(
        message,
        node_path=path,
        node_type=str(fields.get("type", "")),
        nid=str(nid) if nid not in (None, "") else "",
        comment=comment if isinstance(comment, str) else "",
        file=file,
        hint=hint,
    )


def check_tree(
    tree: Any, file: str = "", path: str = "tree", warnings: list[BtreeWarning] | None = None
) -> None:
    """Check an authored tree's structure; raises :class:`BtreeError` naming the first bad node.

    Problems that do not stop the game (an rhs smaller than its lhs) go to ``warnings``.
    """
    if tree is None:
        raise BtreeError("the game has no tree", node_path=path, file=file)
    stack = [(tree, path)]
    while stack:
        node, where = stack.pop()
        check_node(node, where, file, warnings)
        children = node.get("children")
        if isinstance(children, list):
            stack.extend((child, child_path(where, i)) for i, child in reversed(list(enumerate(children))))


def check_node(node: Any, path: str, file: str = "", warnings: list[BtreeWarning] | None = None) -> None:
    """The checks of one node (not its children)."""
    if not isinstance(node, dict):
        raise node_error(f"a node must be a mapping, not {type(node).__name__}", node, path, file)
    kind = node.get("type")
    if not isinstance(kind, str) or kind not in ALL_TYPES:  # a list is no type (nor hashable)
        shown = "no type" if kind is None else f"unknown node type {kind!r}"
        raise node_error(shown, node, path, file, hint=node_types_hint(kind))
    has_children = "children" in node
    if kind in PARENT_TYPES:
        if not isinstance(node.get("children"), list):
            raise node_error("needs a children list", node, path, file)
    elif has_children:
        what = "a link" if kind in LINK_TYPES else "a leaf"
        raise node_error(f"is {what} and cannot have children", node, path, file)
    for key in REQUIRED_FIELDS.get(kind, ()):
        if key not in node or node[key] is None:
            raise node_error(f"missing required field {key!r}", node, path, file)
    if kind == "x-replace" and not isinstance(node["withs"], list):
        raise node_error("withs must be a list", node, path, file)
    if kind == "x-unroll-replace" and "withs" in node and not isinstance(node["withs"], list):
        raise node_error("withs must be a list", node, path, file)
    for key in PATTERN_FIELDS:
        if key in node and (kind in TILE_TYPES or isinstance(node[key], dict)):
            check_pattern(node[key], key, node, path, file)
    if kind in ("rewrite", "rewrite-all"):
        lhs, rhs = pattern_size(node["lhs"]), pattern_size(node["rhs"])
        sizes = f"lhs is {lhs[0]}×{lhs[1]} but rhs is {rhs[0]}×{rhs[1]}"
        if rhs[0] > lhs[0] or rhs[1] > lhs[1]:  # the rhs could be written outside the board
            raise node_error(f"{sizes}: they must have the same size", node, path, file)
        if rhs != lhs and warnings is not None:
            # Deviation from §9.1: lost_and_found.yaml relies on a smaller rhs (written at the
            # match's top-left corner, as the reference does), so it is a warning, not an error.
            where = f"{file}:{path}" if file else path
            warnings.append(BtreeWarning(f"{sizes}: only the rhs area is written", where, str(node["type"])))


def check_pattern(pattern: Any, key: str, node: Node, path: str, file: str) -> None:
    """A layer pattern: a mapping of layer names to equal-size rectangular grids of strings."""
    if not isinstance(pattern, dict):
        raise node_error(f"{key} must be a layer pattern, not {type(pattern).__name__}", node, path, file)
    size = None
    for layer, grid in pattern.items():
        if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
            raise node_error(f"{key} layer {layer!r} must be a list of rows", node, path, file)
        for row in grid:
            for tile in row:
                if not isinstance(tile, str):
                    raise node_error(
                        f"{key} layer {layer!r} holds a {type(tile).__name__} tile ({tile!r}); tiles are strings",
                        node, path, file,
                    )
        widths = {len(row) for row in grid}
        if len(widths) > 1:
            raise node_error(f"{key} layer {layer!r} has rows of different lengths", node, path, file)
        this = (len(grid), widths.pop() if widths else 0)
        if size is None:
            size = this
        elif this != size:
            raise node_error(
                f"{key} layer {layer!r} is {this[0]}×{this[1]} but the first layer is {size[0]}×{size[1]}",
                node, path, file,
            )
