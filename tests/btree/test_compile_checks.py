"""Structural errors (spec §9.1) and load-time warnings (§9.2)."""

from __future__ import annotations

import pytest

from studio.engines.btree import BtreeError
from tests.btree.xtrees import build, match, node, pat, rewrite


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"type": "orderr", "children": []}, "unknown node type 'orderr'"),
        ({"children": []}, "no type"),
        ({"type": "all"}, "needs a children list"),
        ({"type": "x-mirror", "children": None}, "needs a children list"),
        ({"type": "match", "pattern": pat("A"), "children": []}, "a leaf and cannot have children"),
        ({"type": "x-link", "target": "t", "children": []}, "a link and cannot have children"),
        ({"type": "rewrite", "lhs": pat("A")}, "missing required field 'rhs'"),
        ({"type": "rewrite-all", "rhs": pat("A")}, "missing required field 'lhs'"),
        ({"type": "set-board"}, "missing required field 'pattern'"),
        ({"type": "layer-template", "layer": "x"}, "missing required field 'with'"),
        ({"type": "x-link"}, "missing required field 'target'"),
        ({"type": "x-file", "target": "t"}, "missing required field 'file'"),
        ({"type": "x-replace", "what": "a", "children": []}, "missing required field 'withs'"),
        ({"type": "x-replace", "what": "a", "withs": "ab", "children": []}, "withs must be a list"),
        ({"type": "x-swap", "with": "a", "children": []}, "missing required field 'what'"),
        ({"type": "match", "pattern": 5}, "must be a layer pattern"),
        ({"type": "match", "pattern": {"main": [["A", "B"], ["C"]]}}, "rows of different lengths"),
        ({"type": "match", "pattern": {"main": [["A"]], "b": [["A", "B"]]}}, "is 1×2 but the first layer is 1×1"),
        ({"type": "match", "pattern": {"main": [[1]]}}, "tiles are strings"),
        ({"type": "rewrite", "lhs": pat("A"), "rhs": pat("A B")}, "lhs is 1×1 but rhs is 1×2"),
        (["not", "a", "node"], "must be a mapping"),
    ],
)
def test_structural_errors_name_the_node(bad: object, message: str) -> None:
    tree = node("order", match("A"), node("all", bad))
    with pytest.raises(BtreeError, match=message) as info:
        build(tree)
    assert info.value.node_path == "tree/children[1]/children[0]"
    assert "tree/children[1]/children[0]" in str(info.value)


def test_error_text_carries_type_nid_and_comment() -> None:
    bad = {"type": "rewrite", "lhs": pat("A"), "nid": "n1", "comment": "oops"}
    with pytest.raises(BtreeError) as info:
        build(node("order", bad))
    assert str(info.value) == "tree/children[0]: rewrite nid='n1' ('oops'): missing required field 'rhs'"


def test_an_rhs_smaller_than_its_lhs_is_only_a_warning() -> None:
    compiled = build(node("order", {"type": "set-board", "pattern": pat("A")}, rewrite("A B; C D", "x")))
    assert [w.node_path for w in compiled.warnings] == ["tree/children[1]"]
    assert "only the rhs area" in compiled.warnings[0].message


def _messages(tree: dict) -> list[str]:
    return [w.message for w in build(tree).warnings]


def test_warnings() -> None:
    board = {"type": "set-board", "pattern": pat("_")}
    assert _messages(node("order", board, node("player", match("_"), rewrite("_", "X"))))[0].startswith(
        "player child of type 'match' is ignored")
    assert "times is missing" in _messages(node("order", board, node("loop-times", match("_"))))[0]
    assert "times is missing" in _messages(node("order", board, {"type": "match-times", "pattern": pat("_"), "times": "2"}))[0]
    assert "ignored on append" in _messages(node("order", board, {"type": "append-rows", "pattern": pat("_"), "times": 2}))[0]
    ghost = {"type": "rewrite", "lhs": pat("_"), "rhs": pat("X", "ghost")}
    assert "'ghost'" in _messages(node("order", board, ghost))[0]
    dotted = {"type": "rewrite", "lhs": pat("_"), "rhs": {"main": [["X"]], "ghost": [["."]]}}
    assert _messages(node("order", board, dotted)) == []
    early = {"type": "layer-template", "layer": "l", "with": "_"}
    assert "before any set-board" in _messages(node("order", early, board))[0]
    assert _messages(node("order", board, early)) == []
    assert "looks like a number" in _messages(node("order", {"type": "set-board", "pattern": pat("_", "12")}))[0]


