"""``studio run`` for TileCode projects: inputs, rounds, dumps and JSON."""

from __future__ import annotations

import json

import pytest

from studio.cli import main
from studio.commands.tilecode.run import parse_inputs
from studio.storage import ProjectError

PROJECT = '''[project]
kind = "tilecode"
name = "Walk"
format = 1

[game]
player_kind = 0
help = true
round_ms = 150
high_score = 0

[[backgrounds]]
name = "floor"

[[backgrounds]]
name = "wall"

[[backgrounds]]
name = "goal"

[[backgrounds]]
name = "water"

[[sprites]]
name = "player"

[[sprites]]
name = "apple"

[[sprites]]
name = "snake"

[[sprites]]
name = "diamond"

[map]
width = 8
height = 8
background = """
11111111
10000001
10000001
10000001
10000001
10000001
10000001
11111111
"""
sprites = """
........
.0..1...
........
........
........
........
........
........
"""

[[rules]]
id = 0
type = "press"
button = "right"
transforms = "rotate-3-way"

  [[rules.tiles]]
  col = 2
  row = 2
  include = ["s0"]
  do = ["move right"]

  [[rules.tiles]]
  col = 3
  row = 2
  exclude = ["b1"]

[[rules]]
id = 1
type = "smash"
transforms = "rotate-3-way"

  [[rules.tiles]]
  col = 2
  row = 2
  include = ["s0"]
  dir = "right"

  [[rules.tiles]]
  col = 3
  row = 2
  include = ["s1"]
  do = ["destroy", "game score"]

[[rules]]
id = 2
type = "never"

  [[rules.tiles]]
  col = 2
  row = 2
  include = ["s1"]
  do = ["game win"]
'''


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "walk.toml"
    path.write_text(PROJECT, encoding="utf-8")
    return str(path)


def test_parse_inputs() -> None:
    assert parse_inputs("right - none up+A a") == [("right",), (), (), ("up", "A"), ("A",)]
    with pytest.raises(ProjectError):
        parse_inputs("jump")


def test_run_to_a_win_prints_the_final_dump(project, capsys) -> None:
    assert main(["run", project, "--inputs", "right right right - -", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    # rounds 1-2 step to (3,1); round 3 walks into the apple (destroyed, +10); round 4 the
    # never rule sees no apple -> won, and the remaining input is not used
    assert out.splitlines()[0] == "round 5 state won score 10 high 10"
    assert "0 s0 4 1 resting" in out
    assert out.strip().endswith("result won rounds 5 score 10 high 10")


def test_rounds_and_dump_every(project, capsys) -> None:
    assert main(["run", project, "--inputs", "down", "--rounds", "4", "--dump-every", "2"]) == 0
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if line.startswith("round ")]
    assert heads == ["round 0 state play score 0 high 0", "round 2 state play score 0 high 0",
                     "round 4 state play score 0 high 0"]
    assert out.strip().endswith("result stopped rounds 4 score 0 high 0")


def test_json_final_and_every(project, capsys) -> None:
    assert main(["run", project, "--inputs", "left - down", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["result"] == "stopped" and data["rounds"] == 4 and data["score"] == 0
    assert data["final"]["sprites"][0] == [0, 0, 1, 2, "down"]  # left is a wall
    assert data["final"]["background"][0] == "11111111"
    assert main(["run", project, "--inputs", "right right", "--json", "--every"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["round"] for r in data["every"]] == [1, 2, 3]
    assert [r["buttons"] for r in data["every"]] == [[], ["right"], ["right"]]
    assert data["every"][2]["score"] == 0 and data["every"][2]["sprites"][0][2] == 3


def test_same_seed_same_output(project, capsys) -> None:
    main(["run", project, "--inputs", "right down left up", "--seed", "9", "--dump-every", "1"])
    first = capsys.readouterr().out
    main(["run", project, "--inputs", "right down left up", "--seed", "9", "--dump-every", "1"])
    assert capsys.readouterr().out == first


def test_bad_token_is_a_clean_error(project, capsys) -> None:
    assert main(["run", project, "--inputs", "jump"]) != 0
    assert "bad input token" in capsys.readouterr().err
