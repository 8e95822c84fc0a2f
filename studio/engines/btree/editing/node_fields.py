"""The properties pane of the tree editor (spec §11.2): which fields each node type has, and
setting them from what the user typed, with the editor's ranges.

Like :mod:`studio.engines.btree.editing.tree_edit`, every setter returns a new tree that copies
only the path to the edited node. A field keeps its place in the node; a new field goes after ``type`` in
the order of :data:`FIELD_ORDER`, so the project file and JSON export stay stable.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from studio.engines.btree.editing.field_spec import BUTTONS, FieldSpec
from studio.engines.btree.editing.field_values import PARSERS
from studio.engines.btree.compiling.jsregex import UntranslatableRegex, compile_js
from studio.engines.btree.editing.pattern_edit import pattern_to_text
from studio.engines.btree.model.schema import REQUIRED_FIELDS, Node, js_string
from studio.engines.btree.editing.tree_view import (
    TYPE_ORDER, EditError, NodePath, node_at, replace_node,
)

FIELD_ORDER = ("comment", "nid", "remorig", "file", "target", "pid", "layer", "times", "delay", "what", "with",
               "withs", "button", "desc", "mouse", "pattern", "lhs", "rhs")
"""The properties in the order the editor lists them (spec §11.2)."""

_SPECS = {spec.name: spec for spec in (
    FieldSpec("comment", "text", default="", label="comment"),
    FieldSpec("nid", "text", default="", word=True, label="node ID"),
    FieldSpec("remorig", "bool", default=False, label="remove original"),
    FieldSpec("file", "text", default="", word=True, label="file name"),
    FieldSpec("target", "text", default="", word=True, label="target ID"),
    FieldSpec("pid", "pid", default="", word=True, label="player ID"),
    FieldSpec("layer", "text", low=1, default="NEW", word=True, label="layer"),
    FieldSpec("times", "int", low=1, high=99, default=1, required=True, label="times"),
    FieldSpec("delay", "float", low=0, high=100, default=0.5, label="delay (seconds)"),
    FieldSpec("what", "text", default="", label="what"),
    FieldSpec("with", "text", default="", label="with"),
    FieldSpec("withs", "words", default=(), label="withs (space separated)"),
    FieldSpec("button", "choice", choices=BUTTONS, default="", label="action button"),
    FieldSpec("desc", "text", default="", label="description"),
    FieldSpec("mouse", "bool", default=True, label="clickable"),
    FieldSpec("pattern", "pattern", label="pattern"),
    FieldSpec("lhs", "pattern", label="LEFT"),
    FieldSpec("rhs", "pattern", label="RIGHT"),
)}

_EXTRA: dict[str, tuple[str, ...]] = {
    "loop-times": ("times",),
    "player": ("pid",),
    "win": ("pid",),
    "lose": ("pid",),
    "match": ("pattern",),
    "match-times": ("times", "pattern"),
    "rewrite": ("button", "desc", "mouse", "lhs", "rhs"),
    "rewrite-all": ("button", "desc", "mouse", "lhs", "rhs"),
    "set-board": ("pattern",),
    "append-rows": ("pattern",),
    "append-columns": ("pattern",),
    "layer-template": ("layer", "with"),
    "display-board": ("delay",),
    "x-mirror": ("remorig",),
    "x-flip": ("remorig",),
    "x-skew": ("remorig",),
    "x-rotate": ("remorig",),
    "x-spin": ("remorig",),
    "x-swap": ("what", "with"),
    "x-replace": ("what", "withs"),
    "x-unroll-replace": ("what", "withs"),
    "x-link": ("target",),
    "x-file": ("file", "target"),
}

_OVERRIDES: dict[tuple[str, str], dict[str, Any]] = {
    # match-times counts matches: 0 is meaningful ("none left", tic-tac-toe's draw), unlike loop-times.
    ("match-times", "times"): {"low": 0},
    # A layer-template's tile fills the whole layer: it cannot be empty.
    ("layer-template", "with"): {"low": 1, "default": "_", "word": True},
    ("player", "pid"): {"default": ""},
}


def _spec(kind: str, name: str) -> FieldSpec:
    spec = _SPECS[name]
    spec = replace(spec, required=spec.required or name in REQUIRED_FIELDS.get(kind, ()))
    return replace(spec, **_OVERRIDES.get((kind, name), {}))


FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    kind: tuple(_spec(kind, name) for name in FIELD_ORDER if name in ("comment", "nid") or name in _EXTRA.get(kind, ()))
    for kind in TYPE_ORDER
}


def fields_of(kind: str) -> tuple[FieldSpec, ...]:
    """The editable fields of a node type, in the order of spec §11.2.

    Raises:
        EditError: an unknown type.
    """
    if kind not in FIELDS:
        raise EditError(f"unknown node type {kind!r}")
    return FIELDS[kind]


def field_spec(kind: str, name: str) -> FieldSpec:
    """The :class:`FieldSpec` of one field of a node type.

    Raises:
        EditError: the type has no such field.
    """
    for spec in fields_of(kind):
        if spec.name == name:
            return spec
    raise EditError(f"{kind} has no field {name!r}")


def parse_field(kind: str, name: str, value: Any) -> Any:
    """The value to store for ``name`` on a node of ``kind``, from text or a value.

    Args:
        kind: the node type.
        name: one of its fields (:func:`fields_of`).
        value: what the user typed, or a value of the field's kind.

    Returns:
        The parsed value: an int for ``int``, an int or float for ``float`` (``2`` stays an int),
        a list for ``words``, a pattern dict for ``pattern``, else text (or a number for a pid
        given as one).

    Raises:
        EditError: the type has no such field, or the value is not allowed; the message names the
            field and the allowed values.
    """
    spec = field_spec(kind, name)
    return PARSERS[spec.kind](spec, value)


def _check_regex(node: Node) -> None:
    """The transform's regular expression must translate (spec §6.3), as the compiler needs."""
    kind = node.get("type")
    if kind == "x-swap":
        source = f"({js_string(node.get('what', ''))}|{js_string(node.get('with', ''))})"
    elif kind in ("x-replace", "x-unroll-replace"):
        source = js_string(node.get("what", ""))
    else:
        return
    try:
        compile_js(source)
    except UntranslatableRegex as exc:
        raise EditError(f"what: {exc}") from None