def test_one_warning_per_authored_node_not_per_copy() -> None:
    board = {"type": "set-board", "pattern": pat("_")}
    tree = node("order", board, node("x-spin", {"type": "rewrite", "lhs": pat("_ _"), "rhs": pat("X X", "ghost")}))
    assert len(build(tree).warnings) == 1


def test_padding_left_in_a_pattern_is_warned_about_where_the_game_is_checked() -> None:
    board = {"type": "set-board", "pattern": pat("_ _")}
    padded = rewrite("P _; Q ?", "_ _; _ _")
    messages = _messages(node("order", board, padded))
    assert messages == ["lhs layer 'main' holds ?, the pattern editor's padding: fill it in "
                        "(it is read as a tile named ?)"]
    assert _messages(node("order", board, rewrite("P _; Q R", "_ _; _ _"))) == []


def test_an_unknown_node_type_when_compiling_names_the_nearest_and_every_type() -> None:
    with pytest.raises(BtreeError) as info:
        build(node("order", match("A"), {"type": "rewrite-al", "lhs": pat("A"), "rhs": pat("A")}))
    assert "did you mean 'rewrite-all'" in str(info.value) or \
        "did you mean 'rewrite-all'" in (getattr(info.value, "hint", "") or "")
    assert "§" not in str(info.value)


def _warnings(tree: dict) -> list[tuple[str, str]]:
    return [(w.node_path, w.message) for w in build(tree).warnings]


def test_a_player_with_no_children_is_warned_about_with_what_to_do() -> None:
    board = {"type": "set-board", "pattern": pat("_")}
    (where, message), = _warnings(node("order", board, node("player", pid="1")))
    assert where == "tree/children[1]"
    assert "never offers a move" in message and "add a rewrite under it" in message
    assert _warnings(node("order", board, node("player", rewrite("_", "X"), pid="1"))) == []


def test_a_player_without_pid_beside_named_ones_is_warned_about() -> None:
    board = {"type": "set-board", "pattern": pat("_")}
    named = node("player", rewrite("_", "X"), pid="1")
    nameless = node("player", rewrite("_", "O"))
    (where, message), = _warnings(node("order", board, named, nameless))
    assert where == "tree/children[2]" and "no pid while others are named ('1')" in message
    assert "set its pid" in message
    assert _warnings(node("order", board, nameless)) == []  # one pid-less player is a game


def test_a_nid_given_twice_names_both_nodes() -> None:
    board = {"type": "set-board", "pattern": pat("_")}
    tree = node("order", board, node("order", nid="turn"), node("order", nid="turn"))
    (where, message), = _warnings(tree)
    assert where == "tree/children[2]"
    assert message.startswith("nid 'turn' is also the nid of tree/children[1]")
    assert "give this node a nid of its own" in message


def test_an_lhs_layer_the_board_lacks_is_warned_about() -> None:
    board = {"type": "set-board", "pattern": {"main": [["_"]], "goal": [["G"]]}}
    ghost = {"type": "rewrite", "lhs": pat("G", "gaol"), "rhs": pat("X")}
    (where, message), = _warnings(node("order", board, ghost))
    assert where == "tree/children[1]"
    assert message.startswith("lhs reads layer 'gaol', which no set-board")
    assert "rename it to one of 'goal', 'main'" in message
    probe = {"type": "match", "pattern": pat("G", "gaol")}
    assert "pattern reads layer 'gaol'" in _warnings(node("order", board, probe))[0][1]
    anything = {"type": "rewrite", "lhs": {"main": [["_"]], "gaol": [["."]]}, "rhs": pat("X")}
    assert _warnings(node("order", board, anything)) == []  # an all-"." layer tests nothing
    # A tree that makes no board (a mechanics file its levels include) cannot know the layers.
    assert not [m for _, m in _warnings(node("order", ghost)) if "reads layer" in m]
