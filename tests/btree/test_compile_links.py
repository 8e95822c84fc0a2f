"""Id pass, links, includes, unrolling, root handling and the origin map (spec §5, §6.1–6.4)."""

from __future__ import annotations

import pytest

from studio.engines.btree import BtreeError, Game, compile_game
from tests.btree.xtrees import build, grid, kids, match, node, patterns, rewrite


def test_comment_and_nid_are_removed_other_fields_kept() -> None:
    tree = node("order", {"type": "match", "pattern": {"main": [["A"]]}, "nid": "m", "comment": "c",
                          "friendly": "f", "layer": "main"}, comment="root", nid="r")
    compiled = build(tree)
    assert compiled.tree == {"type": "order", "children": [
        {"type": "match", "pattern": {"main": [["A"]]}, "friendly": "f", "layer": "main"}]}


def test_link_expands_the_target_with_the_transforms_at_the_link_site() -> None:
    lib = node("x-prune", node("x-ident", rewrite("A _", "_ A"), nid="step"))
    tree = node("order", lib, node("x-mirror", {"type": "x-link", "target": "step"}))
    assert patterns(kids(build(tree)), "lhs") == [grid("A _"), grid("_ A")]


def test_link_cycle_expands_exactly_once() -> None:
    tree = node("order", match("A"), node("all", match("B"), {"type": "x-link", "target": "loop"}, nid="loop"))
    compiled = build(tree)
    inner = kids(compiled)[1]
    assert [n["type"] for n in inner["children"]] == ["match", "all"]
    assert inner["children"][1]["children"] == [{"type": "match", "pattern": {"main": [["B"]]}}]


def test_first_registration_wins_and_pruned_nodes_stay_linkable() -> None:
    tree = node("order", node("x-prune", match("first", nid="t")), match("second", nid="t"),
                {"type": "x-link", "target": "t"})
    assert patterns(kids(build(tree))) == [grid("second"), grid("first")]


def test_missing_link_is_an_error_or_expands_to_nothing() -> None:
    tree = node("order", match("A"), {"type": "x-link", "target": "nowhere"})
    with pytest.raises(BtreeError, match="nowhere") as info:
        build(tree)
    assert info.value.node_path == "tree/children[1]"
    compiled = build(tree, missing_links="empty")
    assert len(kids(compiled)) == 1 and any("nowhere" in w.message for w in compiled.warnings)
    with pytest.raises(BtreeError, match="missing_links"):
        build(tree, missing_links="maybe")


def _files(files: dict[str, dict], calls: list[str]):
    def resolve(file: str, including: str):
        calls.append(file)
        return (file, files[file]) if file in files else None
    return resolve


def test_x_file_registers_the_file_ids_where_it_is_met_and_local_ids_shadow() -> None:
    included = node("order", match("theirs", nid="gameloop"), match("helper", nid="helper"))
    tree = node("order", match("ours", nid="gameloop"),
                {"type": "x-file", "file": "lib", "target": "gameloop"},
                {"type": "x-file", "file": "lib", "target": "helper"})
    calls: list[str] = []
    compiled = build(tree, resolver=_files({"lib": included}, calls))
    assert patterns(kids(compiled)) == [grid("ours"), grid("ours"), grid("helper")]
    assert compiled.includes == {"lib": included}  # each file registered once
    helper = compiled.nodes.index(kids(compiled)[2])
    assert compiled.origin[helper] == ("lib", "tree/children[1]")
    assert compiled.via[helper] == (("", "tree/children[2]"),)


def test_missing_include_file_is_an_error_or_nothing() -> None:
    tree = node("order", match("A"), {"type": "x-file", "file": "gone", "target": "t"})
    with pytest.raises(BtreeError, match="include file 'gone' not found"):
        build(tree, resolver=_files({}, []))
    assert len(kids(build(tree, missing_links="empty"))) == 1


def test_unroll_inside_replace_is_one_correlated_copy_per_value() -> None:
    unroll = {"type": "x-unroll-replace", "what": "a", "children": [node("player", rewrite("a", "_"), pid="a")]}
    tree = {"type": "x-replace", "what": "a", "withs": ["1", "2"], "children": [unroll]}
    out = kids(build(node("order", tree)))
    assert len(out) == 1 and out[0]["type"] == "order"
    assert [(p["pid"], p["children"][0]["lhs"]["main"]) for p in out[0]["children"]] == [
        ("1", [["1"]]), ("2", [["2"]])]


def test_unroll_uses_its_own_withs_under_identity_and_passes_other_replaces() -> None:
    unroll = {"type": "x-unroll-replace", "what": "a", "withs": ["x", "y"], "children": [match("a b")]}
    other = {"type": "x-replace", "what": "b", "withs": ["1", "2"], "children": [unroll]}
    out = kids(build(node("order", other)))
    assert len(out) == 1  # the x-replace copies dissolve into the order
    assert patterns(out[0]["children"]) == [grid("x 1"), grid("x 2"), grid("y 1"), grid("y 2")]


def test_unroll_without_withs_is_an_error_naming_it() -> None:
    tree = node("order", {"type": "x-unroll-replace", "what": "a", "children": [match("a")]})
    with pytest.raises(BtreeError, match="withs") as info:
        build(tree)
    assert info.value.node_path == "tree/children[0]"


def test_unroll_origin_is_the_unroll_node() -> None:
    tree = node("order", {"type": "x-unroll-replace", "what": "a", "withs": ["1"], "children": [match("a")]})
    compiled = build(tree)
    assert compiled.nodes[1]["type"] == "order"
    assert compiled.origin[1] == ("", "tree/children[0]")
    assert compiled.origin[2] == ("", "tree/children[0]/children[0]")
    assert compiled.via[2] == (("", "tree/children[0]"),)


def test_only_the_first_root_result_is_kept_and_an_empty_root_is_an_error() -> None:
    compiled = build(node("x-mirror", match("A B")))
    assert compiled.tree == match("A B")
    assert any("only the first" in w.message for w in compiled.warnings)
    with pytest.raises(BtreeError, match="compiles to nothing"):
        build(node("x-prune", match("A")))


def test_origins_and_via_follow_links_and_transforms_in_pre_order() -> None:
    ply = node("x-ident", node("player", rewrite("_", "X"), pid="X"), nid="ply")
    swapped = {"type": "x-swap", "what": "X", "with": "O", "children": [{"type": "x-link", "target": "ply"}]}
    compiled = build(node("order", ply, swapped))
    assert [n["type"] for n in compiled.nodes] == ["order", "player", "rewrite", "player", "rewrite"]
    assert compiled.nodes[3]["pid"] == "O"
    assert compiled.origin[3] == compiled.origin[1] == ("", "tree/children[0]/children[0]")
    assert compiled.via[3] == (("", "tree/children[0]"), ("", "tree/children[1]/children[0]"),
                               ("", "tree/children[1]"))  # x-ident, x-link, x-swap: innermost first
    assert compiled.via[1] == (("", "tree/children[0]"),)
    assert compiled.authored[compiled.origin[4]]["type"] == "rewrite"
    assert compiled.index_of(compiled.nodes[4]) == 4


def test_a_game_without_a_tree_is_an_error() -> None:
    with pytest.raises(BtreeError, match="no tree"):
        compile_game(Game(name="x", tree=None))
