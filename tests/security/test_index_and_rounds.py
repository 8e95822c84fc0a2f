"""Two readers bounded and typed below their top level (issue 28): a TileCode replay's ``rounds``
and a tournament's ``index.json``, each entry of it.

Before, ``rounds = 10**15`` was read as it stood (playing it built a list that long), and an
index whose match named no entrant, or held a string for a count, or named a replay outside the
tournament's folder, was handed to the results view as it was.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pytest

from studio.engines.common.limits import MAX_INDEX_ENTRANTS, MAX_REPLAY_ROUNDS
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.tournament import ROUND_ROBIN
from studio.sessions.haunted.results import Results, matches_csv
from studio.sessions.haunted.tournament import (TournamentPlan, TournamentRun, index_document,
                                                read_index)
from studio.storage.errors import ProjectError
from studio.storage.tilecode.replay import load_replay

REPLAY = '''format = "studio-tilecode-replay"
version = 1
project = "hello-world.toml"
project_sha256 = ""
seed = 42
rounds = {rounds}
result = "stopped"
score = 0
inputs = []
'''


def replay_file(tmp_path: Path, rounds: int) -> Path:
    path = tmp_path / "run.tcreplay.toml"
    path.write_text(REPLAY.format(rounds=rounds))
    return path


def test_a_replay_of_the_most_rounds_is_read(tmp_path: Path) -> None:
    replay = load_replay(replay_file(tmp_path, MAX_REPLAY_ROUNDS))
    assert replay.rounds == MAX_REPLAY_ROUNDS and len(replay.input_list()) == MAX_REPLAY_ROUNDS


@pytest.mark.parametrize("rounds", [MAX_REPLAY_ROUNDS + 1, 10**15, 2**63 - 1])
def test_a_replay_of_more_rounds_is_refused_naming_the_file_and_field(tmp_path: Path,
                                                                     rounds: int) -> None:
    path = replay_file(tmp_path, rounds)
    started = time.monotonic()
    with pytest.raises(ProjectError) as caught:
        load_replay(path)
    assert time.monotonic() - started < 5
    assert caught.value.field_path == ("rounds",) and caught.value.file == path
    assert "rounds" in str(caught.value) and f"{MAX_REPLAY_ROUNDS:,}" in str(caught.value)


# ------------------------------------------------------------------------- tournament index


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> dict:
    """A real index: a round robin of three built-in AIs, one round a match."""
    plan = TournamentPlan(ROUND_ROBIN, ("builtin:greedy", "builtin:wander", "builtin:idle"),
                          MatchConfig(rounds=1, max_rounds=1, maps=("Default",)), builtin_maps(),
                          7, name="Cup", replays=tmp_path_factory.mktemp("cup"),
                          in_process_builtins=True)
    return TournamentRun(plan).run()


def write(tmp_path: Path, document) -> Path:
    (tmp_path / "index.json").write_text(json.dumps(document))
    return tmp_path / "index.json"


def test_a_real_index_is_read_and_its_results_shown(tmp_path: Path, index: dict) -> None:
    write(tmp_path, index)
    results = Results(read_index(tmp_path))
    assert len(results.standings()) == 3 and matches_csv(results)


def _set(document: dict, path: tuple, value) -> dict:
    changed = copy.deepcopy(document)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


NASTY = {  # what each attack changes -> the field the error names
    "a match names no entrant": ((("matches", 0, "home"), "nobody"), ("matches", 0, "home")),
    "a winner who did not play": ((("matches", 0, "winner"), None), ("matches", 0)),
    "a count that is a string": ((("matches", 0, "ties"), "3"), ("matches", 0, "ties")),
    "wins for someone else": ((("matches", 0, "wins"), {"x": 1}), ("matches", 0, "wins")),
    "a match that is a list": ((("matches", 0), [1, 2]), ("matches", 0)),
    "a replay outside the folder": ((("matches", 0, "replay"), "../../secret.json.gz"),
                                    ("matches", 0, "replay")),
    "an absolute replay": ((("matches", 0, "replay"), "/etc/passwd"), ("matches", 0, "replay")),
    "a seed that is not a number": ((("matches", 0, "seed"), None), ("matches", 0, "seed")),
    "entrants that are not names": ((("entrants",), [1, 2, 3]), ("entrants",)),
    "an entrant twice": ((("entrants",), ["a", "a", "b"]), ("entrants",)),
    "standings of strangers": ((("standings",), ["mallory"]), ("standings",)),
    "seeds of strangers": ((("plan", "seeds"), ["mallory"]), ("plan", "seeds")),
    "an unknown mode": ((("mode",), "knockout-royale"), ("mode",)),
    "more matches than the mode plays": ((("matches",), None), ("matches",)),
}


@pytest.mark.parametrize("attack", list(NASTY))
def test_a_hostile_index_is_refused_naming_the_file_and_field(tmp_path: Path, index: dict,
                                                             attack: str) -> None:
    (where, value), field = NASTY[attack]
    if attack == "more matches than the mode plays":
        value = index["matches"] * 2  # three entrants play three matches, not six
    if attack == "a winner who did not play":
        first = index["matches"][0]
        [value] = set(index["entrants"]) - {first["home"], first["away"]}
    path = write(tmp_path, _set(index, where, value))
    with pytest.raises(ProjectError) as caught:
        read_index(tmp_path)
    assert caught.value.file == path and caught.value.field_path == field, caught.value


def test_too_many_entrants_are_refused(tmp_path: Path, index: dict) -> None:
    names = [f"team {n}" for n in range(MAX_INDEX_ENTRANTS + 1)]
    write(tmp_path, {**index, "entrants": names, "matches": [], "standings": [],
                     "plan": {**index["plan"], "seeds": names}})
    with pytest.raises(ProjectError, match=f"at most {MAX_INDEX_ENTRANTS}"):
        read_index(tmp_path)


def test_an_index_of_no_matches_yet_is_read(tmp_path: Path, index: dict) -> None:
    write(tmp_path, {**index, "complete": False, "matches": [], "standings": []})
    assert read_index(tmp_path)["matches"] == []
    assert index_document  # the writer these documents come from
