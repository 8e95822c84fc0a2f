"""Every reader of a file the studio did not write, as the attacks below call it.

A reader here is a function of one path that reads the file as the studio does, and raises the
reader's own error type when it cannot. Each comes with a valid file (so the tests show that the
hostile ones fail for what they are, not because the base is wrong) and with one document
missing a key the studio needs and one with a value of the wrong type.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from studio.engines.btree import BtreeError
from studio.storage import ProjectError
from tests.security.replays import haunted_replay_document


@dataclass(frozen=True)
class Reader:
    name: str
    file_name: str
    """What the file is called (some readers look for a fixed name or a suffix)."""
    read: Callable[[Path], object]
    errors: tuple[type[Exception], ...]
    """The typed errors the reader may end with."""
    valid: Callable[[], bytes]
    missing_key: bytes | None
    """A document without a key the studio needs (None: the format has no keys)."""
    wrong_type: bytes | None
    syntax: str
    """``toml``, ``json``, ``yaml``, ``csv`` or ``python``: how the deep-nesting attack looks."""


# --------------------------------------------------------------------------------- the readers


def read_project(path: Path) -> object:
    from studio.storage import check_project, load_project

    project = load_project(path)
    check_project(project)  # `studio validate`: the kind's deeper checks too
    return project


def read_tilecode_replay(path: Path) -> object:
    from studio.storage.tilecode.replay import load_replay

    return load_replay(path)


def read_trrbt(path: Path) -> object:
    from studio.storage.btree.trrbt import load_compiled

    return load_compiled(path)


def read_haunted_replay(path: Path) -> object:
    import contextlib
    import io

    from studio.commands.haunted.replay import _play_round
    from studio.engines.haunted import replay as replays
    from studio.engines.haunted.match import MatchResult
    from studio.sessions.haunted.replays import replay_info
    from studio.storage.haunted.replay import load_replay

    document = load_replay(path)
    # What the studio then does with an accepted replay may not fail either: verify it, list
    # it, resume a tournament from it, play it back.
    replays.verify(document)
    replay_info(path)
    MatchResult.from_replay(document)
    with contextlib.redirect_stdout(io.StringIO()):
        for number in range(1, len(document["rounds"]) + 1):
            try:
                _play_round(document, number, 0)
            except replays.ReplayError:
                pass  # a round that cannot be re-simulated says so: a typed answer
    return document


def read_maps_json(path: Path) -> object:
    from studio.storage.haunted.maps import read_maps_json

    return read_maps_json(path)


def read_teams_csv(path: Path) -> object:
    from studio.sessions.haunted.ai_files import import_team_list

    project = path.parent / "project"
    project.mkdir(exist_ok=True)
    return import_team_list(path, project, set())


def read_ai_source(path: Path) -> object:
    """What the AI editor does with a team's file: read it, and check its syntax on f5."""
    from studio.sessions.haunted.ai_files import read_ai_source as read
    from studio.sessions.haunted.checks import check_syntax

    data = read(path)
    if data is None:
        raise ProjectError("no such file", file=path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProjectError("not UTF-8", file=path) from None
    problem = check_syntax(text, js=False, filename=str(path))
    if problem is not None:
        raise ProjectError(problem.message, file=path)  # a typed answer, as the editor shows it
    return text


def read_tournament_index(path: Path) -> object:
    from studio.sessions.haunted.tournament import read_index

    document = read_index(path.parent)
    if document is None:
        raise ProjectError("no index", file=path)
    return document


def read_folder_entry(path: Path) -> object:
    """The home screen's scan of the folder holding ``path``: never raises; lists it broken."""
    from studio.storage import scan_folder

    entries = [e for e in scan_folder(path.parent) if e.path.name == path.name]
    if entries and entries[0].error is not None:
        raise entries[0].error
    if not entries:  # not an error of the reader: the file was left out of the list
        raise AssertionError(f"{path.name} is not listed")
    return entries[0]


# ------------------------------------------------------------------------------ valid files

def project_text() -> bytes:
    from studio.storage import dumps_project, new_project

    return dumps_project(new_project("btree", "Fine")).encode()


TRRBT_YAML = b"""name: fine
tree:
  type: order
  children:
    - type: set-board
      pattern: "_ _ ; _ _"
    - type: display-board
"""
TRRBT_JSON = json.dumps({"name": "fine", "tree": {"type": "order", "children": [
    {"type": "set-board", "pattern": {"main": [["_", "_"], ["_", "_"]]}},
    {"type": "display-board"}]}}).encode()
MAPS_JSON = json.dumps({"maps": [{"name": "A", "tiles": [{"x": 0, "y": 1, "status": 0}]}]}).encode()
TEAMS_CSV = b"Team Name,School,URL/Code\nOwls,CSM,function main(gameState, side) {}\n"
AI_SOURCE = b"def main(game_state, side):\n    return ['none'] * 3\n"
INDEX = b'{"matches": []}\n'


def tilecode_replay_text() -> bytes:
    from studio.engines.tilecode.replay import Replay
    from studio.storage.tilecode.replay import dumps_replay

    return dumps_replay(Replay("x.toml", "", 1, 5, "won", 3, ((2, ("left",)),))).encode()


def _replay_without_tiles() -> bytes:
    document = haunted_replay_document()
    del document["maps"]["Small"]["tiles"]  # the reported attack: a KeyError traceback
    return json.dumps(document).encode()


def _replay_with_text_turns() -> bytes:
    document = haunted_replay_document()
    document["rounds"][0]["turns"] = "many"
    return json.dumps(document).encode()


def _tilecode_replay_without(key: str) -> bytes:
    lines = tilecode_replay_text().decode().splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith(f"{key} =")).encode()


