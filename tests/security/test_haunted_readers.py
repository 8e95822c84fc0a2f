"""The Haunted Tiles readers name what is wrong with a hostile file (issue 28): a replay without
``tiles`` was a KeyError traceback, a ``maps.json`` with ``tiles: 5`` a TypeError, a team list
whose code cell was long a csv.Error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.storage import ProjectError
from studio.storage.haunted.maps import read_maps_json
from studio.storage.haunted.replay import load_replay
from studio.storage.haunted.teams_csv import teams_from_csv
from tests.security.replays import haunted_replay_document


def studio(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True,
                          text=True, timeout=60, cwd=cwd)


def test_a_replay_without_tiles_names_the_field(tmp_path: Path) -> None:
    document = haunted_replay_document()
    del document["maps"]["Small"]["tiles"]
    (tmp_path / "r.json").write_text(json.dumps(document))
    with pytest.raises(ProjectError) as error:
        load_replay(tmp_path / "r.json")
    assert error.value.field_path == ("maps", "Small", "tiles")
    assert str(error.value).startswith(f"{tmp_path / 'r.json'}: maps.Small.tiles: is missing")
    result = studio("replay", "r.json", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("studio: r.json: maps.Small.tiles: is missing")


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["rounds"][0].update(map="Nowhere"), ("rounds", 0, "map")),
    (lambda d: d["rounds"][0]["turns"][0].pop("home"), ("rounds", 0, "turns", 0, "home")),
    (lambda d: d["rounds"][0]["result"].update(broken=[1, 2]), ("rounds", 0, "result", "broken")),
    (lambda d: d["teams"].update(B="Bee"), ("teams", "B")),
    (lambda d: d["result"].pop("coin_toss"), ("result", "coin_toss")),
    (lambda d: d["maps"]["Small"].update(tiles=["3333"] * 5), ("maps", "Small", "tiles")),
])
def test_each_field_the_readers_use_is_checked(tmp_path: Path, change, field) -> None:
    document = haunted_replay_document()
    change(document)
    (tmp_path / "r.json").write_text(json.dumps(document))
    with pytest.raises(ProjectError) as error:
        load_replay(tmp_path / "r.json")
    assert error.value.field_path == field


def test_an_aborted_match_plays_back(tmp_path: Path) -> None:
    # Its result has no winner: `studio replay` looked the winner up among the teams.
    document = haunted_replay_document(aborted=True)
    assert document["result"]["winner"] is None and document["rounds"][1]["aborted"]
    (tmp_path / "r.json").write_text(json.dumps(document))
    result = studio("replay", "r.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "aborted after 1 round (round 2 cut short)" in result.stdout  # the file has it
    # stopped before its first turn, a round has no map yet
    document["rounds"][1] = {"index": 2, "aborted": True, "turns": []}
    (tmp_path / "r.json").write_text(json.dumps(document))
    result = studio("replay", "r.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "round 2: aborted before it began" in result.stdout


@pytest.mark.parametrize(("tiles", "field"), [
    ("5", ("maps", 0, "tiles")),
    ('[{"x": 1e999, "y": 0, "status": 0}]', ("maps", 0, "tiles", 0)),
    ('[{"x": 0, "y": 0}]', ("maps", 0, "tiles", 0)),
])
def test_a_maps_json_of_the_wrong_shape_names_the_tile(tmp_path: Path, tiles: str, field) -> None:
    (tmp_path / "maps.json").write_text(f'{{"maps": [{{"name": "A", "tiles": {tiles}}}]}}')
    with pytest.raises(ProjectError) as error:
        read_maps_json(tmp_path / "maps.json")
    assert error.value.field_path == field and error.value.file == tmp_path / "maps.json"


def test_a_team_s_long_script_is_read_and_a_too_long_one_refused() -> None:
    code = "x" * 200_000  # past csv's own 128 KiB, well inside an AI file's limit
    [team] = teams_from_csv(f'Team Name,URL/Code\nOwls,"{code}"\n')
    assert team.code == code
    with pytest.raises(ProjectError, match="not a readable CSV: field larger") as error:
        teams_from_csv(f'Team Name,URL/Code\nOwls,"{"x" * (MAX_AI_SOURCE_BYTES + 1)}"\n')
    assert error.value.line == 2  # the registration's line


def test_a_team_list_quote_left_open_or_with_nul_is_an_error(tmp_path: Path) -> None:
    from studio.sessions.haunted.ai_files import import_team_list

    (tmp_path / "teams.csv").write_bytes(b"Team Name,URL/Code\nOwls,code\x00more\n")
    with pytest.raises(ProjectError, match="NUL byte") as error:
        import_team_list(tmp_path / "teams.csv", tmp_path, set())
    assert error.value.line == 2 and not (tmp_path / "ais").exists()
