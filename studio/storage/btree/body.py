"""The btree project body (spec §4.4) ⇄ authored trees.

The tree is stored flat: one ``[[node]]`` table per node in pre-order, ``at`` = child indices from
the root, then the node's fields in their original order. Patterns are one dotted key per layer,
each a multi-line string of rows (tiles separated by spaces) — or an array of arrays of strings
when a tile is empty or holds whitespace, which text cannot show.
"""

from __future__ import annotations

from typing import Any

from studio.engines.btree.model.schema import PARENT_TYPES, PATTERN_FIELDS, RESHAPED_FIELDS
from studio.engines.common.limits import MAX_TREE_DEPTH
from studio.storage.errors import FieldPath, ProjectError

Node = dict[str, Any]
Grid = list[list[str]]


# ------------------------------------------------------------------------------------ patterns


def _text_safe(tile: str) -> bool:
    parts = tile.split()
    return len(parts) == 1 and parts[0] == tile


def grid_to_toml(grid: Grid) -> str | Grid:
    """A grid as TOML text when text can hold it, else as the grid itself."""
    if not grid or not all(row and all(_text_safe(tile) for tile in row) for row in grid):
        return [list(row) for row in grid]
    lines = [" ".join(row) for row in grid]
    return lines[0] if len(lines) == 1 else "\n".join(lines) + "\n"


def grid_from_toml(value: Any, where: FieldPath) -> Grid:
    """A grid from its TOML form; raises :class:`ProjectError` at ``where`` when malformed."""
    if isinstance(value, str):
        grid = [line.split() for line in value.strip().splitlines()]
        if any(not row for row in grid):
            raise ProjectError("a pattern has an empty row", field_path=where,
                               hint="remove the blank line, or write the grid as an array")
    elif isinstance(value, list) and all(
        isinstance(row, list) and all(isinstance(t, str) for t in row) for row in value
    ):
        grid = [list(row) for row in value]
    else:
        raise ProjectError("a pattern layer must be text (rows of tiles) or an array of arrays of strings",
                           field_path=where)
    if len({len(row) for row in grid}) > 1:
        raise ProjectError("the rows of a pattern must be equally long", field_path=where,
                           hint="pad short rows with '.' (don't care)")
    return grid


def pattern_from_toml(value: Any, where: FieldPath) -> dict[str, Grid]:
    """A layer pattern from its TOML table; layers must all have the first layer's size."""
    if not isinstance(value, dict):
        raise ProjectError("a pattern must be a table of layers (e.g. lhs.main = \"P _\")", field_path=where)
    out: dict[str, Grid] = {}
    size = None
    for layer, grid_value in value.items():
        grid = grid_from_toml(grid_value, (*where, layer))
        this = (len(grid), len(grid[0]) if grid else 0)
        if size is not None and this != size:
            raise ProjectError(
                f"layer {layer!r} is {this[0]}×{this[1]} but the first layer is {size[0]}×{size[1]}",
                field_path=(*where, layer),
            )
        size = size or this
        out[layer] = grid
    return out


def _is_pattern(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(g, list) and all(isinstance(r, list) for r in g) for g in value.values()
    )


# --------------------------------------------------------------------------------------- nodes


def tree_to_nodes(tree: Node, warnings: list[str] | None = None) -> list[Node]:
    """The flat, pre-ordered ``[[node]]`` tables of an authored tree."""
    out: list[Node] = []
    stack: list[tuple[Node, list[int]]] = [(tree, [])]
    while stack:
        node, at = stack.pop()
        table: Node = {"at": at}
        for key, value in node.items():
            if key == "children":
                continue
            if key == "at":  # the project format uses it for the node's position
                raise ProjectError(f"the node at {at} has a field named 'at', which btree projects reserve",
                                   hint="rename the field in the game file")
            if key in PATTERN_FIELDS and _is_pattern(value):
                table[key] = {layer: grid_to_toml(grid) for layer, grid in value.items()}
            else:
                cleaned = drop_nulls(value, f"node at {at} field {key!r}", warnings)
                if cleaned is not None:
                    table[key] = cleaned
        out.append(table)
        children = node.get("children") or []
        stack.extend((child, [*at, i]) for i, child in reversed(list(enumerate(children))))
    return out


def drop_nulls(value: Any, where: str, warnings: list[str] | None) -> Any:
    """``value`` without JSON nulls, which TOML cannot hold (each drop is reported)."""
    if value is None:
        if warnings is not None:
            warnings.append(f"{where}: null dropped (TOML has no null)")
        return None
    if isinstance(value, dict):
        kept = {k: drop_nulls(v, f"{where}.{k}", warnings) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v is not None}
    if isinstance(value, list):
        kept_items = [drop_nulls(v, f"{where}[{i}]", warnings) for i, v in enumerate(value)]
        return [v for v in kept_items if v is not None]
    return value


def nodes_to_tree(nodes: Any) -> Node | None:
    """The authored tree of ``[[node]]`` tables (None when there are none); validates as it goes."""
    if nodes is None:
        return None
    if not isinstance(nodes, list):
        raise ProjectError("node must be an array of tables ([[node]])", field_path=("node",))
    if not nodes:
        return None
    by_path: dict[tuple[int, ...], Node] = {}
    root: Node | None = None
    for index, table in enumerate(nodes):
        where: FieldPath = ("node", index)
        if not isinstance(table, dict):
            raise ProjectError("each node must be a table", field_path=where)
        at = table.get("at")
        if not isinstance(at, list) or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in at):
            raise ProjectError("at must be a list of child indices, e.g. [1, 0]", field_path=(*where, "at"))
        if len(at) >= MAX_TREE_DEPTH:  # the root is depth 1: `at` lists the steps below it
            raise ProjectError(f"nodes nest more than {MAX_TREE_DEPTH} deep",
                               field_path=(*where, "at"),
                               hint="people write trees a dozen nodes deep: the file is damaged "
                                    "or hostile")
        node = _node_from_table(table, where)
        path = tuple(at)
        if index == 0:
            if path:
                raise ProjectError("the first node must be the root (at = [])", field_path=(*where, "at"))
            root = node
        else:
            parent = by_path.get(path[:-1]) if path else None
            if parent is None:
                raise ProjectError(f"no parent node at {list(path[:-1])} before this node (nodes are in pre-order)",
                                   field_path=(*where, "at"))
            if "children" not in parent:
                raise ProjectError(f"its parent (a {parent.get('type')} node) cannot have children",
                                   field_path=(*where, "at"))
            if path[-1] != len(parent["children"]):
                raise ProjectError(
                    f"expected at = {[*path[:-1], len(parent['children'])]} (children are numbered in order)",
                    field_path=(*where, "at"),
                )
            parent["children"].append(node)
        by_path[path] = node
    return root


def _node_from_table(table: Node, where: FieldPath) -> Node:
    kind = table.get("type")
    if not isinstance(kind, str):
        raise ProjectError("every node needs a type", field_path=(*where, "type"))
    node: Node = {}
    for key, value in table.items():
        if key == "at":
            continue
        if key == "children":
            raise ProjectError("children are implied by the at paths", field_path=(*where, key))
        if key in PATTERN_FIELDS and (isinstance(value, dict) or kind in RESHAPED_FIELDS):
            node[key] = pattern_from_toml(value, (*where, key))
        else:
            node[key] = value
    if kind in PARENT_TYPES:
        node["children"] = []
    return node


def count_nodes(tree: Node | None) -> int:
    """How many nodes a tree has."""
    if tree is None:
        return 0
    return 1 + sum(count_nodes(child) for child in tree.get("children") or ())
