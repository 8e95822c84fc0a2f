"""The fields of each node type and how the properties pane edits them (btree.md §3.2, §11.2).

Values typed in the editor are parsed here, with errors that name the field and what it takes,
so that the screen only shows them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .schema import Node
from .tree_edit import EditError, Path, _replace, node_at

BUTTONS = ("", "up", "down", "left", "right", "action1", "action2")
"""Rewrite buttons; ``""`` (none) removes the field."""


@dataclass(frozen=True)
class FieldSpec:
    """One editable field: ``kind`` is text, int, float, bool, choice, words, pid or pattern."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    default: Any = None
    required: bool = False


COMMENT = FieldSpec("comment", "text")
NID = FieldSpec("nid", "text")
_ALL = (COMMENT, NID)
_BY_TYPE: dict[str, tuple[FieldSpec, ...]] = {
    "x-mirror": (FieldSpec("remorig", "bool", default=False),),
    "x-flip": (FieldSpec("remorig", "bool", default=False),),
    "x-skew": (FieldSpec("remorig", "bool", default=False),),
    "x-rotate": (FieldSpec("remorig", "bool", default=False),),
    "x-spin": (FieldSpec("remorig", "bool", default=False),),
    "x-file": (FieldSpec("file", "text", required=True), FieldSpec("target", "text",
                                                                   required=True)),
    "x-link": (FieldSpec("target", "text", required=True),),
    "player": (FieldSpec("pid", "pid"),),
    "win": (FieldSpec("pid", "pid"),),
    "lose": (FieldSpec("pid", "pid"),),
    "layer-template": (FieldSpec("layer", "text", required=True),
                       FieldSpec("with", "text", required=True)),
    "loop-times": (FieldSpec("times", "int", low=1, high=99, default=1),),
    "match-times": (FieldSpec("times", "int", low=1, high=99, default=1),
                    FieldSpec("pattern", "pattern", required=True)),
    "display-board": (FieldSpec("delay", "float", low=0, high=100, default=0.5),),
    "x-swap": (FieldSpec("what", "text", required=True), FieldSpec("with", "text",
                                                                   required=True)),
    "x-replace": (FieldSpec("what", "text", required=True),
                  FieldSpec("withs", "words", required=True)),
    "x-unroll-replace": (FieldSpec("what", "text", required=True), FieldSpec("withs", "words")),
    "rewrite": (FieldSpec("button", "choice", BUTTONS, default=""), FieldSpec("desc", "text"),
                FieldSpec("mouse", "bool", default=True),
                FieldSpec("lhs", "pattern", required=True),
                FieldSpec("rhs", "pattern", required=True)),
    "rewrite-all": (FieldSpec("lhs", "pattern", required=True),
                    FieldSpec("rhs", "pattern", required=True)),
    "match": (FieldSpec("pattern", "pattern", required=True),),
    "set-board": (FieldSpec("pattern", "pattern", required=True),),
    "append-rows": (FieldSpec("pattern", "pattern", required=True),),
    "append-columns": (FieldSpec("pattern", "pattern", required=True),),
}


def fields_of(node_type: str) -> tuple[FieldSpec, ...]:
    """The editable fields of a node type, in the order of §11.2."""
    return (*_ALL, *_BY_TYPE.get(node_type, ()))


def _number(text: str) -> int | float:
    value = float(text)
    if math.isnan(value) or math.isinf(value):
        raise ValueError(text)
    return int(value) if value == int(value) and "." not in text and "e" not in text.lower() \
        else value


def parse_value(spec: FieldSpec, value: Any) -> Any:
    """A field's value from what the editor gives (text, a bool, or a pattern).

    Returns:
        The value to store; ``None`` means "remove the field".

    Raises:
        EditError: the value does not fit, naming the field and what it takes.
    """
    name = spec.name
    if spec.kind == "pattern":
        if not (isinstance(value, dict) and value and all(
                isinstance(k, str) and isinstance(g, list)
                and all(isinstance(r, list) and all(isinstance(t, str) for t in r) for r in g)
                for k, g in value.items())):
            raise EditError(f"{name} must be layers of rows of tiles")
        return value
    if spec.kind == "bool":
        text = str(value).strip().lower()
        if isinstance(value, bool):
            flag = value
        elif text in ("true", "yes", "1"):
            flag = True
        elif text in ("false", "no", "0"):
            flag = False
        else:
            raise EditError(f"{name} is true or false")
        # The default is what an absent field means: leave it out, as the reference does.
        return None if flag == spec.default else flag
    text = str(value).strip()
    if spec.kind == "choice":
        if text not in spec.choices:
            raise EditError(f"{name} is one of: {', '.join(c or 'none' for c in spec.choices)}")
        return text or None
    if not text:
        if spec.required:
            raise EditError(f"{name} is needed by this node")
        return None
    if spec.kind in ("int", "float"):
        try:
            number = _number(text)
        except ValueError:
            raise EditError(f"{name} must be a number from {spec.low:g} to {spec.high:g}") \
                from None
        if spec.kind == "int" and not float(number).is_integer():
            raise EditError(f"{name} must be a whole number from {spec.low:g} to {spec.high:g}")
        if spec.low is not None and not spec.low <= number <= spec.high:
            whole = "a whole number" if spec.kind == "int" else "a number"
            raise EditError(f"{name} must be {whole} from {spec.low:g} to {spec.high:g}")
        return int(number) if spec.kind == "int" else number
    if spec.kind == "words":
        out: list[Any] = []
        for word in text.split():
            try:
                out.append(_number(word))
            except ValueError:
                out.append(word)
        return out
    return text


def set_field(tree: Node, path: Path, name: str, value: Any) -> Node:
    """The tree with field ``name`` of the node at ``path`` set (or removed when empty).

    Existing fields keep their place; a new one goes last (before ``children``).

    Raises:
        EditError: no such field on this node type, or a value that does not fit.
    """
    node = node_at(tree, path)
    spec = next((s for s in fields_of(str(node.get("type"))) if s.name == name), None)
    if spec is None:
        raise EditError(f"a {node.get('type')} node has no field {name!r}")
    parsed = parse_value(spec, value)
    fields = {key: val for key, val in node.items() if key != "children"}
    if parsed is None:
        fields.pop(name, None)
    else:
        fields[name] = parsed
    if "children" in node:
        fields["children"] = node["children"]
    if fields == node:
        return tree
    return _replace(tree, path, fields)
