"""Transform rules (spec §6.3, §6.4): each maps one node to a deduplicated list of nodes.

A rule never modifies its input: changed nodes are shallow copies (children lists are shared,
the expander replaces them afterwards).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from studio.engines.btree.compiling import geometry
from studio.engines.btree.model.errors import BtreeError
from studio.engines.btree.compiling.jsregex import UntranslatableRegex, compile_js, js_replace
from studio.engines.btree.model.schema import PATTERN_FIELDS, Node, js_string, json_key

Rule = Callable[[Node], list[Node]]


def unique(nodes: list[Node]) -> list[Node]:
    """Keep the first of nodes that have the same fields with equal values (children ignored)."""
    if len(nodes) < 2:
        return nodes
    seen: set[Any] = set()
    out: list[Node] = []
    for node in nodes:
        key = frozenset((k, json_key(v)) for k, v in node.items() if k != "children"), len(node)
        if key not in seen:
            seen.add(key)
            out.append(node)
    return out


def _apply(
    node: Node,
    grid_map: Callable[[list[list[str]]], list[list[str]]] | None = None,
    pid_map: Callable[[str], str] | None = None,
    buttons: dict[str, str] | None = None,
) -> Node:
    out = dict(node)
    if grid_map is not None:
        for key in PATTERN_FIELDS:
            pattern = out.get(key)
            if isinstance(pattern, dict):
                out[key] = {layer: grid_map(grid) for layer, grid in pattern.items()}
    if pid_map is not None and "pid" in out:
        out["pid"] = pid_map(js_string(out["pid"]))
    if buttons is not None and out.get("button") in buttons:
        out["button"] = buttons[out["button"]]
    return out


def unroll(node: Node, withs: Any) -> Node:
    """An ``x-unroll-replace`` as ``order[x-replace(what, [w]) per w]`` (one correlated copy each)."""
    if not isinstance(withs, list):
        raise BtreeError("x-unroll-replace has no withs list (and no x-replace with the same what encloses it)")
    return {
        "type": "order",
        "children": [
            {"type": "x-replace", "what": node["what"], "withs": [w], "children": node.get("children", [])}
            for w in withs
        ],
    }


def identity(node: Node) -> list[Node]:
    """The root's and ``x-ident``'s rule: unchanged, but unrolls with the node's own withs."""
    if node.get("type") == "x-unroll-replace":
        return [unroll(node, node.get("withs"))]
    return [node]


def prune(node: Node) -> list[Node]:
    """``x-prune``: nothing."""
    return []


def _keep(remorig: Any, node: Node, other: Node) -> list[Node]:
    return unique([other] if remorig else [node, other])


def _nonempty(grid_map: Callable[[list[list[str]]], list[list[str]]], name: str):
    def checked(grid: list[list[str]]) -> list[list[str]]:
        if not grid:
            raise BtreeError(f"cannot {name} an empty pattern (it has no rows)")
        return grid_map(grid)

    return checked


def mirror(remorig: Any) -> Rule:
    """``x-mirror``: the node and its left-right mirror image."""
    return lambda n: _keep(remorig, n, _apply(n, geometry.mirror, None, geometry.MIRROR_BUTTONS))


def flip(remorig: Any) -> Rule:
    """``x-flip``: the node and its top-bottom mirror image."""
    return lambda n: _keep(remorig, n, _apply(n, geometry.flip, None, geometry.FLIP_BUTTONS))


def rotate(remorig: Any) -> Rule:
    """``x-rotate``: the node and the node turned 90° clockwise."""
    grid_map = _nonempty(geometry.rotate, "rotate")
    return lambda n: _keep(remorig, n, _apply(n, grid_map, None, geometry.ROTATE_BUTTONS))


def skew(remorig: Any) -> Rule:
    """``x-skew``: the node and the node with column j shifted down by j."""
    grid_map = _nonempty(geometry.skew, "skew")
    return lambda n: _keep(remorig, n, _apply(n, grid_map, None, None))


def spin(remorig: Any) -> Rule:
    """``x-spin``: the four rotations, without the original when ``remorig``."""

    def rule(node: Node) -> list[Node]:
        out = [node]
        for _ in range(3):
            out.append(_apply(out[-1], geometry.spin_step, None, geometry.ROTATE_BUTTONS))
        return unique(out[1:] if remorig else out)

    return rule


def check_regex(source: str) -> None:
    """Raise :class:`BtreeError` when ``source`` cannot be used as a ``what``."""
    try:
        compile_js(source)
    except UntranslatableRegex as exc:
        raise BtreeError(str(exc), hint="use plain text or a simpler regular expression") from None


def swap(what: Any, with_: Any) -> Rule:
    """``x-swap``: ``(what|with)`` replaced by the other one, in tiles and in the pid."""
    source = f"({js_string(what)}|{js_string(with_)})"
    check_regex(source)

    def other(match: str) -> str:
        # The reference compares with ===, so a numeric what never equals the matched text.
        return js_string(with_) if isinstance(what, str) and match == what else js_string(what)

    def text(value: str) -> str:
        return js_replace(source, value, other)

    def grid_map(grid: list[list[str]]) -> list[list[str]]:
        return [[text(tile) for tile in row] for row in grid]

    return lambda n: unique([_apply(n, grid_map, text, None)])


def replace(what: Any, withs: list[Any]) -> Rule:
    """``x-replace``: one copy per value in ``withs``; also unrolls matching ``x-unroll-replace``."""
    source = js_string(what)
    check_regex(source)
    copies: list[tuple[Callable, Callable]] = [_replacers(source, js_string(w)) for w in withs]

    def rule(node: Node) -> list[Node]:
        if node.get("type") == "x-unroll-replace":
            return [unroll(node, withs) if node.get("what") == what else node]
        return unique([_apply(node, grid_map, pid_map, None) for grid_map, pid_map in copies])

    return rule


def _replacers(source: str, value: str) -> tuple[Callable, Callable]:
    def grid_map(grid: list[list[str]]) -> list[list[str]]:
        return [[js_replace(source, tile, lambda _m: value) for tile in row] for row in grid]

    def pid_map(pid: str) -> str:
        return replace_all(pid, source, value)

    return grid_map, pid_map


def replace_all(text: str, what: str, value: str) -> str:
    """JavaScript ``text.replaceAll(what, value)`` with a string pattern and replacement.

    The replacement string's ``$`` patterns are interpreted, as in JavaScript: ``$$``, ``$&``,
    ``$``` and ``$'`` (there are no groups, so ``$1`` stays literal).
    """
    if "$" not in value and what:
        return text.replace(what, value)
    starts: list[int] = []
    step = max(len(what), 1)
    at = text.find(what)
    while at != -1:
        starts.append(at)
        at = text.find(what, at + step) if at + step <= len(text) else -1
    out, last = [], 0
    for start in starts:
        end = start + len(what)
        out.append(text[last:start] + _substitute(value, text, start, end))
        last = end
    out.append(text[last:])
    return "".join(out)


def _substitute(value: str, text: str, start: int, end: int) -> str:
    if "$" not in value:
        return value
    out, i = [], 0
    while i < len(value):
        c = value[i]
        nxt = value[i + 1] if i + 1 < len(value) else ""
        if c == "$" and nxt in "$&`'" and nxt:
            out.append({"$": "$", "&": text[start:end], "`": text[:start], "'": text[end:]}[nxt])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)
