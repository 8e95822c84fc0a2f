"""``studio new-ai NAME [--js] [-o FILE]``: write a commented starter AI for Haunted Tiles."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from studio.commands import command
from studio.storage import ProjectError

PYTHON_STARTER = '''"""{name}: a Haunted Tiles AI (created with `studio new-ai`).

Play it with:  studio match {file} builtin:greedy

The studio calls ``main(game_state, side)`` once per turn, in a sandboxed worker process that is
started for each round: module-level variables last for one round. ``print`` output shows in the
match log. Answer within the time limit (2 s by default) or the round is lost.

``game_state`` (your own copy; rows first, ``tileStates[row][col]``; north is row - 1)::

    {{
      "boardSize": [7, 7],
      "tileStates": [[3, 3, 3, 3, 3, 3, 3], ...],   # 3 good, 2 warning, 1 danger, 0 broken
      "teamStates": {{
        "home": [{{"coord": [0, 0], "isDead": False}}, ...],   # always 3 monsters, [row, col]
        "away": [{{"coord": [6, 0], "isDead": False}}, ...]
      }}
    }}

``side`` is "home" or "away". Return a list of three moves, one per monster in order (entries for
dead monsters are ignored): "north", "south", "east", "west" or "none" (jump in place). Every move
hits a tile: a jump hits your own tile, a step the tile you land on; a tile that reaches 0 breaks
and whoever stands on it falls. Stepping off the board is falling too.
"""

import random  # seeded by the studio for every round: same seed, same game

STEPS = {{"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1), "none": (0, 0)}}


def main(game_state, side):
    """Each living monster steps to the strongest tile next to it (or stays)."""
    rows, cols = game_state["boardSize"]
    tiles = game_state["tileStates"]
    moves = []
    for monster in game_state["teamStates"][side]:
        if monster["isDead"]:
            moves.append("none")
            continue
        row, col = monster["coord"]
        best, best_strength = "none", -1
        for move, (dr, dc) in STEPS.items():
            r, c = row + dr, col + dc
            if 0 <= r < rows and 0 <= c < cols:
                # A jump leaves the own tile one weaker; a step weakens the destination.
                strength = tiles[r][c] - 1
                if strength > best_strength or (strength == best_strength and random.random() < 0.5):
                    best, best_strength = move, strength
        moves.append(best)
    return moves
'''

JS_STARTER = '''// {name}: a Haunted Tiles AI in JavaScript (created with `studio new-ai --js`).
//
// Play it with:  studio match {file} builtin:greedy     (needs: pip install 'studio[js]')
//
// The studio calls main(gameState, side) once per turn in a fresh V8 context per round: global
// variables last for one round. console.log output shows in the match log. You may return a
// Promise (setTimeout works); answer within the time limit (2 s by default) or lose the round.
//
// gameState (rows first, tileStates[row][col]; north is row - 1):
//   {{ boardSize: [7, 7],
//     tileStates: [[3, 3, 3, 3, 3, 3, 3], ...],        // 3 good, 2 warning, 1 danger, 0 broken
//     teamStates: {{ home: [{{ coord: [0, 0], isDead: false }}, ...],   // always 3, [row, col]
//                   away: [{{ coord: [6, 0], isDead: false }}, ...] }} }}
// side is "home" or "away". Return three moves, one per monster in order (dead ones ignored):
// "north", "south", "east", "west" or "none" (jump in place). Every move hits a tile; a tile
// that reaches 0 breaks and whoever stands on it falls. Stepping off the board is falling too.

var STEPS = {{ north: [-1, 0], south: [1, 0], east: [0, 1], west: [0, -1], none: [0, 0] }};

function main(gameState, side) {{
  var rows = gameState.boardSize[0], cols = gameState.boardSize[1];
  var tiles = gameState.tileStates;
  return gameState.teamStates[side].map(function (monster) {{
    if (monster.isDead) return "none";
    var best = "none", bestStrength = -1;
    Object.keys(STEPS).forEach(function (move) {{
      var r = monster.coord[0] + STEPS[move][0], c = monster.coord[1] + STEPS[move][1];
      if (r < 0 || r >= rows || c < 0 || c >= cols) return;
      // A jump leaves the own tile one weaker; a step weakens the destination.
      var strength = tiles[r][c] - 1;
      if (strength > bestStrength || (strength === bestStrength && Math.random() < 0.5)) {{
        best = move; bestStrength = strength;
      }}
    }});
    return best;
  }});
}}
'''


def starter_text(name: str, file_name: str, js: bool) -> str:
    """The starter AI's source for ``name`` (shown in its header), to be saved as ``file_name``."""
    return (JS_STARTER if js else PYTHON_STARTER).format(name=name, file=file_name)


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="the AI's name (also the file name unless -o is given)")
    parser.add_argument("--js", action="store_true", help="write JavaScript instead of Python")
    parser.add_argument("-o", "--output", metavar="FILE", help="where to write (default NAME.py/.js)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")


@command("new-ai", "write a commented starter Haunted Tiles AI (Python, or JavaScript with --js)",
         _arguments)
def _new_ai(args: argparse.Namespace) -> int:
    suffix = ".js" if args.js else ".py"
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", args.name).strip("_") or "my_ai"
    target = Path(args.output) if args.output else Path(stem + suffix)
    if target.exists() and not args.force:
        raise ProjectError("the file exists", file=target, hint="choose another name or add --force")
    try:
        target.write_text(starter_text(args.name, target.name, args.js), encoding="utf-8")
    except OSError as exc:
        raise ProjectError(f"cannot write: {exc.strerror or exc}", file=target) from None
    print(f"wrote {target}; try it: studio match {target} builtin:greedy", file=sys.stderr)
    return 0
