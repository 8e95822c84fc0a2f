"""The properties pane (spec §11.2): fields per type, parsing and ranges, field order, sharing."""

from __future__ import annotations

import copy

import pytest

from studio.engines.btree.editing.node_fields import (
    FIELD_ORDER,
    FieldSpec,
    clear_field,
    field_spec,
    field_text,
    fields_of,
    parse_field,
    set_field,
    set_fields,
)
from studio.engines.btree.editing.pattern_edit import PatternTextError
from studio.engines.btree.model.schema import REQUIRED_FIELDS
from studio.engines.btree.editing.tree_edit import TYPE_ORDER, EditError, new_node, node_at


def tree() -> dict:
    return {"type": "order", "children": [
        {"type": "loop-times", "times": 2, "children": [
            {"type": "rewrite", "desc": "go", "lhs": {"main": [["A", "_"]]}, "rhs": {"main": [["_", "A"]]}},
        ]},
        {"type": "display-board"},
        {"type": "x-replace", "what": "a", "withs": ["b"], "children": []},
        {"type": "player", "pid": 1, "children": []},
    ]}


def names(kind: str) -> list[str]:
    return [spec.name for spec in fields_of(kind)]


# ------------------------------------------------------------------------------------ the specs


def test_fields_per_type_in_the_order_of_the_spec() -> None:
    assert names("order") == ["comment", "nid"]
    assert names("rewrite") == ["comment", "nid", "button", "desc", "mouse", "lhs", "rhs"]
    assert names("x-file") == ["comment", "nid", "file", "target"]
    assert names("match-times") == ["comment", "nid", "times", "pattern"]
    assert names("layer-template") == ["comment", "nid", "layer", "with"]
    assert names("x-spin") == ["comment", "nid", "remorig"]
    assert names("display-board") == ["comment", "nid", "delay"]
    assert names("x-unroll-replace") == ["comment", "nid", "what", "withs"]
    for kind in TYPE_ORDER:
        listed = names(kind)
        assert listed == sorted(listed, key=FIELD_ORDER.index)
        assert set(REQUIRED_FIELDS.get(kind, ())) <= {s.name for s in fields_of(kind) if s.required}
    with pytest.raises(EditError, match="unknown node type"):
        fields_of("bogus")


def test_kinds_ranges_and_defaults() -> None:
    times = field_spec("loop-times", "times")
    assert (times.kind, times.low, times.high, times.default, times.required) == ("int", 1, 99, 1, True)
    assert field_spec("match-times", "times").low == 0  # tic-tac-toe's draw: no "_" left
    delay = field_spec("display-board", "delay")
    assert (delay.kind, delay.low, delay.high, delay.default, delay.required) == ("float", 0, 100, 0.5, False)
    assert field_spec("rewrite", "button").choices == ("", "up", "down", "left", "right", "action1", "action2")
    assert field_spec("rewrite", "mouse") == FieldSpec("mouse", "bool", default=True, label="clickable")
    assert field_spec("rewrite", "lhs").required and field_spec("rewrite", "lhs").kind == "pattern"
    assert field_spec("player", "pid").kind == "pid" and not field_spec("player", "pid").required
    assert field_spec("x-replace", "withs").required and not field_spec("x-unroll-replace", "withs").required
    assert field_spec("x-replace", "withs").kind == "words"
    assert field_spec("x-mirror", "remorig").default is False
    with pytest.raises(EditError, match="order has no field 'times'"):
        field_spec("order", "times")


