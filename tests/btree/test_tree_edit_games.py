"""Random edits of the bundled behaviour-tree games: every edit the editor allows keeps the game
valid, compilable and saveable (spec §11.2)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.engines.btree.editing import pattern_edit as pe
from studio.engines.btree.compiling.checks import check_tree
from studio.engines.btree.editing.node_fields import (
    clear_field,
    fields_of,
    set_field,
    set_fields,
)
from studio.engines.btree.editing.tree_edit import (
    TYPE_ORDER,
    EditError,
    add_child,
    copy_subtree,
    delete_and_reparent,
    delete_children,
    delete_node,
    delete_subtree,
    insert_above,
    insert_below,
    misplaced,
    move,
    new_node,
    node_at,
    paste,
    swap_with_parent,
    walk,
)
from studio.storage import load_project
from studio.storage.btree.kind import body_to_game
from studio.storage.btree.body import nodes_to_tree, tree_to_nodes
from studio.storage.tomlio import dumps, parse_toml

GAMES = Path(__file__).resolve().parents[2] / "games"
BUNDLED = {path.stem: path for path in sorted(GAMES.glob("*.toml")) if load_project(path).kind == "btree"}
TILES = ["A", "_", ".", "X", "🦸", "?"]
VALUES = {
    "text": st.text(alphabet="aXO_ 🦸([|", max_size=5),
    "int": st.one_of(st.integers(-3, 120), st.text(alphabet="0123456789.", max_size=3)),
    "float": st.one_of(st.floats(-1, 120, allow_nan=False), st.sampled_from(["0.5", "2", "x", "inf"])),
    "bool": st.sampled_from([True, False, "yes", "no", "maybe"]),
    "choice": st.sampled_from(["", "up", "left", "action2", "↑", "z", "jump"]),
    "words": st.text(alphabet="ab1 .-", max_size=6),
    "pid": st.one_of(st.text(alphabet="XO1 ", max_size=3), st.integers(0, 3)),
}
GRID_OPS = ["add_row", "remove_row", "add_column", "remove_column", "add_layer", "rename_layer", "remove_layer",
            "move_layer", "resize", "set_tile", "text"]


def test_the_bundled_btree_games_are_all_edited() -> None:
    assert {"tic-tac-toe", "connect-four", "sokoban", "crypt", "eight-puzzle", "peg-solitaire"} <= set(BUNDLED)


def player_rule_holds(tree: dict) -> bool:
    return misplaced(tree) == []


def grid_edit(data, node: dict) -> dict:
    """New values for the node's pattern fields: one grid operation applied to all of them alike
    (so LEFT and RIGHT keep one size), or one tile, or a text of the same size."""
    fields = [name for name in ("pattern", "lhs", "rhs") if name in node]
    op = data.draw(st.sampled_from(GRID_OPS))
    first = node[fields[0]]
    rows, cols = len(next(iter(first.values()))), len(next(iter(first.values()))[0])
    name = data.draw(st.sampled_from([*first, "new"]))
    at, delta = data.draw(st.integers(0, 4)), data.draw(st.sampled_from([-1, 1]))
    if op == "set_tile":
        field = data.draw(st.sampled_from(fields))
        return {field: pe.set_tile(node[field], name, min(at, rows - 1), data.draw(st.integers(0, cols)),
                                   data.draw(st.sampled_from(TILES)))}
    if op == "text":
        field = data.draw(st.sampled_from(fields))
        grid = [[data.draw(st.sampled_from(TILES[:-1])) for _ in range(cols)] for _ in range(rows)]
        return {field: pe.pattern_to_text({**node[field], next(iter(node[field])): grid})}
    calls = {
        "add_row": lambda p: pe.add_row(p, at), "remove_row": lambda p: pe.remove_row(p, at),
        "add_column": lambda p: pe.add_column(p, at), "remove_column": lambda p: pe.remove_column(p, at),
        "add_layer": lambda p: pe.add_layer(p, name), "rename_layer": lambda p: pe.rename_layer(p, name, "z"),
        "remove_layer": lambda p: pe.remove_layer(p, name), "move_layer": lambda p: pe.move_layer(p, name, delta),
        "resize": lambda p: pe.resize(p, at + 1, delta + 2),
    }
    return {field: calls[op](node[field]) for field in fields}


def random_edit(data, tree: dict) -> tuple[dict, tuple]:
    paths = [path for path, _ in walk(tree)]
    path = data.draw(st.sampled_from(paths))
    node = node_at(tree, path)
    kind = data.draw(st.sampled_from(["add", "above", "below", "move", "swap", "delete_node", "delete_subtree",
                                      "delete_children", "reparent", "paste", "field", "field", "grid", "grid"]))
    new_type = data.draw(st.sampled_from(TYPE_ORDER))
    if kind == "add":
        return add_child(tree, path, new_node(new_type), first=data.draw(st.booleans()))
    if kind == "above":
        return insert_above(tree, path, new_node(new_type))
    if kind == "below":
        return insert_below(tree, path, new_node(new_type))
    if kind == "move":
        return move(tree, path, data.draw(st.sampled_from([-2, -1, 1, 2])))
    if kind == "paste":
        clip = copy_subtree(tree, data.draw(st.sampled_from(paths)))
        return paste(tree, path, clip, data.draw(st.sampled_from(["first", "last", "before", "after"])))
    if kind == "field":
        specs = [spec for spec in fields_of(node["type"]) if spec.kind != "pattern"]
        spec = data.draw(st.sampled_from(specs))
        if data.draw(st.integers(0, 4)) == 0:
            return clear_field(tree, path, spec.name), path
        return set_field(tree, path, spec.name, data.draw(VALUES[spec.kind])), path
    if kind == "grid":
        if not any(name in node for name in ("pattern", "lhs", "rhs")):
            raise EditError("no pattern")
        return set_fields(tree, path, grid_edit(data, node)), path
    ops = {"swap": swap_with_parent, "delete_node": delete_node, "delete_subtree": delete_subtree,
           "delete_children": delete_children, "reparent": delete_and_reparent}
    return ops[kind](tree, path)


@pytest.mark.parametrize("name", sorted(BUNDLED))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_allowed_edits_keep_bundled_games_valid_and_saveable(name: str, data) -> None:
    project = load_project(BUNDLED[name])
    original = body_to_game(project.body, project.name).tree
    pristine = copy.deepcopy(original)
    assert player_rule_holds(original)
    tree, applied = original, 0
    for _ in range(data.draw(st.integers(1, 25))):
        snapshot = copy.deepcopy(tree)
        try:
            new, selection = random_edit(data, tree)
        except EditError as exc:
            assert exc.message and tree == snapshot
            continue
        applied += 1
        assert tree == snapshot  # the previous version is intact (the editor's undo keeps it)
        check_tree(new)
        assert player_rule_holds(new)
        node_at(new, selection)
        ids = [id(node) for _, node in walk(new)]
        assert len(ids) == len(set(ids))  # no node object sits twice in one tree
        tree = new
    assert original == pristine
    text = dumps({"node": tree_to_nodes(tree)})
    assert nodes_to_tree(parse_toml(text)["node"]) == tree
    assert nodes_to_tree(tree_to_nodes(tree)) == tree
