"""trrbt YAML reading and pattern reshaping (spec §4.1)."""

from __future__ import annotations

import pytest

from studio.engines.btree import BtreeError, parse_json_game, parse_yaml_game
from studio.engines.btree.model.reshape import text_to_grid


def test_rows_split_at_semicolons_tiles_at_whitespace_blank_rows_dropped_short_rows_padded() -> None:
    assert text_to_grid("A B C;\n  D ;;  ; E\tF ;") == [["A", "B", "C"], ["D", ".", "."], ["E", "F", "."]]
    assert text_to_grid("") == []


YAML = """\
name: mini
start:
tree:
  type: order
  comment: root
  children:
  - type: set-board
    pattern:
      main: "X X;
             X P;"
      goal: [[".", "G"], [".", "."]]
  - type: rewrite
    layer: goal
    lhs: G
    rhs: _
  - type: rewrite-all
    lhs: A _
    rhs: _ A
  - type: player
    pid: 1
    children: []
  - type: x-replace
    what: a
    withs: [1, "2"]
    children: []
  - type: layer-template
    layer: goal
    with: _
"""


def test_yaml_game_is_reshaped_and_scalars_keep_their_types() -> None:
    game = parse_yaml_game(YAML)
    assert game.name == "mini" and game.sprites is None
    root = game.tree
    assert root["comment"] == "root"
    board, rewrite, rewrite_all, player, replace, template = root["children"]
    assert board["pattern"] == {"main": [["X", "X"], ["X", "P"]], "goal": [[".", "G"], [".", "."]]}
    assert rewrite["lhs"] == {"goal": [["G"]]} and rewrite["layer"] == "goal"
    assert rewrite_all["lhs"] == {"main": [["A", "_"]]}  # Decision 6: rewrite-all is reshaped too
    assert player["pid"] == 1 and replace["withs"] == [1, "2"]
    assert template == {"type": "layer-template", "layer": "goal", "with": "_"}  # not reshaped


def test_a_bare_grid_is_accepted_as_a_one_layer_pattern() -> None:
    game = parse_yaml_game("name: g\ntree: {type: match, pattern: [[A, B]]}\n")
    assert game.tree["pattern"] == {"main": [["A", "B"]]}


def test_an_unquoted_number_pattern_is_an_error_naming_the_node() -> None:
    text = "name: g\ntree:\n  type: order\n  children:\n  - {type: match, pattern: 5, nid: five}\n"
    with pytest.raises(BtreeError, match="pattern must be a pattern") as info:
        parse_yaml_game(text)
    assert info.value.node_path == "tree/children[0]" and info.value.nid == "five"
    assert "quote" in info.value.hint


def test_yaml_syntax_errors_are_located() -> None:
    text = "name: g\ntree:\n  type: set-board\n  pattern: A B;\n# comment inside\n           C D;\n"
    with pytest.raises(BtreeError, match="YAML syntax error at line"):
        parse_yaml_game(text)


def test_not_a_game() -> None:
    with pytest.raises(BtreeError, match="not a trrbt game"):
        parse_yaml_game("- just\n- a list\n")
    with pytest.raises(BtreeError, match="JSON syntax error at line 1"):
        parse_json_game("{nope")
    assert parse_yaml_game("name: empty\n").tree is None
