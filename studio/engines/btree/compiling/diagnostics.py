"""Load-time warnings of a compiled game (spec §9.2): it loads, but something looks wrong."""

from __future__ import annotations

from studio.engines.btree.compiling.compiled import Compiled
from studio.engines.btree.model.errors import BtreeWarning
from studio.engines.btree.model.schema import PAD, Node

_LAYER_MAKERS = ("set-board", "append-rows", "append-columns")
_READERS = ("rewrite", "rewrite-all", "match", "match-times")
"""Node types that test the board against a pattern (their ``lhs`` or ``pattern``)."""


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def compiled_warnings(compiled: Compiled) -> list[BtreeWarning]:
    """Warnings about the compiled tree, each naming the authored node (origin) it comes from."""
    out: list[BtreeWarning] = []
    seen: set[tuple[str, tuple[str, str]]] = set()

    def warn(message: str, index: int) -> None:
        origin = compiled.origin[index]
        if (message, origin) in seen:  # one warning per authored node, not per copy
            return
        seen.add((message, origin))
        node = compiled.nodes[index]
        where = f"{origin[0]}:{origin[1]}" if origin[0] else origin[1]
        out.append(
            BtreeWarning(message, node_path=where, node_type=str(node.get("type", "")),
                         extra={"compiled": str(index)})
        )

    created: set[str] = set()
    for node in compiled.nodes:
        kind = node.get("type")
        if kind in _LAYER_MAKERS and isinstance(node.get("pattern"), dict):
            created.update(node["pattern"])
        elif kind == "layer-template" and isinstance(node.get("layer"), str):
            created.add(node["layer"])

    # Only a tree that makes its board can say which layers it lacks (a mechanics file
    # included by levels reads layers its includer makes).
    board_made = any(node.get("type") in _LAYER_MAKERS for node in compiled.nodes)
    pids = {str(node["pid"]) for node in compiled.nodes
            if node.get("type") in ("player", "win", "lose") and node.get("pid") not in (None, "")}
    board_seen = False
    for index, node in enumerate(compiled.nodes):
        kind = node.get("type")
        if kind == "player" and not node.get("children"):
            warn("player has no children, so it never offers a move and the game stops here "
                 "(a stalemate): add a rewrite under it (n)", index)
        if kind == "player" and node.get("pid") in (None, "") and pids:
            # A game of one pid-less player is fine; beside named ones this one cannot be told
            # apart by seats, win or lose.
            warn(f"player has no pid while others are named ({_names(pids)}): set its pid in "
                 "the properties so seats, win and lose can name it", index)
        for key in ("lhs", "pattern"):
            if kind in _READERS and isinstance(node.get(key), dict) and board_made:
                unknown = [layer for layer in node[key]
                           if layer not in created and _reads(node[key][layer])]
                if unknown:
                    warn(f"{key} reads layer {unknown[0]!r}, which no set-board, layer-template "
                         f"or append creates, so it never matches: rename it to one of "
                         f"{_names(created)} or add it to the board", index)
        if kind == "player":
            for child in node.get("children", ()):
                if child.get("type") != "rewrite":
                    warn(f"player child of type {child.get('type')!r} is ignored (only rewrite children offer choices)", index)
                    break
        if kind in ("loop-times", "match-times") and not _is_number(node.get("times")):
            warn("times is missing or not a number: it never equals the count", index)
        if kind in ("append-rows", "append-columns") and "times" in node:
            warn("times is ignored on append nodes (one row/column per pattern row)", index)
        if kind in ("rewrite", "rewrite-all") and isinstance(node.get("rhs"), dict):
            missing = [layer for layer in node["rhs"] if layer not in created and _writes(node, layer)]
            if missing:
                warn(f"rhs writes layer {missing[0]!r}, which no set-board, layer-template or append creates", index)
        if kind in ("set-board", "append-rows", "append-columns"):
            board_seen = True
        if kind == "layer-template" and not board_seen:
            warn("layer-template may run before any set-board (a run-time error)", index)
        for key in ("pattern", "lhs", "rhs"):
            pattern = node.get(key)
            if isinstance(pattern, dict):
                for layer in pattern:
                    if layer.isdigit() and layer.isascii():
                        warn(f"layer name {layer!r} looks like a number: the reference would order it first", index)
                padded = [layer for layer, grid in pattern.items() if _holds(grid, PAD)]
                if padded:
                    # The pattern editor pads new rows and columns with it; once saved it is a
                    # tile like any other, so a cell never filled in would silently match a '?'.
                    warn(f"{key} layer {padded[0]!r} holds {PAD}, the pattern editor's padding: fill it "
                         f"in (it is read as a tile named {PAD})", index)
    out.extend(_duplicate_nids(compiled))
    return out


def _duplicate_nids(compiled: Compiled) -> list[BtreeWarning]:
    """A nid given to two authored nodes: links go to the first one only, silently."""
    first: dict[object, str] = {}
    out = []
    for (key, path), node in compiled.authored.items():
        nid = node.get("nid") if isinstance(node, dict) else None
        if not isinstance(nid, (str, int, float)) or nid == "":
            continue
        where = f"{key}:{path}" if key else path
        if nid in first:
            out.append(BtreeWarning(
                f"nid {nid!r} is also the nid of {first[nid]}, and links go to that one only: "
                "give this node a nid of its own", node_path=where,
                node_type=str(node.get("type", ""))))
        else:
            first[nid] = where
    return out


def _reads(grid: object) -> bool:
    """Whether a pattern layer tests any cell (an all-``.`` layer tests none)."""
    return isinstance(grid, list) and any(
        isinstance(row, list) and any(tile != "." for tile in row) for row in grid)


def _names(layers: set[str]) -> str:
    shown = sorted(layers)
    return ", ".join(repr(name) for name in shown[:6]) + (", …" if len(shown) > 6 else "")


def _holds(grid: object, tile: str) -> bool:
    return isinstance(grid, list) and any(isinstance(row, list) and tile in row for row in grid)


def _writes(node: Node, layer: str) -> bool:
    """Whether an rhs layer holds any tile other than ``.`` (an all-``.`` layer writes nothing)."""
    return any(tile != "." for row in node["rhs"][layer] for tile in row)
