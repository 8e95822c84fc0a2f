"""``studio run`` with replay files: ``--inputs FILE.tcreplay.toml`` verifies, ``--save-replay``."""

from __future__ import annotations

import json

import pytest

from studio.cli import main
from studio.storage.tilecode.replay import load_replay

from .test_run_cli import PROJECT

INPUTS = "down right+up right right right - -"  # round 2: a random pick


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "walk.toml"
    path.write_text(PROJECT, encoding="utf-8")
    return path


@pytest.fixture
def recorded(project, capsys):
    """A run recorded with --save-replay: (replay path, the run's stdout)."""
    path = project.parent / "walk.tcreplay.toml"
    assert main(["run", str(project), "--seed", "1", "--inputs", INPUTS,
                 "--save-replay", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"replay saved to {path}" in err
    return path, out


def test_save_replay_then_inputs_of_that_file_verifies(project, recorded, capsys) -> None:
    path, first = recorded
    replay = load_replay(path)
    assert (replay.project, replay.seed, replay.rounds, replay.result, replay.score) == (
        "walk.toml", 1, 7, "won", 10)  # the last input is never used
    assert replay.inputs[:2] == ((1, ("down",)), (2, ("up", "right")))
    assert main(["run", str(project), "--inputs", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == "replay verified: won, score 10, 7 rounds"
    assert out.splitlines()[:-1] == first.splitlines()  # the same run, the same dump
    assert err == ""


def test_any_existing_file_is_read_as_a_replay(project, recorded, capsys) -> None:
    path, _ = recorded
    other = path.with_name("plain.toml")
    other.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["run", str(project), "--inputs", str(other), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 1 and data["rounds"] == 7
    assert data["replay"]["verified"] is True and data["replay"]["file"] == str(other)
    assert data["replay"]["message"].startswith("replay verified")


def test_seed_and_rounds_override_the_replay(project, recorded, capsys) -> None:
    path, _ = recorded
    assert main(["run", str(project), "--inputs", str(path), "--rounds", "3", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["rounds"] == 3 and data["seed"] == 1 and "replay" not in data
    assert "replay not verified" in err
    assert main(["run", str(project), "--inputs", str(path), "--seed", "2", "--json",
                 "--every"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["seed"] == 2 and data["result"] == "stopped" and "replay not verified" in err
    assert [r["buttons"] for r in data["every"]][:3] == [[], ["down"], ["up", "right"]]
    # Naming the replay's own values is no override: the run is verified.
    assert main(["run", str(project), "--inputs", str(path), "--seed", "1", "--rounds", "7"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("replay verified")


def test_a_mismatch_exits_1_with_a_clear_line(project, recorded, capsys) -> None:
    path, _ = recorded
    path.write_text(path.read_text(encoding="utf-8").replace("score = 10", "score = 20"),
                    encoding="utf-8")
    assert main(["run", str(project), "--inputs", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == (
        "replay mismatch: recorded won, score 20, 7 rounds; replayed won, score 10, "
        "7 rounds (the engine or the project changed since recording)")
    assert main(["run", str(project), "--inputs", str(path), "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["replay"]["verified"] is False and "replay mismatch" in err


def test_a_changed_project_warns_and_then_fails_verification(project, recorded, capsys) -> None:
    path, _ = recorded
    text = project.read_text(encoding="utf-8")
    project.write_text(text.replace("round_ms = 150", "round_ms = 200"), encoding="utf-8")
    assert main(["run", str(project), "--inputs", str(path)]) == 0  # timing: same run
    out, err = capsys.readouterr()
    assert "changed since" not in err  # settings that cannot change a run are not hashed
    assert out.splitlines()[-1].startswith("replay verified")
    # Renaming a kind changes no run, but the hash cannot know that: a warning, still verified.
    project.write_text(text.replace('name = "apple"', 'name = "pear"', 1), encoding="utf-8")
    assert main(["run", str(project), "--inputs", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "warning" in err and "changed since" in err and "project_sha256" in err
    assert out.splitlines()[-1].startswith("replay verified")
    # The apple moves away from the path: no score any more.
    project.write_text(text.replace(".0..1...", ".0...1.."), encoding="utf-8")
    assert main(["run", str(project), "--inputs", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "changed since" in err and "replay mismatch" in out


def test_bad_or_missing_replay_files_are_clean_errors(project, recorded, capsys) -> None:
    path, _ = recorded
    assert main(["run", str(project), "--inputs", str(path.with_name("gone.tcreplay.toml"))]) == 1
    assert "no such file" in capsys.readouterr().err
    path.write_text(path.read_text(encoding="utf-8").replace("version = 1", "version = 7"),
                    encoding="utf-8")
    assert main(["run", str(project), "--inputs", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2: version" in err and "upgrade the studio" in err


def test_the_project_seed_is_the_default_and_rounds_0_records_nothing(project, capsys) -> None:
    text = project.read_text(encoding="utf-8")
    project.write_text(text.replace("high_score = 0", "high_score = 0\nseed = 4"),
                       encoding="utf-8")
    target = project.parent / "zero.tcreplay.toml"
    assert main(["run", str(project), "--rounds", "0", "--json", "--save-replay",
                 str(target)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 4 and data["rounds"] == 0 and data["final"]["round"] == 0
    replay = load_replay(target)
    assert (replay.seed, replay.rounds, replay.result, replay.inputs) == (4, 0, "stopped", ())
    assert main(["run", str(project), "--inputs", str(target)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "replay verified: still running, score 0, 0 rounds"


def test_a_won_run_replays_to_the_same_win(project, capsys) -> None:
    target = project.parent / "won.tcreplay.toml"
    assert main(["run", str(project), "--inputs", "right right right - - right",
                 "--save-replay", str(target)]) == 0
    capsys.readouterr()
    replay = load_replay(target)
    assert (replay.result, replay.rounds, replay.score) == ("won", 5, 10)
    assert replay.inputs == ((1, ("right",)), (2, ("right",)), (3, ("right",)))
    assert main(["run", str(project), "--inputs", str(target)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "replay verified: won, score 10, 5 rounds"
