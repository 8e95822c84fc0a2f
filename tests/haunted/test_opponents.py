"""Test-match opponents by role (issue 30): a student plays other teams only as submitted, and
never reads a line of them, not even in what the opponent's failure says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.engines.haunted.match import run_match
from studio.sessions.access import STUDENT, Access
from studio.sessions.haunted.checks import one_round_plan
from studio.sessions.haunted.opponents import UNAVAILABLE, opponent_choices, with_opponents
from studio.storage.errors import ProjectError
from studio.storage.haunted.submissions import store_submission
from tests.haunted.test_submissions import AFTER, BEFORE, DEADLINE, NORTH, project

ANN = Access(STUDENT, "Ann", "Alpha")
TEACHER = Access()
LEAKY = ("SECRET = 'the-plan-of-beta'\n"
         "def main(game_state, side):\n"
         "    print(SECRET)\n"
         "    raise ValueError(SECRET + ' and the-second-secret')\n")


def labels(choices) -> dict[str, str]:
    return {c.value: c.label for c in choices}


def test_a_student_sees_other_teams_only_as_submitted_or_not_available(tmp_path: Path) -> None:
    model = project(tmp_path, DEADLINE, "Alpha", "Beta", "Gamma", "Delta")
    beta = store_submission(tmp_path, "Beta", NORTH.encode(), ".py", BEFORE)
    store_submission(tmp_path, "Gamma", NORTH.encode(), ".py", AFTER)
    choices = opponent_choices(model, ANN)
    shown = labels(choices)
    assert shown["Alpha"] == "team Alpha (current file)"  # their own
    assert "Beta" not in shown and "Gamma" not in shown and "Delta" not in shown
    assert shown["submitted:Beta"] == (
        f"team Beta — submitted {beta.shown_time()} · {beta.sha256[:8]}")
    reasons = {c.value: c.reason for c in choices if c.reason}
    assert reasons == {UNAVAILABLE + "Gamma": "no submission before the deadline (only after "
                       "the deadline)",
                       UNAVAILABLE + "Delta": "no submission before the deadline"}
    assert "not available: no submission before the deadline" in shown[UNAVAILABLE + "Delta"]
    assert "builtin:greedy" in shown  # the built-ins stay


def test_a_teacher_keeps_every_current_file_and_gains_the_submitted_versions(
        tmp_path: Path) -> None:
    model = project(tmp_path, None, "Alpha", "Beta")
    store_submission(tmp_path, "Beta", NORTH.encode(), ".py", BEFORE)
    shown = labels(opponent_choices(model, TEACHER))
    assert {"Alpha", "Beta", "submitted:Beta"} <= set(shown)
    assert not any(value.startswith(UNAVAILABLE) for value in shown)


def play(model, who: Access, away: str):
    plan = with_opponents(one_round_plan(model, str(model.folder / "ais/alpha.py"), away, 5),
                          model, who)
    home, other = plan.entrants()
    return plan, other, run_match(home, other, plan.maps, plan.config, plan.seed)


def test_a_students_match_plays_the_submission_not_the_current_file(tmp_path: Path) -> None:
    model = project(tmp_path, DEADLINE, "Alpha", "Beta")  # Beta's current file goes south
    beta = store_submission(tmp_path, "Beta", NORTH.encode(), ".py", BEFORE)
    plan, away, result = play(model, ANN, "submitted:Beta")
    assert away.name == "Beta (submitted)"
    assert Path(away.source) == beta.path and away.source_sha256 == beta.sha256
    turn = result.replay["rounds"][0]["turns"][0]
    assert turn["away"]["raw"] == ["north", "north", "north"]


def test_a_student_cannot_play_a_current_file_or_a_team_without_submission(
        tmp_path: Path) -> None:
    model = project(tmp_path, DEADLINE, "Alpha", "Beta", "Gamma")
    store_submission(tmp_path, "Beta", NORTH.encode(), ".py", BEFORE)
    with pytest.raises(ProjectError, match="plays only as submitted"):
        play(model, ANN, "Beta")
    with pytest.raises(ProjectError, match="Gamma cannot be played: no submission before"):
        play(model, ANN, UNAVAILABLE + "Gamma")
    plan, away, _ = play(model, TEACHER, "Beta")  # a teacher still plays the current file
    assert Path(away.source) == tmp_path.resolve() / "ais" / "beta.py"


def test_an_opponents_failure_reaches_a_student_by_its_kind_only(tmp_path: Path) -> None:
    model = project(tmp_path, None, "Alpha", "Beta")
    store_submission(tmp_path, "Beta", LEAKY.encode(), ".py", BEFORE)
    _, _, result = play(model, ANN, "submitted:Beta")
    text = json.dumps(result.replay)
    assert "the-plan-of-beta" not in text and "second-secret" not in text
    assert "SECRET" not in text and "raise ValueError" not in text
    failed = result.rounds[0].failures["B"]
    assert failed["failure"] == "exception"
    assert failed["error"] == "what it raised or printed is not shown (another team's code)"
    # A teacher sees what it raised, as today.
    _, _, seen = play(model, TEACHER, "submitted:Beta")
    assert "the-plan-of-beta" in json.dumps(seen.replay)


def test_an_opponents_answer_text_is_blanked_with_the_same_outcome(tmp_path: Path) -> None:
    odd = "def main(game_state, side):\n    return ['north', 'my source is here', 'south']\n"
    model = project(tmp_path, None, "Alpha", "Beta")
    store_submission(tmp_path, "Beta", odd.encode(), ".py", BEFORE)
    _, _, veiled = play(model, ANN, "submitted:Beta")
    _, _, seen = play(model, TEACHER, "submitted:Beta")
    assert "my source" not in json.dumps(veiled.replay)
    assert "my source" in json.dumps(seen.replay)
    turn = veiled.replay["rounds"][0]["turns"][0]["away"]
    assert turn["moves"] == seen.replay["rounds"][0]["turns"][0]["away"]["moves"]
    assert veiled.rounds[0].winner == seen.rounds[0].winner
