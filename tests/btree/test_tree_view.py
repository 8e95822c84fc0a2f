"""Addressing, new nodes, finding and labels of authored trees (spec §11.2): the views the tree
editor reads before it edits."""

from __future__ import annotations

import pytest

from studio.engines.btree.compiling.checks import check_node
from studio.engines.btree.model.schema import ALL_TYPES, PARENT_TYPES
from studio.engines.btree.editing.tree_view import (
    TYPE_ORDER,
    EditError,
    category,
    find,
    new_node,
    node_at,
    parent_path,
    path_from_spec,
    spec_path,
    summary,
    walk,
)
from tests.btree.test_tree_edit import make_tree


@pytest.fixture
def tree() -> dict:
    return make_tree()

# ------------------------------------------------------------------------------------ addressing


def test_node_at_parent_path_and_walk(tree: dict) -> None:
    assert node_at(tree, ()) is tree
    assert node_at(tree, (1, 0, 1, 0))["desc"] == "push"
    assert parent_path((1, 0, 1)) == (1, 0)
    with pytest.raises(EditError, match="root has no parent"):
        parent_path(())
    with pytest.raises(EditError, match=r"no node at \[1, 5\]"):
        node_at(tree, (1, 5))
    with pytest.raises(EditError, match="no node at"):
        node_at(tree, (0, 0))  # set-board is a leaf
    order = [path for path, _ in walk(tree)]
    assert order == [(), (0,), (1,), (1, 0), (1, 0, 0), (1, 0, 1), (1, 0, 1, 0), (1, 1), (1, 1, 0), (2,)]
    assert all(node_at(tree, path) is node for path, node in walk(tree))


def test_spec_paths_round_trip() -> None:
    assert spec_path(()) == "tree"
    assert spec_path((1, 0)) == "tree/children[1]/children[0]"
    for path in [(), (0,), (3, 12, 0)]:
        assert path_from_spec(spec_path(path)) == path
    for bad in ["", "tree/", "tree/children[x]", "tree/children[1]extra", "node/children[0]"]:
        with pytest.raises(EditError):
            path_from_spec(bad)


def test_category_of_every_type() -> None:
    assert {category(t) for t in ("order", "player", "win", "draw", "loop-times")} == {"control"}
    assert {category(t) for t in ("rewrite", "match", "display-board", "layer-template")} == {"tile"}
    assert {category(t) for t in ("x-ident", "x-link", "x-file", "x-unroll-replace")} == {"transform"}
    assert set(TYPE_ORDER) == ALL_TYPES and len(TYPE_ORDER) == len(ALL_TYPES)
    with pytest.raises(EditError, match="unknown node type"):
        category("bogus")


# ------------------------------------------------------------------------------------- new nodes


@pytest.mark.parametrize("kind", TYPE_ORDER)
def test_every_new_node_passes_the_structural_check(kind: str) -> None:
    node = new_node(kind)
    check_node(node, "tree")
    assert node["type"] == kind and list(node)[0] == "type"
    assert ("children" in node) == (kind in PARENT_TYPES)
    assert new_node(kind) is not node and new_node(kind) == node


def test_new_node_defaults() -> None:
    assert new_node("loop-times")["times"] == 1
    assert new_node("display-board") == {"type": "display-board", "delay": 0.5}
    assert new_node("player") == {"type": "player", "pid": "", "children": []}
    assert new_node("rewrite") == {"type": "rewrite", "lhs": {"main": [["_"]]}, "rhs": {"main": [["_"]]}}
    assert new_node("set-board")["pattern"] == {"main": [["_"] * 3] * 3}
    assert new_node("layer-template") == {"type": "layer-template", "layer": "NEW", "with": "_"}
    assert new_node("x-swap") == {"type": "x-swap", "what": "", "with": "", "children": []}
    assert new_node("x-replace")["withs"] == [] and new_node("x-link") == {"type": "x-link", "target": ""}
    assert new_node("x-file") == {"type": "x-file", "file": "", "target": ""}
    one = new_node("rewrite")
    assert one["lhs"] is not one["rhs"]
    with pytest.raises(EditError):
        new_node("bogus")


# ------------------------------------------------------------------------------ find and labels


def test_find_by_nid_comment_or_desc(tree: dict) -> None:
    assert find(tree, "loop") == [(1,), (2,)]  # nid "loop", then the comment "show the LOOP"
    assert find(tree, "ROOT") == [()]
    assert find(tree, "pus") == [(1, 0, 1, 0)]
    assert find(tree, "A") == [()]  # "Root of it all": pids and tiles are not searched
    assert find(tree, "nothing like it") == [] and find(tree, "  ") == []
    assert find({"type": "order", "nid": 7, "children": []}, "7") == [()]


def test_summary_labels() -> None:
    assert summary({"type": "player", "pid": "X", "nid": "p", "children": []}) == "player #p pid X"
    assert summary({"type": "loop-times", "times": 3, "children": []}) == "loop-times ×3"
    assert summary({"type": "display-board", "delay": 0.5}) == "display-board 0.5s"
    assert summary({"type": "x-link", "target": "turn"}) == "x-link → turn"
    assert summary({"type": "x-file", "file": "lib", "target": "t"}) == "x-file → lib:t"
    assert summary({"type": "x-swap", "what": "X", "with": "O", "children": []}) == "x-swap X↔O"
    assert summary({"type": "x-replace", "what": "a", "withs": [1, "b"], "children": []}) == "x-replace a→[1 b]"
    assert summary({"type": "x-spin", "remorig": True, "children": []}) == "x-spin -orig"
    assert summary({"type": "layer-template", "layer": "hp", "with": "0"}) == "layer-template hp=0"
    assert summary({"type": "rewrite", "button": "left", "desc": "go", "lhs": {"main": [["P", "_"]]},
                    "rhs": {"main": [["_", "P"]]}}) == 'rewrite [←] 1×2 "go"'
    assert summary({"type": "set-board", "comment": "level 1\nmore", "pattern": {"a": [["x"]] * 2, "b": [["y"]] * 2}}) \
        == "set-board 2×1×2 · level 1"
    assert summary({"type": "match-times", "times": 0, "pattern": {}}) == "match-times ×0 ∅"
    long = summary({"type": "order", "comment": "x" * 200, "children": []}, width=20)
    assert len(long) == 20 and long.endswith("…")