READERS = [
    Reader("project", "x.toml", read_project, (ProjectError,), project_text,
           b'[project]\nkind = "btree"\nformat = 1\n',
           b'[project]\nkind = "haunted"\nname = "X"\nformat = 1\n\n[[map]]\nname = 5\n',
           "toml"),
    Reader("tilecode-replay", "x.tcreplay.toml", read_tilecode_replay, (ProjectError,),
           tilecode_replay_text, None, None, "toml"),
    Reader("trrbt-yaml", "x.yaml", read_trrbt, (BtreeError, ProjectError), lambda: TRRBT_YAML,
           b"name: no tree\n", b"name: x\ntree: [1, 2]\n", "yaml"),
    Reader("trrbt-json", "x.json", read_trrbt, (BtreeError, ProjectError), lambda: TRRBT_JSON,
           b'{"name": "no tree"}', b'{"name": "x", "tree": 5}', "json"),
    Reader("haunted-replay", "x.json", read_haunted_replay, (ProjectError,),
           lambda: json.dumps(haunted_replay_document(aborted=True)).encode(), None, None,
           "json"),
    Reader("maps-json", "maps.json", read_maps_json, (ProjectError,), lambda: MAPS_JSON,
           b'{"maps": [{"name": "A", "tiles": [{"x": 0, "y": 1}]}]}',
           b'{"maps": [{"name": "A", "tiles": 5}]}', "json"),
    Reader("teams-csv", "teams.csv", read_teams_csv, (ProjectError,), lambda: TEAMS_CSV,
           b"Team Name,School\nOwls,CSM\n", b"Team Name,URL/Code\n,code\n", "csv"),
    Reader("ai-source", "ai.py", read_ai_source, (ProjectError,), lambda: AI_SOURCE,
           None, None, "python"),
    Reader("tournament-index", "index.json", read_tournament_index, (ProjectError,),
           lambda: INDEX, b'{"standings": []}', b'{"matches": 5}', "json"),
    Reader("home-scan", "x.toml", read_folder_entry, (ProjectError,), project_text,
           b'[project]\nname = "X"\nformat = 1\n', b'[project]\nkind = 5\nname = "X"\nformat = 1\n',
           "toml"),
]
"""Every reader; the replays' missing and mistyped documents are filled in below (they need a
real replay, made on first use)."""

MISSING = {"tilecode-replay": lambda: _tilecode_replay_without("inputs"),
           "haunted-replay": _replay_without_tiles}
WRONG = {"tilecode-replay": lambda: tilecode_replay_text().replace(b"rounds = 5", b'rounds = "5"'),
         "haunted-replay": _replay_with_text_turns}

UNBOUNDED = Reader("unbounded", "x.json", lambda path: path.read_bytes(), (OSError,),
                   lambda: b"{}", None, None, "json")
"""``Path.read_bytes``, as readers were: the harness's own test shows it catches a hang."""

BY_NAME = {reader.name: reader for reader in [*READERS, UNBOUNDED]}


def missing_key(reader: Reader) -> bytes | None:
    return MISSING[reader.name]() if reader.name in MISSING else reader.missing_key


def wrong_type(reader: Reader) -> bytes | None:
    return WRONG[reader.name]() if reader.name in WRONG else reader.wrong_type