# -------------------------------------------------------------------------------------- setters


def _placed(node: Node, name: str, value: Any) -> Node:
    """``node`` with ``name`` set, an existing field in its place, a new one in :data:`FIELD_ORDER`."""
    if name in node:
        return {key: (value if key == name else old) for key, old in node.items()}
    rank = FIELD_ORDER.index(name)
    keys = list(node)
    at = keys.index("type") + 1 if "type" in keys else 0
    for i, key in enumerate(keys):
        if key in FIELD_ORDER and FIELD_ORDER.index(key) < rank:
            at = max(at, i + 1)
    items = list(node.items())
    items.insert(at, (name, value))
    return dict(items)


def set_fields(tree: Node, path: NodePath, values: dict[str, Any]) -> Node:
    """Set several fields of one node at once (e.g. LEFT and RIGHT after a resize).

    Args:
        tree: the tree.
        path: the node.
        values: field name → text or value, as for :func:`set_field`; all or nothing is set.

    Returns:
        The new tree, or the same tree object when nothing changes (the editor adds no undo step).

    Raises:
        EditError: a field the node's type does not have, or a value it does not allow.
    """
    node = node_at(tree, path)
    kind = str(node.get("type"))
    updated = node
    for name, value in values.items():
        parsed = parse_field(kind, name, value)
        if parsed == "" and name in ("comment", "nid"):  # cleared: left out (not `nid = ""`)
            if name in updated:
                updated = {key: old for key, old in updated.items() if key != name}
            continue
        if name not in updated or _differs(updated[name], parsed):
            updated = _placed(updated, name, parsed)
    if updated is node:
        return tree
    if {"what", "with"} & set(values):
        _check_regex(updated)
    return replace_node(tree, path, lambda _: updated)


def _differs(old: Any, new: Any) -> bool:
    return type(old) is not type(new) or old != new


def set_field(tree: Node, path: NodePath, name: str, value: Any) -> Node:
    """Set one field of the node at ``path`` from text (as typed) or a value.

    Args:
        tree: the tree.
        path: the node.
        name: a field of :func:`fields_of` the node's type.
        value: text to parse (``"3"``, ``"A B 1"``, a pattern in text form) or a value of the
            field's kind (``3``, ``["A", 1]``, a pattern dict).

    Returns:
        The new tree (the same object when the value does not change).

    Raises:
        EditError: naming the field and what it allows, e.g. "times must be a whole number from 1 to 99".
    """
    return set_fields(tree, path, {name: value})


def clear_field(tree: Node, path: NodePath, name: str) -> Node:
    """Remove an optional field; the node falls back to its default.

    Returns:
        The new tree, or the same tree object when the field is absent already.

    Raises:
        EditError: a required field, or one the node's type does not have.
    """
    node = node_at(tree, path)
    spec = field_spec(str(node.get("type")), name)
    if spec.required:
        raise EditError(f"{name} is required for {node.get('type')}")
    if name not in node:
        return tree
    return replace_node(tree, path, lambda n: {k: v for k, v in n.items() if k != name})


def field_text(node: Node, name: str) -> str:
    """A field's current value as the properties pane shows it for editing (its default when absent).

    Raises:
        EditError: the type has no such field.
        PatternTextError: a pattern the text form cannot show (an empty tile, a tile with spaces).
    """
    spec = field_spec(str(node.get("type")), name)
    value = node.get(name, spec.default)
    if spec.kind == "pattern":
        return pattern_to_text(value) if isinstance(value, dict) else ""
    if spec.kind == "words":
        return " ".join(js_string(v) for v in value or ())
    return "" if value is None else js_string(value)
