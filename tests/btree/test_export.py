"""trrbt JSON export (spec §4.2): layout, escapes, dispid, number types, round trips."""

from __future__ import annotations

import json

from studio.engines.btree import Game, export_json, parse_json_game, parse_yaml_game

GAME = Game(
    name="émoji",
    sprites={"tiles": {"X": None}, "players": {"1": [255, 0, 0]}},
    tree={"children": [
        {"type": "set-board", "dispid": 4, "pattern": {"main": [["🦸", "_"], ["X", ""]]}},
        {"type": "loop-times", "times": 3, "children": []},
        {"type": "display-board", "delay": 0.5, "friendly": "", "comment": ""},
    ], "type": "order", "dispid": 1},
)

EXPECTED = """\
{
  "name": "\\u00e9moji",
  "sprites": {
    "tiles": {
      "X": null
    },
    "players": {
      "1": [255, 0, 0]
    }
  },
  "tree": {
    "children": [
      {
        "type": "set-board",
        "pattern": {
          "main": [
            ["\\ud83e\\uddb8", "_"],
            ["X", ""]
          ]
        }
      },
      {
        "type": "loop-times",
        "times": 3,
        "children": []
      },
      {
        "type": "display-board",
        "delay": 0.5,
        "friendly": "",
        "comment": ""
      }
    ],
    "type": "order"
  }
}
"""


def test_layout_escapes_and_dropped_dispids() -> None:
    assert export_json(GAME) == EXPECTED


def test_round_trip_is_stable_and_keeps_number_types() -> None:
    text = export_json(GAME)
    again = parse_json_game(text)
    assert export_json(again) == text
    loop = again.tree["children"][1]
    assert type(loop["times"]) is int and type(again.tree["children"][2]["delay"]) is float
    assert list(again.tree) == ["children", "type"]  # key order kept
    assert json.loads(text)["tree"]["children"][0]["pattern"]["main"][0][0] == "🦸"


def test_yaml_game_exports_with_reshaped_patterns_and_a_compiled_tree_can_be_written() -> None:
    game = parse_yaml_game("name: y\ntree: {type: match, pattern: 'A B; C'}\n")
    assert json.loads(export_json(game))["tree"]["pattern"] == {"main": [["A", "B"], ["C", "."]]}
    written = export_json(game, {"type": "order", "children": []})
    assert json.loads(written) == {"name": "y", "sprites": None, "tree": {"type": "order", "children": []}}
