"""``studio match``, ``studio tournament`` and ``studio replay`` with built-in AIs (§12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio import cli
from studio.storage import create_project


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_match_text_output(capsys) -> None:
    code, out, _ = run(capsys, "match", "builtin:greedy", "builtin:idle", "--seed", "3", "--in-process")
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 4 and lines[0].startswith("round  1  Default")
    assert "eliminated" in lines[0] and "turns 3" in lines[0]
    assert lines[-1] == "builtin:greedy wins 3-0-0 (seed 3)"


def test_match_json_output(capsys) -> None:
    code, out, _ = run(capsys, "match", "builtin:lookahead", "builtin:greedy", "--seed", "7",
                       "--json", "--in-process", "--rounds", "3", "--map", "Default,WaffleTown")
    data = json.loads(out)
    assert code == 0 and data["seed"] == 7
    assert data["winner"] in ("builtin:lookahead", "builtin:greedy") and data["reason"] == "rounds"
    assert [r["map"] for r in data["rounds"]][:2] == ["Default", "WaffleTown"]
    first = data["rounds"][0]
    assert set(first) >= {"round", "winner", "turns", "reason", "broken"}
    assert first["reason"] in ("eliminated", "tiebreak", "tie")


def test_match_is_reproducible_from_its_seed(capsys) -> None:
    args = ("match", "builtin:wander", "builtin:cautious", "--seed", "11", "--json", "--in-process")
    assert run(capsys, *args)[1] == run(capsys, *args)[1]


def test_identical_ais_get_distinct_names_and_coin_toss(capsys) -> None:
    code, out, _ = run(capsys, "match", "builtin:idle", "builtin:idle", "--seed", "1", "--json",
                       "--in-process")
    data = json.loads(out)
    assert data["teams"] == {"A": "builtin:idle (A)", "B": "builtin:idle (B)"}
    assert data["reason"] == "coin-toss" and data["rounds_played"] == 5
    assert all(r["reason"] == "tie" for r in data["rounds"])


def test_failing_file_ais_through_the_workers(capsys, tmp_path: Path) -> None:
    (tmp_path / "shape.py").write_text("def main(state, side):\n    return 'north'\n")
    (tmp_path / "boom.py").write_text("def main(state, side):\n    raise KeyError('x')\n")
    code, out, _ = run(capsys, "match", str(tmp_path / "shape.py"), str(tmp_path / "boom.py"),
                       "--rounds", "1", "--max-rounds", "1", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["rounds"][0]["reason"] == "both-failed"
    code, out, _ = run(capsys, "match", "builtin:idle", str(tmp_path / "shape.py"),
                       "--rounds", "1", "--max-rounds", "1", "--seed", "1", "--json")
    round1 = json.loads(out)["rounds"][0]
    assert round1["reason"] == "bad-output" and round1["winner"] == "builtin:idle"
    assert "list" in round1["message"] and "shape.py" not in round1["winner"]
    code, out, _ = run(capsys, "match", str(tmp_path / "boom.py"), "builtin:idle",
                       "--rounds", "1", "--max-rounds", "1", "--seed", "1", "--json")
    round1 = json.loads(out)["rounds"][0]
    assert round1["reason"] == "error" and "KeyError" in round1["message"]


@pytest.mark.parametrize("hung_first", [True, False], ids=["hung-as-A", "hung-as-B"])
def test_a_hung_ai_loses_alone_in_either_order(capsys, tmp_path: Path, hung_first: bool) -> None:
    """Issue 10: with the hung AI as A, the idle one timed out too (both-failed, coin toss)."""
    hung = str(tmp_path / "hung.py")
    Path(hung).write_text("def main(state, side):\n    while True:\n        pass\n")
    ais = (hung, "builtin:idle") if hung_first else ("builtin:idle", hung)
    code, out, _ = run(capsys, "match", *ais, "--rounds", "1", "--timeout", "1", "--json")
    data = json.loads(out)
    round1 = data["rounds"][0]
    assert code == 0 and data["winner"] == "builtin:idle" and data["reason"] == "rounds"
    assert round1["reason"] == "timeout" and round1["winner"] == "builtin:idle"
    assert list(round1["failures"]) == [hung]


@pytest.mark.parametrize(("args", "message"), [
    (("builtin:nobody", "builtin:idle"), "no built-in AI"),
    (("builtin:idle", "idle.txt"), "unknown AI"),
    (("builtin:idle", "missing.py"), "no such AI file"),
    (("builtin:idle", "builtin:idle", "--rounds", "4"), "odd"),
    (("builtin:idle", "builtin:idle", "--map", "Atlantis"), "no map named"),
])
def test_match_bad_input_exits_1(capsys, args, message) -> None:
    code, _, err = run(capsys, "match", *args, "--in-process")
    assert code == 1 and message in err and len(err.strip().splitlines()) == 1


def test_replay_save_play_and_verify(capsys, tmp_path: Path) -> None:
    path = tmp_path / "m.json.gz"
    assert run(capsys, "match", "builtin:greedy", "builtin:cautious", "--seed", "5", "--in-process",
               "--replay", str(path))[0] == 0
    code, out, _ = run(capsys, "replay", str(path), "--round", "1")
    assert code == 0 and "=== round 1: Default" in out and "turn 1:" in out and "H0" in out
    assert out.strip().splitlines()[-1].startswith("builtin:")
    code, out, _ = run(capsys, "replay", str(path), "--verify")
    assert code == 0 and "ok" in out
    code, out, _ = run(capsys, "replay", "verify", str(path))
    assert code == 0 and "re-simulated" in out


def test_replay_verify_detects_tampering(capsys, tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    run(capsys, "match", "builtin:greedy", "builtin:lookahead", "--seed", "5", "--in-process",
        "--replay", str(path))
    document = json.loads(path.read_text())
    document["rounds"][0]["result"]["turns"] += 1
    path.write_text(json.dumps(document))
    code, _, err = run(capsys, "replay", str(path), "--verify")
    assert code == 1 and "replay does not match this engine version" in err


def test_tournament_single_and_round_robin(capsys) -> None:
    ais = ["builtin:idle", "builtin:wander", "builtin:greedy"]
    code, out, _ = run(capsys, "tournament", *ais, "--seed", "2", "--json", "--in-process")
    data = json.loads(out)
    assert code == 0 and data["mode"] == "single-elimination"
    assert data["byes"] == [{"stage": "semi-final", "entrant": "builtin:idle"}]
    assert data["standings"][0] == "builtin:greedy"
    code, out, _ = run(capsys, "tournament", *ais, "--format", "roundrobin", "--in-process")
    assert code == 0 and "standings:" in out and "Elo" in out and "bye" in out


def test_tournament_from_a_project(capsys, tmp_path: Path) -> None:
    project = create_project(tmp_path, "haunted", "Cup").path
    replays = tmp_path / "replays"
    code, out, _ = run(capsys, "tournament", "--project", str(project), "--name", "Built-in cup",
                       "--in-process", "--rounds", "1", "--replays", str(replays), "--json")
    data = json.loads(out)
    assert code == 0 and data["seed"] == 1 and len(data["matches"]) == 4
    assert len(list(replays.glob("match-*.json.gz"))) == 4
    assert json.loads((replays / "index.json").read_text())["standings"] == data["standings"]
    code, out, _ = run(capsys, "match", "Greedy Ghosts", "Idle Imps", "--project", str(project),
                       "--in-process", "--seed", "1", "--quiet")
    assert code == 0 and out.strip() == "Greedy Ghosts wins 3-0-0 (seed 1)"
    code, _, err = run(capsys, "tournament", "--project", str(project), "--name", "Nope")
    assert code == 1 and "no tournament named 'Nope'" in err
    assert f"{project}: " in err and "(its tournaments: 'Built-in cup')" in err
    # Without --replays a project's tournament keeps its replays in replays/NAME beside it.
    assert run(capsys, "tournament", "--project", str(project), "--name", "Built-in cup",
               "--in-process", "--rounds", "1", "--json")[0] == 0
    assert (tmp_path / "replays" / "built-in-cup" / "index.json").exists()


def test_tournament_resume(capsys, tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    ais = ["builtin:idle", "builtin:wander", "builtin:cautious", "builtin:greedy"]
    args = ["tournament", *ais, "--seed", "8", "--in-process", "--rounds", "1", "--json",
            "--replays", str(folder)]
    first = json.loads(run(capsys, *args)[1])
    (folder / "match-003.json.gz").unlink()  # interrupted before the final was saved
    stamp = (folder / "match-001.json.gz").stat().st_mtime_ns
    second = json.loads(run(capsys, *args, "--resume")[1])
    assert second == first
    assert (folder / "match-001.json.gz").stat().st_mtime_ns == stamp  # not played again
    assert (folder / "match-003.json.gz").exists()
    other = ["tournament", *reversed(ais), "--in-process", "--rounds", "1", "--replays",
             str(folder), "--resume"]
    code, _, err = run(capsys, *other)
    assert code == 1 and "saved match 1" in err
