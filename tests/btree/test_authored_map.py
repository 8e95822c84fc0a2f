"""Compiled ⇄ authored paths (spec §5 origin map) on the bundled tic-tac-toe and an include."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.engines.btree import Game, compile_game
from studio.engines.btree.editing.authored import (
    authored_path_of, compiled_ids_of, ids_by_path, via_paths,
)
from studio.engines.btree.editing.tree_edit import move, node_at, walk
from studio.storage import load_project
from studio.storage.btree.kind import body_to_game

GAMES = Path(__file__).resolve().parents[2] / "games"


@pytest.fixture(scope="module")
def ttt():
    project = load_project(GAMES / "tic-tac-toe.toml")
    game = body_to_game(project.body, project.name)
    return game, compile_game(game)


def test_the_tic_tac_toe_tree_is_the_one_these_tests_expect(ttt) -> None:
    game, _ = ttt
    assert [node_at(game.tree, p)["type"] for p in [(1, 0), (1, 0, 0), (1, 0, 1, 0), (1, 0, 1, 0, 0), (1, 1),
                                                      (1, 1, 0)]] == ["x-ident", "player", "x-rotate", "x-skew",
                                                                      "x-swap", "x-link"]


def test_compiled_ids_of_authored_nodes(ttt) -> None:
    _, compiled = ttt
    assert compiled_ids_of(compiled, ()) == [0]
    assert compiled_ids_of(compiled, (0,)) == [1]
    assert compiled_ids_of(compiled, (1, 0, 0)) == [3, 12]  # player X, and player O through the swapped link
    assert compiled_ids_of(compiled, (1, 0, 0, 0)) == [4, 13]
    # one match, rotated and skewed into rows, columns and diagonals, for X then for O
    assert compiled_ids_of(compiled, (1, 0, 1, 0, 0, 0)) == [6, 7, 8, 9, 15, 16, 17, 18]
    for transform in [(1, 0), (1, 0, 1, 0), (1, 0, 1, 0, 0), (1, 1), (1, 1, 0)]:
        assert compiled_ids_of(compiled, transform) == []  # transforms and links leave no node
    assert compiled_ids_of(compiled, (7, 7)) == []
    assert [compiled.nodes[i]["pid"] for i in compiled_ids_of(compiled, (1, 0, 0))] == ["X", "O"]


def test_authored_path_of_every_compiled_node(ttt) -> None:
    game, compiled = ttt
    for i, node in enumerate(compiled.nodes):
        path = authored_path_of(compiled, i)
        assert path is not None and i in compiled_ids_of(compiled, path)
        assert node_at(game.tree, path)["type"] == node["type"]
    assert authored_path_of(compiled, 12) == (1, 0, 0)
    with pytest.raises(IndexError):
        authored_path_of(compiled, len(compiled.nodes))


def test_via_chains_as_paths(ttt) -> None:
    _, compiled = ttt
    assert via_paths(compiled, 0) == []
    assert via_paths(compiled, 3) == [(1, 0)]  # player X: inside the x-ident
    assert via_paths(compiled, 12) == [(1, 0), (1, 1, 0), (1, 1)]  # player O: ident, link, swap (innermost first)
    assert via_paths(compiled, 15) == [(1, 0, 1, 0, 0), (1, 0, 1, 0), (1, 0), (1, 1, 0), (1, 1)]


def test_ids_by_path_agrees_with_compiled_ids_of(ttt) -> None:
    game, compiled = ttt
    table = ids_by_path(compiled)
    for path, _ in walk(game.tree):
        assert table.get(path, []) == compiled_ids_of(compiled, path)
    assert sum(len(ids) for ids in table.values()) == len(compiled.nodes)


def test_the_map_follows_an_edit(ttt) -> None:
    game, _ = ttt
    tree, _ = move(game.tree, (1, 0, 2), -2)  # the draw before the player
    compiled = compile_game(Game(name="t", tree=tree))
    assert [compiled.nodes[i]["type"] for i in compiled_ids_of(compiled, (1, 0, 0))] == ["draw", "draw"]
    assert [compiled.nodes[i]["type"] for i in compiled_ids_of(compiled, (1, 0, 1))] == ["player", "player"]


def test_nodes_from_an_included_file_have_no_authored_path() -> None:
    root = {"type": "order", "children": [{"type": "x-file", "file": "lib", "target": "show"}]}
    library = {"type": "x-prune", "children": [{"type": "display-board", "nid": "show"}]}
    compiled = compile_game(Game(name="t", tree=root), resolver=lambda file, key: ("lib", library))
    assert [n["type"] for n in compiled.nodes] == ["order", "display-board"]
    assert compiled.origin[1] == ("lib", "tree/children[0]")
    assert authored_path_of(compiled, 1) is None
    assert via_paths(compiled, 1) == [(0,)]  # the x-file of the top-level tree
    assert compiled_ids_of(compiled, (0,)) == [] and ids_by_path(compiled) == {(): [0]}
