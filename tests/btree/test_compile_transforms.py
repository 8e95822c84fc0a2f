"""Transform rules (spec §6.3–6.5): geometry, arrows, buttons, remorig, composition, text."""

from __future__ import annotations

import pytest

from studio.engines.btree import BtreeError
from tests.btree.xtrees import build, grid, kids, match, node, patterns, rewrite


def one(transform: dict) -> list[dict]:
    return kids(build(node("order", transform)))


def test_mirror_reverses_columns_swaps_horizontal_arrows_and_buttons() -> None:
    out = one(node("x-mirror", rewrite("P← _", "_ P←", button="left")))
    assert [n["lhs"]["main"] for n in out] == [grid("P← _"), grid("_ P→")]
    assert [n["rhs"]["main"] for n in out] == [grid("_ P←"), grid("P→ _")]
    assert [n["button"] for n in out] == ["left", "right"]


def test_flip_reverses_rows_swaps_vertical_arrows_and_buttons() -> None:
    out = one(node("x-flip", rewrite("↑; _", "_; ↑", button="up")))
    assert [n["lhs"]["main"] for n in out] == [grid("↑; _"), grid("_; ↓")]
    assert [n["button"] for n in out] == ["up", "down"]


def test_rotate_is_clockwise_for_grid_arrows_and_buttons() -> None:
    out = one(node("x-rotate", rewrite("A→ B", "B A→", button="right")))
    assert out[1]["lhs"]["main"] == [["A↓"], ["B"]]
    assert out[1]["rhs"]["main"] == [["B"], ["A↓"]]
    assert out[1]["button"] == "down"
    two_by_two = one(node("x-rotate", match("a b; c d")))
    assert patterns(two_by_two)[1] == grid("c a; d b")  # g'[i][j] = g[R-1-j][i]


def test_skew_shifts_column_j_down_by_j_and_keeps_arrows_and_buttons() -> None:
    out = one(node("x-skew", rewrite("→ X", "X →", button="right")))
    assert out[1]["lhs"]["main"] == grid("→ .; . X")
    assert out[1]["button"] == "right"


def test_spin_gives_four_rotations_with_arrows_inside_tiles_and_buttons() -> None:
    out = one(node("x-spin", rewrite("_← x", "x _←", button="left")))
    assert [n["lhs"]["main"] for n in out] == [[["_←", "x"]], [["_↑"], ["x"]], [["x", "_→"]], [["x"], ["_↓"]]]
    assert [n["button"] for n in out] == ["left", "up", "right", "down"]
    rotated_arrows = [tile for n in out for row in n["lhs"]["main"] for tile in row if tile != "x"]
    assert rotated_arrows == ["_←", "_↑", "_→", "_↓"]


def test_actions_and_diagonal_arrows_are_never_remapped() -> None:
    out = one(node("x-spin", rewrite("↖ _", "_ ↖", button="action1")))
    assert {n["button"] for n in out} == {"action1"}
    assert {tile for n in out for row in n["lhs"]["main"] for tile in row} == {"↖", "_"}


def test_remorig_drops_the_original() -> None:
    assert patterns(one(node("x-mirror", match("A B"), remorig=True))) == [grid("B A")]
    assert patterns(one(node("x-spin", match("A B"), remorig=True))) == [grid("A; B"), grid("B A"), grid("B; A")]


def test_symmetric_patterns_collapse_under_spin() -> None:
    assert len(one(node("x-spin", match("A")))) == 1
    assert len(one(node("x-spin", match("A A; A A")))) == 1


def test_composition_rotate_over_skew_gives_the_four_lines_in_order() -> None:
    out = one(node("x-rotate", node("x-skew", match("X X X"))))
    assert patterns(out) == [
        grid("X X X"),
        grid("X; X; X"),
        grid("X . .; . X .; . . X"),
        grid(". . X; . X .; X . ."),
    ]


def test_composition_skew_over_rotate_gives_three() -> None:
    out = one(node("x-skew", node("x-rotate", match("X X X"))))
    assert patterns(out) == [grid("X X X"), grid("X . .; . X .; . . X"), grid("X; X; X")]


def test_composition_mirror_over_flip() -> None:
    out = one(node("x-mirror", node("x-flip", match("a b; c d"))))
    assert patterns(out) == [grid("a b; c d"), grid("b a; d c"), grid("c d; a b"), grid("d c; b a")]


