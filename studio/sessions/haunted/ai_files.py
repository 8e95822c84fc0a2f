"""Writing AI source files for Haunted Tiles: the documented starters (haunted.md §4.3) and the
code of an imported team list (§4.4).

``studio new-ai`` and the Teams & AIs screen's "new from template" both write the starters, so the
text lives here, below both. New files are created exclusively: an existing file is never
overwritten.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_AI_SOURCE_BYTES, MAX_TEAMS_CSV_BYTES
from studio.engines.haunted.map_edit import unique_name
from studio.storage import served
from studio.storage.atomic import atomic_write
from studio.storage.errors import ProjectError
from studio.storage.haunted.teams_csv import teams_from_csv
from studio.storage.reading import decode_text, read_bounded

AI_FOLDER = "ais"
"""Where new AI files go, beside the project file."""

PYTHON_STARTER = '''"""{name}
A Haunted Tiles AI, from the studio's starter template.

Play it with:  studio match {file} builtin:greedy

The studio calls ``main(game_state, side)`` once per turn, in a
sandboxed worker process started for each round: module-level
variables last for one round. ``print`` output shows in the match log.
Answer within the time limit (2 s by default) or the round is lost.

``game_state`` (your own copy; rows first, ``tileStates[row][col]``;
north is row - 1)::

    {{
      "boardSize": [7, 7],
      # 3 good, 2 warning, 1 danger, 0 broken:
      "tileStates": [[3, 3, 3, 3, 3, 3, 3], ...],
      "teamStates": {{  # always 3 monsters a team; coord is [row, col]
        "home": [{{"coord": [0, 0], "isDead": False}}, ...],
        "away": [{{"coord": [6, 0], "isDead": False}}, ...]
      }}
    }}

``side`` is "home" or "away". Return a list of three moves, one per
monster in order (entries for dead monsters are ignored): "north",
"south", "east", "west" or "none" (jump in place). Every move hits a
tile: a jump hits your own tile, a step the tile you land on; a tile
that reaches 0 breaks and whoever stands on it falls. Stepping off the
board is falling too.
"""

import random  # seeded by the studio each round: same seed, same game

STEPS = {{"north": (-1, 0), "south": (1, 0), "east": (0, 1),
         "west": (0, -1), "none": (0, 0)}}


def main(game_state, side):
    """Each living monster steps to the strongest tile beside it."""
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
                # A jump weakens the own tile, a step the next one.
                strength = tiles[r][c] - 1
                better = strength > best_strength
                if strength == best_strength:
                    better = random.random() < 0.5  # a tie: either
                if better:
                    best, best_strength = move, strength
        moves.append(best)
    return moves
'''

JS_STARTER = '''// {name}
// A Haunted Tiles AI in JavaScript, from the studio's starter.
//
// Play it with:  studio match {file} builtin:greedy
// (JavaScript AIs need the studio's js extra:
//  pip install 'tilegame-studio[js]')
//
// The studio calls main(gameState, side) once per turn, in a fresh
// V8 context each round: global variables last for one round.
// console.log output shows in the match log. You may return a Promise
// (setTimeout works); answer within the time limit (2 s by default)
// or lose the round.
//
// gameState (rows first, tileStates[row][col]; north is row - 1):
//   {{ boardSize: [7, 7],
//     // 3 good, 2 warning, 1 danger, 0 broken:
//     tileStates: [[3, 3, 3, 3, 3, 3, 3], ...],
//     // always 3 monsters a team; coord is [row, col]:
//     teamStates: {{ home: [{{ coord: [0, 0], isDead: false }}, ...],
//                   away: [{{ coord: [6, 0], isDead: false }}, ...] }} }}
// side is "home" or "away". Return three moves, one per monster in
// order (dead ones ignored): "north", "south", "east", "west" or
// "none" (jump in place). Every move hits a tile; a tile that reaches
// 0 breaks and whoever stands on it falls. Stepping off the board is
// a fall too.

var STEPS = {{ north: [-1, 0], south: [1, 0], east: [0, 1],
              west: [0, -1], none: [0, 0] }};

function main(gameState, side) {{
  var rows = gameState.boardSize[0], cols = gameState.boardSize[1];
  var tiles = gameState.tileStates;
  return gameState.teamStates[side].map(function (monster) {{
    if (monster.isDead) return "none";
    var best = "none", bestStrength = -1;
    Object.keys(STEPS).forEach(function (move) {{
      var r = monster.coord[0] + STEPS[move][0];
      var c = monster.coord[1] + STEPS[move][1];
      if (r < 0 || r >= rows || c < 0 || c >= cols) return;
      // A jump weakens the own tile, a step the next one.
      var strength = tiles[r][c] - 1;
      if (strength > bestStrength ||
          (strength === bestStrength && Math.random() < 0.5)) {{
        best = move; bestStrength = strength;
      }}
    }});
    return best;
  }});
}}
'''

TEMPLATE_WIDTH = 70
"""The starters' longest line: the AI editor shows them whole at 80 columns, beside its line
numbers (the name and file path filled in may go further)."""


def starter_text(name: str, file_name: str, js: bool) -> str:
    """The starter AI's source for ``name`` (shown in its header), to be saved as ``file_name``."""
    return (JS_STARTER if js else PYTHON_STARTER).format(name=name, file=file_name)