# -------------------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(("kind", "name", "text", "value"), [
    ("loop-times", "times", " 7 ", 7),
    ("loop-times", "times", 99, 99),
    ("loop-times", "times", 3.0, 3),
    ("match-times", "times", "0", 0),
    ("display-board", "delay", "0.25", 0.25),
    ("display-board", "delay", "2", 2),
    ("display-board", "delay", 100, 100),
    ("display-board", "delay", "0", 0),
    ("x-spin", "remorig", "yes", True),
    ("x-spin", "remorig", "False", False),
    ("rewrite", "mouse", False, False),
    ("rewrite", "button", "→", "right"),
    ("rewrite", "button", "z", "action1"),
    ("rewrite", "button", "∅", ""),
    ("rewrite", "button", " up ", "up"),
    ("x-replace", "withs", "1 b 2.5 01 -3 1e3", [1, "b", 2.5, "01", -3, "1e3"]),
    ("x-replace", "withs", "", []),
    ("x-replace", "withs", ["a", 2], ["a", 2]),
    ("player", "pid", " X ", "X"),
    ("player", "pid", "1", "1"),
    ("player", "pid", 1, 1),
    ("order", "comment", "  a note ", "a note"),
    ("order", "nid", "turn", "turn"),
    ("rewrite", "desc", "push the box", "push the box"),
    ("rewrite", "lhs", "A B\nC\n", {"main": [["A", "B"], ["C", "?"]]}),
    ("match", "pattern", {"main": [["A"]], "g": [["."]]}, {"main": [["A"]], "g": [["."]]}),
    ("x-swap", "what", "X", "X"),
    ("layer-template", "with", "0", "0"),
])
def test_parse_each_kind(kind: str, name: str, text, value) -> None:
    parsed = parse_field(kind, name, text)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize(("kind", "name", "text", "message"), [
    ("loop-times", "times", "0", "times must be a whole number from 1 to 99"),
    ("loop-times", "times", "100", "times must be a whole number from 1 to 99"),
    ("loop-times", "times", "2.5", "times must be a whole number from 1 to 99"),
    ("loop-times", "times", "", "times must be a whole number from 1 to 99"),
    ("loop-times", "times", True, "times must be a whole number from 1 to 99"),
    ("match-times", "times", "-1", "times must be a whole number from 0 to 99"),
    ("display-board", "delay", "-0.5", "delay must be a number from 0 to 100"),
    ("display-board", "delay", "101", "delay must be a number from 0 to 100"),
    ("display-board", "delay", "nan", "delay must be a number from 0 to 100"),
    ("display-board", "delay", "soon", "delay must be a number from 0 to 100"),
    ("x-spin", "remorig", "maybe", "remorig must be true or false"),
    ("rewrite", "button", "jump", "button must be one of none, up, down, left, right, action1, action2"),
    ("order", "nid", "two words", "nid cannot contain spaces"),
    ("player", "pid", "a b", "pid cannot contain spaces"),
    ("player", "pid", float("inf"), "pid must be text or a finite number"),
    ("layer-template", "with", " ", "with cannot be empty"),
    ("layer-template", "layer", "", "layer cannot be empty"),
    ("order", "comment", 5, "comment must be text"),
    ("x-replace", "withs", [True], "withs must be words"),
    ("rewrite", "lhs", "A B\n side\nC\n", "lhs: layer 'side' is 1×1 but 'main' is 1×2"),
    ("rewrite", "lhs", "", "lhs: the pattern is empty"),
    ("match", "pattern", {"main": [["A", "B"], ["C"]]}, "row 2 of layer 'main' has 1 tiles"),
    ("match", "pattern", {"main": [["A"]], "g": [["A", "B"]]}, "layer 'g' is 1×2"),
    ("match", "pattern", {"main": [[""]]}, "empty or non-text tile"),
    ("match", "pattern", "A", None),
])
def test_parse_errors_name_the_field_and_the_range(kind: str, name: str, text, message: str | None) -> None:
    if message is None:
        assert parse_field(kind, name, text) == {"main": [["A"]]}
        return
    with pytest.raises(EditError) as info:
        parse_field(kind, name, text)
    assert message in info.value.message


def test_pattern_text_errors_carry_the_line() -> None:
    with pytest.raises(PatternTextError) as info:
        parse_field("rewrite", "rhs", "A\n main\n")
    assert (info.value.line, info.value.column) == (2, 2)
    assert info.value.message == "rhs: layer 'main' is named twice"


def test_regular_expressions_must_translate() -> None:
    t = {"type": "x-replace", "what": "a", "withs": [1], "children": []}
    with pytest.raises(EditError, match="what"):
        set_field(t, (), "what", "(a)\\1")
    with pytest.raises(EditError, match="what"):
        set_field({"type": "x-swap", "what": "A", "with": "B", "children": []}, (), "with", "[")
    assert set_field(t, (), "what", "[ab]")["what"] == "[ab]"


# -------------------------------------------------------------------------------------- setters


def test_set_field_copies_only_the_path_and_keeps_the_input() -> None:
    t = tree()
    before = copy.deepcopy(t)
    new = set_field(t, (0,), "times", "5")
    assert node_at(new, (0,)) == {"type": "loop-times", "times": 5, "children": node_at(t, (0,))["children"]}
    assert node_at(new, (0,))["children"] is node_at(t, (0,))["children"]
    assert new["children"][1] is t["children"][1] and new["children"][3] is t["children"][3]
    assert t == before