def test_control_copies_collapse_and_each_copy_expands_children_with_all_rules() -> None:
    out = one(node("x-mirror", node("all", match("A B"))))
    assert len(out) == 1 and patterns(out[0]["children"]) == [grid("A B"), grid("B A")]


def test_dedup_is_per_call_not_global() -> None:
    out = kids(build(node("order", match("A"), match("A"), node("x-ident", match("A"), match("A")))))
    assert len(out) == 4


def test_rotate_or_skew_of_an_empty_pattern_is_an_error_but_spin_is_not() -> None:
    empty = {"type": "match", "pattern": {"main": []}}
    for kind in ("x-rotate", "x-skew"):
        with pytest.raises(BtreeError, match="empty pattern") as info:
            build(node("order", node(kind, dict(empty))))
        assert info.value.node_path == "tree/children[0]/children[0]"
    assert one(node("x-spin", dict(empty))) == [{"type": "match", "pattern": {"main": []}}]


def test_swap_is_simultaneous_and_renames_the_pid_as_a_string() -> None:
    with pytest.raises(BtreeError, match="missing required field 'with'"):
        one(node("x-swap", node("player", rewrite("X O", "O X"), pid="X"), what="X", wiht="O"))
    out = one({"type": "x-swap", "what": "X", "with": "O", "children": [node("player", rewrite("XO _", "_ OX"), pid="X")]})
    assert out[0]["pid"] == "O" and out[0]["children"][0]["lhs"]["main"] == grid("OX _")
    numeric = one({"type": "x-swap", "what": "A", "with": "B", "children": [node("win", pid=7)]})
    assert numeric[0]["pid"] == "7"


def test_swap_leaves_layer_names_desc_button_and_templates_alone() -> None:
    tree = {"type": "x-swap", "what": "a", "with": "b", "children": [
        {"type": "rewrite", "desc": "a", "button": "action1", "lhs": {"a": [["a"]]}, "rhs": {"a": [["b"]]}},
        {"type": "layer-template", "layer": "a", "with": "a"},
    ]}
    out = one(tree)
    assert out[0] == {"type": "rewrite", "desc": "a", "button": "action1", "lhs": {"a": [["b"]]}, "rhs": {"a": [["a"]]}}
    assert out[1] == {"type": "layer-template", "layer": "a", "with": "a"}


def test_replace_is_cartesian_over_player_pids() -> None:
    tree = {"type": "x-replace", "what": "a", "withs": [1, 2], "children": [node("player", rewrite("a a", "_ _"), pid="a")]}
    out = one(tree)
    assert [p["pid"] for p in out] == ["1", "2"]
    for player in out:
        assert [r["lhs"]["main"] for r in player["children"]] == [grid("1 1"), grid("2 2")]


def test_replace_regex_in_tiles_but_literal_in_pids_and_replacement_text_is_literal() -> None:
    tree = {"type": "x-replace", "what": ".", "withs": ["$&z"], "children": [node("win", match("ab"), pid="a.b")]}
    out = one(tree)
    assert out[0]["children"][0]["pattern"]["main"] == [["$&z$&z"]]  # a function replacement: literal
    assert out[0]["pid"] == "a.b".replace(".", ".z")  # JS replaceAll with a string: $& is the match


def test_replace_numbers_as_decimal_text_and_duplicates_collapse() -> None:
    tree = {"type": "x-replace", "what": "n", "withs": [1, 2.5, 1.0], "children": [match("n"), match("X")]}
    out = one(tree)
    assert patterns(out) == [[["1"]], [["2.5"]], [["X"]]]


def test_nested_replace_applies_innermost_first() -> None:
    inner = {"type": "x-replace", "what": "a", "withs": ["b"], "children": [match("a")]}
    outer = {"type": "x-replace", "what": "b", "withs": ["c"], "children": [inner]}
    assert patterns(one(outer)) == [[["c"]]]


def test_untranslatable_regex_names_the_transform_node() -> None:
    tree = node("order", match("A"), {"type": "x-replace", "what": "(a)\\1", "withs": ["x"], "children": [match("a")]})
    with pytest.raises(BtreeError, match="back-references") as info:
        build(tree)
    assert info.value.node_path == "tree/children[1]" and info.value.node_type == "x-replace"
