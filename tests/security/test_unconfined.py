"""Where confinement is missing the studio says so, and refuses when told to (issue 28, item 6).

The missing feature is simulated with ``STUDIO_SIMULATE_MISSING=landlock``: the real probe (and
each worker's own attempt) then find no Landlock, as on an old kernel. Nothing is mocked: the
workers are real and report what they achieved.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from studio import cli
from studio.engines.haunted.ai import landlock, probe
from studio.storage import create_project, load_project, save_project
from studio.storage.haunted.kind import requires_confinement, tournaments_of, teams_of
from tests.haunted.hostile import HAS_JS, NO_JS_REASON, fixture, player

needs_landlock = pytest.mark.skipif(landlock.abi_version() < 1, reason="the kernel has no Landlock")
LANGUAGES = ["counter.py", pytest.param("js_counter.js", marks=pytest.mark.skipif(
    not HAS_JS, reason=NO_JS_REASON))]


@pytest.fixture
def no_landlock(monkeypatch):
    monkeypatch.setenv(landlock.SIMULATE_MISSING, "landlock")


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    printed = capsys.readouterr()
    return code, printed.out, printed.err


@pytest.mark.parametrize("ai", LANGUAGES)
def test_without_landlock_the_worker_reports_itself_unconfined(no_landlock, ai: str) -> None:
    with player(ai) as worker:
        assert not worker.confined and "no Landlock" in worker.unconfined_reason
        assert worker.load(1, "home").ok
        assert not worker.confined and "no Landlock" in worker.confinement  # its own report


@pytest.mark.parametrize("ai", LANGUAGES)
def test_without_landlock_the_cli_the_match_log_and_the_replay_say_so(
        no_landlock, capsys, tmp_path: Path, ai: str) -> None:
    saved = tmp_path / "replay.json"
    code, out, err = _run(capsys, "match", str(fixture(ai)), "builtin:idle", "--rounds", "1",
                          "--seed", "2", "--json", "--replay", str(saved))
    assert code == 0
    assert re.search(r"warning: AIs run unconfined on this machine: .*no Landlock", err)
    log = json.loads(out)["log"]
    assert any(line.startswith(f"{fixture(ai)} runs unconfined (") and "no Landlock" in line
               for line in log), log
    teams = json.loads(saved.read_text())["teams"]
    assert teams["A"]["confined"] is False and "no Landlock" in teams["A"]["confinement"]


@needs_landlock
def test_with_landlock_nothing_is_said_and_a_required_match_plays(capsys) -> None:
    assert probe.gap() == ""
    code, out, err = _run(capsys, "match", str(fixture("counter.py")), "builtin:idle",
                          "--rounds", "1", "--seed", "2", "--json", "--require-confinement")
    assert code == 0 and "unconfined" not in err and json.loads(out)["log"] == []


def test_require_confinement_refuses_a_match_without_landlock(no_landlock, capsys) -> None:
    code, out, err = _run(capsys, "match", str(fixture("counter.py")), "builtin:idle",
                          "--rounds", "1", "--require-confinement")
    assert code == 1 and out == ""
    assert "requires confinement" in err and "no Landlock" in err


def _project(tmp_path: Path, match: bool, tournament: bool) -> Path:
    project = create_project(tmp_path, "haunted", "Cup")
    project.body.setdefault("match", {})["require_confinement"] = match
    project.body["tournament"][0]["require_confinement"] = tournament
    save_project(project)
    return project.path


def test_require_confinement_is_saved_and_loaded(tmp_path: Path) -> None:
    path = _project(tmp_path, True, True)
    assert "require_confinement = true" in path.read_text()
    body = load_project(path).body
    assert requires_confinement(body)
    assert tournaments_of(body, teams_of(body))[0]["require_confinement"] is True


@pytest.mark.parametrize(("match", "tournament"), [(True, False), (False, True)])
def test_a_project_or_tournament_setting_refuses_without_landlock(
        no_landlock, capsys, tmp_path: Path, match: bool, tournament: bool) -> None:
    path = _project(tmp_path, match, tournament)
    name = load_project(path).body["tournament"][0]["name"]
    code, out, err = _run(capsys, "tournament", "--project", str(path), "--name", name,
                          "--rounds", "1", "--replays", str(tmp_path / "r"))
    assert code == 1 and "requires confinement" in err and "no Landlock" in err
    assert not (tmp_path / "r").exists()
    code, _, err = _run(capsys, "match", "builtin:idle", "builtin:greedy", "--project", str(path),
                        "--rounds", "1")
    assert (code == 1) == match and ("requires confinement" in err) == match


def _loud(tmp_path: Path, language: str) -> Path:
    """An AI that says it ran, as it loads (its output goes to the match log and replay)."""
    if language == "py":
        ai = tmp_path / "loud.py"
        ai.write_text("print('I ran')\n"
                      "def main(game_state, side):\n    return ['none'] * 3\n")
    else:
        ai = tmp_path / "loud.js"
        ai.write_text("print('I ran');\nfunction main(game_state, side) "
                      "{ return ['none', 'none', 'none']; }\n")
    return ai


LOUD = ["py", pytest.param("js", marks=pytest.mark.skipif(not HAS_JS, reason=NO_JS_REASON))]


@pytest.mark.parametrize("language", LOUD)
def test_a_worker_that_cannot_confine_itself_runs_no_ai_code_when_it_is_required(
        no_landlock, tmp_path: Path, language: str) -> None:
    # The set-up refuses on the prediction; the worker checks what it really reached, since
    # the kernel can refuse a step the prediction counted on. Asked directly here.
    from studio.engines.haunted.ai.runner import WorkerPlayer

    ai = _loud(tmp_path, language)
    with WorkerPlayer(ai, js=language == "js", require_confinement=True) as worker:
        reply = worker.load(1, "home")
    assert not reply.ok and reply.failure == "crash"
    assert "not run: confinement is required" in reply.error and "no Landlock" in reply.error
    assert "I ran" not in reply.stdout
    assert not worker.confined and "no Landlock" in worker.confinement


def test_a_wrong_prediction_does_not_let_a_required_match_run_ai_code(
        no_landlock, capsys, monkeypatch, tmp_path: Path) -> None:
    # The machine looks fully confinable (as where a container's seccomp profile refuses
    # what the probe did not try): the match is set up, and each worker refuses at load.
    import studio.sessions.haunted.confinement as confinement

    monkeypatch.setattr(confinement, "gap", lambda: "")
    monkeypatch.setattr(probe, "expected_confinement", lambda confine, js: (True, ""))
    ai = _loud(tmp_path, "py")
    code, out, err = _run(capsys, "match", str(ai), "builtin:idle", "--rounds", "1",
                          "--seed", "2", "--json", "--require-confinement")
    assert "requires confinement" not in err  # the set-up was satisfied
    assert "not run: confinement is required" in out and "I ran" not in out


def test_a_wrong_prediction_does_not_let_a_required_tournament_run_ai_code(
        no_landlock, capsys, monkeypatch, tmp_path: Path) -> None:
    import studio.sessions.haunted.confinement as confinement

    monkeypatch.setattr(confinement, "gap", lambda: "")
    monkeypatch.setattr(probe, "expected_confinement", lambda confine, js: (True, ""))
    path = _project(tmp_path, False, True)  # the tournament's own setting
    name = load_project(path).body["tournament"][0]["name"]
    ai = _loud(tmp_path, "py")
    code, out, err = _run(capsys, "tournament", str(ai), "builtin:idle", "--project", str(path),
                          "--name", name, "--rounds", "1", "--replays", str(tmp_path / "r"))
    assert code == 0 and "requires confinement" not in err, err
    replay = gzip.decompress((tmp_path / "r" / "match-001.json.gz").read_bytes()).decode()
    assert "not run: confinement is required" in replay and "I ran" not in replay