def test_existing_fields_keep_their_place_and_new_ones_follow_the_spec_order() -> None:
    t = tree()
    new = set_field(t, (0, 0), "desc", "run")
    assert list(node_at(new, (0, 0))) == ["type", "desc", "lhs", "rhs"]
    new = set_field(new, (0, 0), "button", "left")
    assert list(node_at(new, (0, 0))) == ["type", "button", "desc", "lhs", "rhs"]
    new = set_field(new, (0, 0), "mouse", "false")
    assert list(node_at(new, (0, 0))) == ["type", "button", "desc", "mouse", "lhs", "rhs"]
    new = set_field(new, (0, 0), "comment", "a rule")
    assert list(node_at(new, (0, 0))) == ["type", "comment", "button", "desc", "mouse", "lhs", "rhs"]
    odd = {"rhs": {"main": [["A"]]}, "type": "rewrite", "lhs": {"main": [["A"]]}}
    assert list(set_field(odd, (), "lhs", "B")) == ["rhs", "type", "lhs"]
    assert list(set_field(odd, (), "nid", "n")) == ["rhs", "type", "nid", "lhs"]
    assert list(set_field(new_node("order"), (), "nid", "n")) == ["type", "nid", "children"]


def test_setting_the_same_value_returns_the_same_tree() -> None:
    t = tree()
    assert set_field(t, (0,), "times", "2") is t
    assert set_field(t, (3,), "pid", 1) is t
    assert set_field(t, (3,), "pid", "1") is not t  # a number and text differ (seats compare text)
    assert set_field(t, (2,), "withs", "b") is t


def test_set_fields_sets_left_and_right_together() -> None:
    t = tree()
    new = set_fields(t, (0, 0), {"lhs": "A _ _", "rhs": "_ _ A"})
    assert node_at(new, (0, 0))["lhs"] == {"main": [["A", "_", "_"]]}
    assert node_at(new, (0, 0))["rhs"] == {"main": [["_", "_", "A"]]}
    with pytest.raises(EditError, match="times"):
        set_fields(t, (0,), {"comment": "ok", "times": "0"})


def test_set_field_refusals() -> None:
    t = tree()
    with pytest.raises(EditError, match="order has no field 'pid'"):
        set_field(t, (), "pid", "X")
    with pytest.raises(EditError, match="no node at"):
        set_field(t, (9,), "comment", "x")


def test_clear_field() -> None:
    t = tree()
    new = clear_field(t, (0, 0), "desc")
    assert "desc" not in node_at(new, (0, 0)) and node_at(new, (0,)) is not node_at(t, (0,))
    assert clear_field(t, (0, 0), "button") is t  # absent already
    for kind_path, name in [((0, 0), "lhs"), ((0,), "times"), ((2,), "withs"), ((2,), "what")]:
        with pytest.raises(EditError, match="is required"):
            clear_field(t, kind_path, name)
    with pytest.raises(EditError, match="has no field"):
        clear_field(t, (1,), "times")
    unroll = {"type": "x-unroll-replace", "what": "a", "withs": [1], "children": []}
    assert clear_field(unroll, (), "withs") == {"type": "x-unroll-replace", "what": "a", "children": []}


def test_field_text_shows_values_and_defaults() -> None:
    t = tree()
    assert field_text(node_at(t, (0,)), "times") == "2"
    assert field_text(node_at(t, (1,)), "delay") == "0.5"  # the editor default of an absent delay
    assert field_text(node_at(t, (0, 0)), "lhs") == "A _\n"
    assert field_text(node_at(t, (0, 0)), "mouse") == "true"
    assert field_text(node_at(t, (2,)), "withs") == "b"
    assert field_text(node_at(t, (3,)), "pid") == "1"
    assert field_text(node_at(t, (0, 0)), "button") == ""


def test_a_cleared_comment_or_node_id_is_left_out_of_the_node() -> None:
    # Clearing the node ID field saved `nid = ""` into the file.
    tree = {"type": "order", "children": [{"type": "order", "nid": "x", "comment": "c",
                                           "children": []}]}
    cleared = set_field(set_field(tree, (0,), "nid", ""), (0,), "comment", "")
    assert cleared["children"][0] == {"type": "order", "children": []}
    assert set_field(cleared, (0,), "nid", "") is cleared  # nothing to clear: no edit
