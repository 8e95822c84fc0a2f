"""One line on what each node type does, for the node type list (issue 29: "``?`` lists keys,
not ideas"). Written for a newcomer choosing a type; btree.md §3.2 and §6 are the exact rules."""

from __future__ import annotations

NOTES: dict[str, str] = {
    "order": "runs every child in turn; true if any child was true",
    "all": "runs children until one is false (then false); true if none was: an 'if'",
    "none": "runs children until one is true (then false); true if none was: a 'not'",
    "random-try": "tries the children in a random order until one is true",
    "loop-until-all": "runs all children again and again until a pass where none was true",
    "loop-times": "runs all children the given number of times",
    "player": "offers the matches of its rewrite children as moves; the chosen one is made",
    "win": "runs children until one is true, and then that player wins",
    "lose": "runs children until one is true, and then that player loses",
    "draw": "runs children until one is true, and then the game is a draw",
    "match": "true where the pattern is found on the board",
    "match-times": "true when the pattern is found exactly that many times",
    "rewrite": "replaces one match of its left side, chosen at random, by its right side",
    "rewrite-all": "replaces as many matches of its left side as it can, in random order",
    "set-board": "puts a whole new board in place",
    "layer-template": "adds a layer shaped like the board, filled with one tile",
    "append-rows": "grows the board by these rows at the bottom",
    "append-columns": "grows the board by these columns on the right",
    "display-board": "pauses so the board can be seen (delay in seconds)",
    "x-ident": "groups its children (gone once compiled; a place for a name to link to)",
    "x-prune": "leaves its children out of the game (kept in the file; linkable)",
    "x-mirror": "adds a copy of its children with the patterns mirrored top to bottom",
    "x-flip": "adds a copy of its children with the patterns mirrored left to right",
    "x-skew": "adds a copy of its children with the patterns slanted",
    "x-rotate": "adds a copy of its children with the patterns turned a quarter",
    "x-spin": "adds copies of its children turned to all four directions",
    "x-swap": "adds a copy of its children with two tiles (or players) swapped",
    "x-replace": "copies its children once for each text that replaces 'what' in them",
    "x-unroll-replace": "copies its whole subtree once per replacement, in order",
    "x-link": "a copy of the subtree whose nid it names",
    "x-file": "a copy of a subtree from another game file",
}


def note(node_type: str) -> str:
    """The line for ``node_type`` ("" for a type without one)."""
    return NOTES.get(node_type, "")
