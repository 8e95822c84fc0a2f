"""Node types and fields of behaviour trees (spec §3.2), and small JSON/JavaScript value helpers.

Trees are plain dicts in the trrbt JSON shape: ``{"type": ..., "children": [...], ...}`` with
patterns as ``{layer: [[tile, ...], ...]}``.
"""

from __future__ import annotations

import math
from typing import Any

Node = dict[str, Any]
Pattern = dict[str, list[list[str]]]

CONTROL_TYPES = frozenset(
    ["order", "all", "none", "random-try", "loop-until-all", "loop-times", "player", "win", "lose", "draw"]
)
"""Engine node types with children."""

TILE_TYPES = frozenset(
    [
        "match", "match-times", "rewrite", "rewrite-all", "set-board", "layer-template",
        "append-rows", "append-columns", "display-board",
    ]
)
"""Engine leaf types."""

ENGINE_TYPES = CONTROL_TYPES | TILE_TYPES
"""The 19 types left after compilation."""

RULE_TRANSFORMS = frozenset(
    ["x-ident", "x-prune", "x-mirror", "x-flip", "x-skew", "x-rotate", "x-spin", "x-swap", "x-replace"]
)
"""Transform nodes that add a rule for their children and disappear."""

LINK_TYPES = frozenset(["x-link", "x-file"])
"""Transform leaves that pull in a node by its nid."""

PARENT_TYPES = CONTROL_TYPES | RULE_TRANSFORMS | {"x-unroll-replace"}
"""Types that must have a ``children`` list."""

ALL_TYPES = ENGINE_TYPES | RULE_TRANSFORMS | LINK_TYPES | {"x-unroll-replace"}


def node_types_hint(kind: object) -> str:
    """What to write instead of a node type that is none: the nearest types, then them all."""
    import difflib  # noqa: PLC0415 - only an error pays for it

    near = difflib.get_close_matches(kind, sorted(ALL_TYPES), n=2) if isinstance(kind, str) else []
    nearest = f"did you mean {' or '.join(map(repr, near))}? " if near else ""
    return f"{nearest}the node types are: {', '.join(sorted(ALL_TYPES))}"

PATTERN_FIELDS = ("pattern", "lhs", "rhs")
"""Fields holding layer patterns, wherever they occur (transforms rewrite them on any node)."""

PAD = "?"
"""The pattern editor's padding tile (new rows and columns, short rows of the text form); the
load-time diagnostics warn when a saved pattern still holds it."""

RESHAPED_FIELDS: dict[str, tuple[str, ...]] = {
    "rewrite": ("lhs", "rhs"),
    "rewrite-all": ("lhs", "rhs"),  # Decision 6: the reference CLI did not reshape these
    "match": ("pattern",),
    "match-times": ("pattern",),
    "set-board": ("pattern",),
    "append-rows": ("pattern",),
    "append-columns": ("pattern",),
}
"""Pattern fields per node type: reshaped from YAML text and required (§4.1, §9.1)."""

REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    **RESHAPED_FIELDS,
    "layer-template": ("layer", "with"),
    "x-link": ("target",),
    "x-file": ("file", "target"),
    "x-swap": ("what", "with"),
    "x-replace": ("what", "withs"),
    "x-unroll-replace": ("what",),
}

DEFAULT_LAYER = "main"
ARROWS = "←↑→↓"


def child_path(parent: str, index: int) -> str:
    """The spec's node path notation: ``tree/children[1]/children[0]``."""
    return f"{parent}/children[{index}]"


def js_string(value: Any) -> str:
    """``'' + value`` in JavaScript, for the values a game file can hold."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _js_number(value)
    return str(value)


def _js_number(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:  # JavaScript writes 1e-7 and 1e+21, Python 1e-07 and 1e+21
        mantissa, exponent = text.split("e")
        sign = "-" if exponent.startswith("-") else "+"
        text = f"{mantissa}e{sign}{int(exponent.lstrip('+-'))}"
    return text


def json_key(value: Any) -> Any:
    """A hashable stand-in for a JSON value, equal exactly when ``JSON.stringify`` texts are.

    Numbers compare numerically (``1`` and ``1.0`` both stringify to ``1``); object key order
    matters, as it does for ``JSON.stringify``; booleans differ from numbers.
    """
    kind = type(value)
    if kind is str:
        return value
    if kind is list:
        if all(type(item) is str for item in value):  # pattern rows: the hot path
            return ("l", *value)
        return ("l", *(json_key(v) for v in value))
    if kind is dict:
        return ("d", *((k, json_key(v)) for k, v in value.items()))
    if kind is bool:
        return ("b", value)
    if kind is int or kind is float:
        return ("n", value)
    if isinstance(value, str):
        return str(value)
    return ("?", repr(value))


def pattern_size(pattern: Any) -> tuple[int, int]:
    """(rows, cols) of a pattern's first layer; (0, 0) when it has none."""
    for grid in pattern.values():
        return (len(grid), len(grid[0]) if grid else 0)
    return (0, 0)