def ai_stem(name: str) -> str:
    """A file-name stem for an AI's name: letters, digits, ``_`` and ``-`` only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_") or "my_ai"


def create_ai_file(folder: Path, stem: str, suffix: str, text: Callable[[Path], str]) -> Path:
    """Write a new file ``ais/STEM.SUFFIX`` under ``folder`` (``STEM-2`` … when that is taken).

    Args:
        folder: the project's folder.
        stem: the file name without suffix.
        suffix: ``.py`` or ``.js``.
        text: the content for the relative path it is written to (a starter names its file).

    Returns:
        The file's path relative to ``folder`` (as a ``[[team]]`` source names it).

    Raises:
        ProjectError: the folder or the file cannot be written.
    """
    target = Path(AI_FOLDER) / f"{stem}{suffix}"
    number = 2
    try:
        served.make_folder(folder / AI_FOLDER, parents=False)
        while True:
            try:
                # O_EXCL creates or fails: a file appearing between a check and the write is kept.
                fd = served.open_file(folder / target, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                                      | os.O_CLOEXEC, what="the new AI file")
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    file.write(text(target))
                return target
            except FileExistsError:
                target = Path(AI_FOLDER) / f"{stem}-{number}{suffix}"
                number += 1
    except OSError as exc:
        raise ProjectError(f"cannot write: {exc.strerror or exc}", file=folder / target) from None


def read_ai_source(path: Path) -> bytes | None:
    """An AI file's bytes, None when there is no such file (the editor then creates it).

    Raises:
        ProjectError: not a regular file (a FIFO would hang the editor, /dev/zero fill the
            memory), larger than :data:`~studio.engines.common.limits.MAX_AI_SOURCE_BYTES`, or
            unreadable.
    """
    if not os.path.exists(path):
        return None
    return read_bounded(Path(path), MAX_AI_SOURCE_BYTES, "an AI file")


def export_copy(folder: Path, text: str, data: bytes) -> Path:
    """Write ``data`` as a new file named ``text`` (relative to ``folder``), never over a file.

    Raises:
        ProjectError: no name, the file exists, it cannot be written, or (served) it is outside
            the served folder; nothing is written then.
    """
    text = text.strip()
    if not text:
        raise ProjectError("give a file name")
    target = folder / Path(text)  # never expanduser: "~" is a name in the folder, not a home
    served.inside(target, "the export", write=True, shown=text)
    try:
        served.make_folder(target.parent)
        atomic_write(target, data, backup=False, exclusive=True)
    except FileExistsError:
        raise ProjectError("that file exists: choose another name", file=target) from None
    except OSError as exc:
        raise ProjectError(f"cannot write: {exc.strerror or exc}", file=target) from None
    return target


def write_starter(folder: Path, name: str, js: bool = False) -> Path:
    """Write the starter AI for ``name`` under ``folder/ais``; returns its relative path."""
    return create_ai_file(folder, ai_stem(name), ".js" if js else ".py",
                          lambda target: starter_text(name, target.as_posix(), js))


URL_STUB = '''// {team}: imported from the original team list. Its code is hosted at
//   {url}
// and was not downloaded (the studio never fetches code by itself). Paste the script here.

function main(gameState, side) {{
  throw new Error({message});
}}
'''


@dataclass(frozen=True)
class TeamImport:
    """What importing a team list added."""

    tables: list[dict[str, Any]]
    """New ``[[team]]`` tables, in registration order."""
    files: list[Path]
    """The code files written (relative to the project folder)."""
    notes: list[str]
    """What to look at: hosted code not downloaded, monsters replaced, renamed teams."""


def import_team_list(path: Path, folder: Path, taken: set[str]) -> TeamImport:
    """Read the original team-list CSV at ``path``; write each team's code under ``ais/``.

    Args:
        path: the CSV file.
        folder: the project's folder (the code files go to its ``ais/``; none is overwritten).
        taken: the registry's team names (clashes get "Name (2)").

    Raises:
        ProjectError: the file cannot be read or is not a team list; nothing is written then.
    """
    try:
        text = decode_text(read_bounded(Path(path), MAX_TEAMS_CSV_BYTES, "a team list"),
                           Path(path), "the file")
    except ProjectError as exc:
        exc.message = f"cannot read the team list: {exc.message}"
        exc.args = (exc.message,)
        raise
    try:
        rows = teams_from_csv(text)
    except ProjectError as exc:
        exc.file = Path(path)
        raise
    taken = set(taken)
    tables, files, notes = [], [], []
    for row in rows:
        name = unique_name(row.team, taken)
        taken.add(name)
        if name != row.team:
            notes.append(f"{row.team!r} is already a team: added as {name!r}")
        if row.url:
            notes.append(f"{name}: code hosted at {row.url}, not downloaded")
        code = row.code
        if row.url:
            message = json.dumps(f"not downloaded yet: {row.url}")
            code = URL_STUB.format(team=row.team, url=row.url, message=message)
        source = create_ai_file(folder, ai_stem(row.team), ".js", lambda _target, c=code: c)
        files.append(source)
        notes.extend(row.notes)
        table = {"name": name, "team": row.team, "school": row.school, "runtime": "js",
                 "source": source.as_posix(), "monster": row.monster, "alternate": row.alternate}
        tables.append({key: value for key, value in table.items() if value != ""})
    return TeamImport(tables, files, notes)
