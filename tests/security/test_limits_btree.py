"""The limits of behaviour-tree games at their edges: YAML nesting and aliases, tree depth, in
trrbt files (YAML, JSON) and in btree projects, whose flat ``[[node]]`` tables hide the depth.
"""

from __future__ import annotations

import json
import signal
import time

import pytest

from studio.engines.btree import BtreeError
from studio.engines.btree.model.reshape import check_tree_depth, parse_json_game, parse_yaml_game
from studio.engines.btree.model.yaml_bounds import check_yaml_bounds
from studio.engines.btree.compiling.compiler import compile_game
from studio.engines.common.limits import (MAX_COMPILED_NODES, MAX_NESTING, MAX_TREE_DEPTH,
                                          MAX_YAML_NODES)
from studio.storage import ProjectError

HEADER = '[project]\nkind = "btree"\nname = "Edge"\nformat = 1\n'


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_yaml_nested_past_the_limit_is_refused_before_it_is_built() -> None:
    flow = "name: x\ntree: {type: order, children: " + nested(MAX_NESTING + 1) + "}\n"
    with pytest.raises(BtreeError, match=f"nest more than {MAX_NESTING} deep"):
        parse_yaml_game(flow)


def test_yaml_aliases_count_as_what_they_expand_to() -> None:
    fine = "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
    check_yaml_bounds(fine, nodes=100)  # 4 + 4 + 3 × 4 + 2 values
    with pytest.raises(BtreeError, match="more than 17 values once its aliases"):
        check_yaml_bounds(fine, nodes=17)
    laughs = "a: &a [" + ",".join(["x"] * 10) + "]\n"
    for level in "bcdefg":
        laughs += f"{level}: &{level} [" + ",".join([f"*{chr(ord(level) - 1)}"] * 10) + "]\n"
    with pytest.raises(BtreeError, match=f"more than {MAX_YAML_NODES:,} values"):
        check_yaml_bounds(laughs)  # 10^7 values from 400 bytes


def test_an_alias_inside_what_it_names_is_refused() -> None:
    with pytest.raises(BtreeError, match="inside the value it names"):
        parse_yaml_game("name: x\ntree: &t {type: order, children: [*t]}\n")


def test_trees_deeper_than_the_limit_are_refused_naming_the_node() -> None:
    def chain(depth: int) -> dict:
        node: dict = {"type": "display-board"}
        for _ in range(depth - 1):
            node = {"type": "order", "children": [node]}
        return node

    check_tree_depth(chain(MAX_TREE_DEPTH))
    with pytest.raises(BtreeError, match=f"nodes nest more than {MAX_TREE_DEPTH} deep") as error:
        check_tree_depth(chain(MAX_TREE_DEPTH + 1))
    assert error.value.node_path.startswith("tree/children[0]/children[0]")
    with pytest.raises(BtreeError, match="nest more than"):
        parse_json_game(json.dumps({"name": "x", "tree": chain(MAX_TREE_DEPTH + 1)}))


def test_a_flat_btree_project_cannot_hide_a_deep_tree() -> None:
    from studio.storage import loads_project

    def project(depth: int) -> str:
        nodes = "".join(f"\n[[node]]\nat = {[0] * level}\ntype = \"order\"\n"
                        for level in range(depth - 1))
        return HEADER + nodes + f"\n[[node]]\nat = {[0] * (depth - 1)}\ntype = \"display-board\"\n"

    assert loads_project(project(MAX_TREE_DEPTH)).body["node"]
    with pytest.raises(ProjectError, match=f"nodes nest more than {MAX_TREE_DEPTH} deep") as error:
        loads_project(project(MAX_TREE_DEPTH + 1))
    assert error.value.field_path == ("node", MAX_TREE_DEPTH, "at")


# ----------------------------------------------------------------- compile-time expansion


def link_bomb(levels: int, fan: int = 10) -> str:
    """A trrbt game of a few KB whose links expand to ``fan ** levels`` leaves: each level is an
    ``order`` of ``fan`` links to the next (a link to a sibling, not an ancestor, expands anew)."""
    nodes = [{"type": "display-board", "nid": f"L{levels}"}]
    for k in range(levels - 1, -1, -1):
        nodes.append({"type": "order", "nid": f"L{k}",
                      "children": [{"type": "x-link", "target": f"L{k + 1}"}] * fan})
    tree = {"type": "order", "children": [nodes[-1], {"type": "x-prune", "children": nodes[:-1]}]}
    return json.dumps({"name": "bomb", "tree": tree})


def replace_bomb(levels: int, fan: int = 10) -> str:
    """Nested ``x-replace`` nodes, each giving ``fan`` different pids to the leaf inside."""
    node: dict = {"type": "player", "pid": "".join(f"v{k}" for k in range(levels)),
                  "children": [{"type": "display-board"}]}
    for k in range(levels):
        node = {"type": "x-replace", "what": f"v{k}", "withs": [str(n) for n in range(fan)],
                "children": [node]}
    return json.dumps({"name": "bomb", "tree": {"type": "order", "children": [node]}})


@pytest.fixture
def alarm():
    """A bomb that gets through compiles for minutes: end the test as a failure instead."""
    def late(_signum, _frame):
        raise TimeoutError("compiling went on for 20 s")

    previous = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, 20)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("bomb", [link_bomb, replace_bomb])
@pytest.mark.parametrize("levels", [5, 9])
def test_a_tree_that_expands_past_the_budget_is_refused_naming_the_file(alarm, bomb,
                                                                        levels: int) -> None:
    started = time.monotonic()
    with pytest.raises(BtreeError, match=f"more than {MAX_COMPILED_NODES:,} nodes") as error:
        compile_game(parse_json_game(bomb(levels), "bomb.json"), file="bomb.json")
    assert "bomb.json" in str(error.value)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("bomb", [link_bomb, replace_bomb])
def test_a_tree_within_the_budget_compiles(bomb) -> None:
    compiled = compile_game(parse_json_game(bomb(3), "fine.json"), file="fine.json")
    assert 1000 < len(compiled.nodes) <= MAX_COMPILED_NODES
