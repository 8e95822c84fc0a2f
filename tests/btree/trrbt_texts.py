"""Small trrbt games as their files hold them, for the tests of trrbt files in the studio."""

TTT_YAML = """\
---
name: tiny tic-tac-toe
tree:
  type: order
  children:
  - type: set-board
    pattern: |
      _ _ _;
      _ _ _;
      _ _ _;
  - type: loop-until-all
    children:
    - type: player
      pid: X
      children:
      - type: rewrite
        lhs: _
        rhs: X
    - type: win
      pid: X
      children:
      - type: match
        pattern: X X X
"""

TTT_JSON = """{
  "name": "json game",
  "sprites": null,
  "tree": {"type": "order", "children": [
    {"type": "set-board", "pattern": {"main": [["_", "_"]]}},
    {"type": "player", "pid": "A", "children": [
      {"type": "rewrite", "lhs": {"main": [["_"]]}, "rhs": {"main": [["A"]]}}]}]}
}
"""
