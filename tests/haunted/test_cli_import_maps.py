"""``studio import maps.json --into PROJECT``: the original maps added to a Haunted project."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from studio import cli
from studio.storage import load_project
from studio.storage.haunted.kind import maps_of
from studio.storage.haunted.maps import draft_of
from tests.conftest import ROOT

MAPS_JSON = {"maps": [
    {"name": "Default", "tiles": []},
    {"name": "Ring", "tiles": [{"x": r, "y": c, "status": 1}
                               for r in (2, 4) for c in (2, 3, 4)]},
]}


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "haunted-tiles.toml"
    shutil.copy(ROOT / "games" / "haunted-tiles.toml", project)
    maps = tmp_path / "maps.json"
    maps.write_text(json.dumps(MAPS_JSON))
    return maps, project


def test_maps_are_added_to_the_project_under_fresh_names(files, capsys) -> None:
    maps, project = files
    before = project.read_bytes()
    assert cli.main(["import", str(maps), "--into", str(project)]) == 0
    assert capsys.readouterr().out.strip() == f"{project}: added 2 maps: Default (2), Ring"
    loaded = load_project(project)  # valid: loading validates
    assert list(maps_of(loaded.body))[-2:] == ["Default (2)", "Ring"]
    ring = draft_of(loaded.body["map"][-1], 11)
    assert ring.rows()[2] == "3311133" and ring.rows()[3] == "3333333"  # x is the row
    assert (project.parent / "haunted-tiles.toml.bak").read_bytes() == before


def test_a_maps_json_needs_a_project_and_nothing_is_written(files, capsys, tmp_path) -> None:
    maps, project = files
    before = project.read_bytes()
    assert cli.main(["import", str(maps)]) == 1
    assert "--into PROJECT.toml" in capsys.readouterr().err
    assert project.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [
        "haunted-tiles.toml", "maps.json"]


def test_into_refuses_other_kinds_and_other_files(files, capsys, tmp_path) -> None:
    maps, _project = files
    assert cli.main(["new", "btree", "Trees", "-o", str(tmp_path / "trees.toml")]) == 0
    capsys.readouterr()
    assert cli.main(["import", str(maps), "--into", str(tmp_path / "trees.toml")]) == 1
    assert "not a btree one" in capsys.readouterr().err
    other = tmp_path / "other.json"
    other.write_text('{"maps": 3}')
    assert cli.main(["import", str(other), "--into", str(tmp_path / "trees.toml")]) == 1
    assert "this file is not one" in capsys.readouterr().err


def test_a_broken_maps_json_names_the_entry(files, capsys) -> None:
    maps, project = files
    before = project.read_bytes()
    maps.write_text(json.dumps({"maps": [{"name": "X", "tiles": [{"x": 9, "y": 0, "status": 0}]}]}))
    assert cli.main(["import", str(maps), "--into", str(project)]) == 1
    err = capsys.readouterr().err
    assert "maps[0].tiles[0]" in err and str(maps) in err
    assert project.read_bytes() == before
