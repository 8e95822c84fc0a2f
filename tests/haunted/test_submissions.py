"""Submissions by a deadline (issue 30): stored files, the deadline, hostile names, checks before
storing, and which version a tournament plays."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.sessions.haunted.submissions import (
    playing_teams, submit, submitting_team, team_submissions, with_deadline,
)
from studio.sessions.haunted.tournament import TournamentRun, project_plan
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import new_body, validate
from studio.storage.haunted.project import HauntedModel
from studio.storage.haunted.submissions import (
    MAX_TEAM_PART, deadline_of, latest_before, list_submissions, parse_deadline,
    store_submission, team_folder, team_part,
)

DEADLINE = datetime(2026, 11, 13, 17, 0, tzinfo=timezone(timedelta(hours=-7)))  # 5 pm MST
BEFORE = DEADLINE - timedelta(hours=2)
AFTER = DEADLINE + timedelta(minutes=1)
SOUTH = "def main(game_state, side):\n    return ['south', 'south', 'south']\n"
NORTH = "def main(game_state, side):\n    return ['north', 'north', 'north']\n"
JUMP = "def main(game_state, side):\n    return ['none', 'none', 'none']\n"


def at(when: datetime):
    return lambda: when


def project(folder: Path, deadline: datetime | None = None, *teams: str) -> HauntedModel:
    """A competition: the built-in teams, plus ``teams`` each with ``ais/NAME.py`` (SOUTH)."""
    body = new_body("Cup")
    body["match"] = {**body["match"], "rounds": 1, "max_rounds": 1, "maps": ["Default"]}
    (folder / "ais").mkdir(exist_ok=True)
    for name in teams:
        file = f"ais/{team_part(name)}.py"
        (folder / file).write_text(SOUTH)
        body["team"].append({"name": name, "runtime": "python", "source": file})
    model = HauntedModel("Cup", body, folder.resolve())
    return with_deadline(model, deadline)


def team(model: HauntedModel, name: str):
    return next(t for t in model.teams() if t.name == name)


# ----------------------------------------------------------------------------- the deadline


def test_a_deadline_needs_its_time_zone() -> None:
    assert parse_deadline("2026-11-13T17:00:00-07:00") == DEADLINE
    assert parse_deadline("2026-11-14T00:00:00Z") == DEADLINE
    assert parse_deadline(DEADLINE) == DEADLINE  # a TOML offset date-time
    with pytest.raises(ProjectError, match="no time zone") as naive:
        parse_deadline("2026-11-13T17:00:00")
    assert naive.value.field_path == ("submissions", "deadline")
    with pytest.raises(ProjectError, match="not a date and time"):
        parse_deadline("Friday 5pm")
    with pytest.raises(ProjectError, match="a date and time"):
        parse_deadline(20261113)


def test_an_invalid_deadline_stops_the_project_with_its_field() -> None:
    body = {**new_body("Cup"), "submissions": {"deadline": "2026-11-13 17:00"}}
    with pytest.raises(ProjectError) as caught:
        validate(body)
    assert caught.value.field_path == ("submissions", "deadline")
    body["submissions"] = {"deadline": "2026-11-13T17:00:00-07:00", "grace": 5}
    with pytest.raises(ProjectError, match="unknown key 'grace'"):
        validate(body)
    body["submissions"] = {"deadline": "2026-11-13T17:00:00-07:00"}
    validate(body)
    assert deadline_of(body) == DEADLINE


# ------------------------------------------------------------------------------- the files


@pytest.mark.parametrize("name", ["../../etc", "/etc/passwd", "a/b", "a\\b", "..", ".", "",
                                  "\x00", "\u202e..", "x" * 10_000, " .. / .. ", "~root",
                                  "con", "é/../..", "\n"])
def test_hostile_team_names_stay_one_safe_path_part(tmp_path: Path, name: str) -> None:
    part = team_part(name)
    assert part not in ("", ".", "..") and len(part) <= MAX_TEAM_PART
    assert "/" not in part and "\\" not in part and "\x00" not in part and "." not in part
    stored = store_submission(tmp_path, name, b"x = 1\n", ".py", BEFORE)
    assert stored.path.parent.parent == (tmp_path / "submissions").resolve()
    assert list_submissions(tmp_path, name) == [stored]


def test_a_link_leading_out_of_the_project_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    project_folder = tmp_path / "project"
    project_folder.mkdir()
    (project_folder / "submissions").symlink_to(outside)
    with pytest.raises(ProjectError, match="outside the project's folder"):
        store_submission(project_folder, "Alpha", b"x = 1\n", ".py", BEFORE)
    assert list(outside.iterdir()) == []


def test_earlier_submissions_are_kept_with_their_time_and_hash(tmp_path: Path) -> None:
    first = store_submission(tmp_path, "Alpha", SOUTH.encode(), ".py", BEFORE)
    same_second = store_submission(tmp_path, "Alpha", NORTH.encode(), ".py", BEFORE)
    later = store_submission(tmp_path, "Alpha", JUMP.encode(), ".py", BEFORE + timedelta(hours=1))
    assert first.path.name == "2026-11-13T22-00-00Z.py"
    assert same_second.path.name == "2026-11-13T22-00-00Z-2.py"  # never one over the other
    assert first.path.read_text() == SOUTH and same_second.path.read_text() == NORTH
    sidecar = json.loads(first.path.with_suffix(".json").read_text())
    assert sidecar["team"] == "Alpha" and sidecar["time"] == "2026-11-13T22:00:00Z"
    assert sidecar["sha256"] == hashlib.sha256(SOUTH.encode()).hexdigest() == first.sha256
    assert [s.path for s in list_submissions(tmp_path, "Alpha")] == [later.path,
                                                                     same_second.path, first.path]


def test_teams_sharing_a_folder_are_told_apart_by_their_exact_name(tmp_path: Path) -> None:
    one = store_submission(tmp_path, "A B", b"a = 1\n", ".py", BEFORE)
    two = store_submission(tmp_path, "a-b", b"b = 2\n", ".py", BEFORE)
    assert one.path.parent == two.path.parent
    assert list_submissions(tmp_path, "A B") == [one]
    assert list_submissions(tmp_path, "a-b") == [two]


def test_a_source_too_large_is_not_stored(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="at most"):
        store_submission(tmp_path, "Alpha", b"#" * (MAX_AI_SOURCE_BYTES + 1), ".py", BEFORE)
    assert list_submissions(tmp_path, "Alpha") == []
    with pytest.raises(ProjectError, match=".py or .js"):
        store_submission(tmp_path, "Alpha", b"x = 1\n", ".sh", BEFORE)


def test_a_sidecar_naming_another_file_is_no_submission(tmp_path: Path) -> None:
    stored = store_submission(tmp_path, "Alpha", b"x = 1\n", ".py", BEFORE)
    secret = tmp_path / "secret.py"
    secret.write_text("password = 1\n")
    sidecar = stored.path.with_suffix(".json")
    record = json.loads(sidecar.read_text())
    sidecar.write_text(json.dumps({**record, "file": "../../secret.py"}))
    assert list_submissions(tmp_path, "Alpha") == []


def test_a_submission_changed_after_it_was_handed_in_does_not_play(tmp_path: Path) -> None:
    model = project(tmp_path, DEADLINE, "Alpha")
    stored = store_submission(tmp_path, "Alpha", SOUTH.encode(), ".py", BEFORE)
    stored.path.write_text(NORTH)
    playing = playing_teams(model.teams(), ["Alpha"], tmp_path, DEADLINE)
    assert playing.skipped == (("Alpha", playing.skipped[0][1]),)
    assert "changed after it was submitted" in playing.skipped[0][1]


def test_the_listing_is_bounded(tmp_path: Path) -> None:
    for minute in range(12):
        store_submission(tmp_path, "Alpha", b"x = 1\n", ".py", BEFORE + timedelta(minutes=minute))
    newest = list_submissions(tmp_path, "Alpha", limit=5)
    assert len(newest) == 5 and newest[0].time == (BEFORE + timedelta(minutes=11)).astimezone(
        timezone.utc)


def test_the_latest_before_the_deadline_is_chosen(tmp_path: Path) -> None:
    early = store_submission(tmp_path, "Alpha", b"a = 1\n", ".py", BEFORE)
    last_in_time = store_submission(tmp_path, "Alpha", b"b = 1\n", ".py", DEADLINE - timedelta(seconds=1))
    store_submission(tmp_path, "Alpha", b"c = 1\n", ".py", DEADLINE)  # at the deadline: late
    found = list_submissions(tmp_path, "Alpha")
    assert latest_before(found, DEADLINE) == last_in_time
    assert latest_before(found, BEFORE + timedelta(seconds=1)) == early
    assert latest_before(found, None) == found[0]


# ------------------------------------------------------------------------- submit (checked)


def test_submit_before_the_deadline_stores_and_after_it_refuses(tmp_path: Path) -> None:
    model = project(tmp_path, DEADLINE, "Alpha")
    stored = submit(model, team(model, "Alpha"), SOUTH.encode(), ".py", clock=at(BEFORE))
    assert stored.ok and stored.submission.sha256 == hashlib.sha256(SOUTH.encode()).hexdigest()
    assert stored.message.startswith("Submitted for Alpha at 2026-11-13 22:00:00 UTC · ")
    late = submit(model, team(model, "Alpha"), NORTH.encode(), ".py", clock=at(AFTER))
    assert not late.ok and late.refusal == "closed"
    assert late.message == ("submissions closed at 2026-11-13 17:00 -0700 (2026-11-14 00:00 UTC)"
                            "; nothing was stored")
    assert list_submissions(tmp_path, "Alpha") == [stored.submission]
    # The teacher reopens: the deadline is removed, and the same submit goes through.
    reopened = with_deadline(model, None)
    assert submit(reopened, team(reopened, "Alpha"), NORTH.encode(), ".py", clock=at(AFTER)).ok


@pytest.mark.parametrize(("source", "refusal", "words"), [
    ("def main(game_state, side)\n    return []\n", "syntax", "SyntaxError"),
    ("import nonexistent_module_xyz\n", "load", "failed to load"),
    ("def main(game_state, side):\n    raise ValueError('broken')\n", "load", "first move"),
    ("x = 1\n", "load", "main"),
])
def test_code_that_fails_its_check_is_not_stored(tmp_path: Path, source: str, refusal: str,
                                                 words: str) -> None:
    model = project(tmp_path, DEADLINE, "Alpha")
    outcome = submit(model, team(model, "Alpha"), source.encode(), ".py", clock=at(BEFORE))
    assert not outcome.ok and outcome.refusal == refusal
    assert words in outcome.message + " ".join(outcome.load.details() if outcome.load else [])
    assert list_submissions(tmp_path, "Alpha") == []
    assert not (tmp_path / "submissions").exists() or not any(
        (tmp_path / "submissions").rglob("*.py"))


def test_submit_refuses_a_source_too_large_without_running_it(tmp_path: Path) -> None:
    model = project(tmp_path, None, "Alpha")
    data = b"# " + b"x" * MAX_AI_SOURCE_BYTES
    outcome = submit(model, team(model, "Alpha"), data, ".py", clock=at(BEFORE))
    assert outcome.refusal == "too_big" and outcome.load is None
    assert list_submissions(tmp_path, "Alpha") == []


def test_the_submitting_team_is_the_one_that_owns_the_file(tmp_path: Path) -> None:
    model = project(tmp_path, None, "Alpha", "Beta")
    assert submitting_team(model, tmp_path / "ais" / "beta.py").name == "Beta"
    assert submitting_team(model, tmp_path / "ais" / "nobody.py") is None
    index = [t["name"] for t in model.team_tables].index("Alpha")
    assert submitting_team(model, None, index).name == "Alpha"
    assert submitting_team(model, None, 0) is None  # a built-in submits nothing


# ------------------------------------------------------------------------- what plays


def replay_hashes(folder: Path) -> dict[str, str]:
    """Team name -> the source hash its replays record (every match of the run)."""
    found = {}
    for path in sorted(folder.glob("match-*.json.gz")):
        document = json.loads(gzip.decompress(path.read_bytes()))
        for side in document["teams"].values():
            found[side["name"]] = side["source_sha256"]
    return found


def test_a_tournament_plays_the_latest_submission_before_the_deadline(tmp_path: Path) -> None:
    model = project(tmp_path, DEADLINE, "Alpha", "Beta")
    alpha = store_submission(tmp_path, "Alpha", SOUTH.encode(), ".py", BEFORE)
    beta = store_submission(tmp_path, "Beta", NORTH.encode(), ".py", BEFORE)
    # After the deadline: a submission made while it was reopened, and a newer draft.
    store_submission(tmp_path, "Alpha", JUMP.encode(), ".py", AFTER)
    (tmp_path / "ais" / "alpha.py").write_text(JUMP + "# draft\n")
    table = {"name": "Final", "mode": "single-elimination", "seeding": "registration",
             "entrants": ["Alpha", "Beta"], "third_place": False, "seed": 3,
             "require_confinement": False, "swap_sides": False, "submission_deadline": DEADLINE}
    plan = project_plan(table, model.teams(), model.maps(), model.config(), tmp_path)
    assert plan.submissions == (("Alpha", alpha.sha256), ("Beta", beta.sha256))
    document = TournamentRun(plan).run()
    assert document["complete"] and document["plan"]["submissions"] == {
        "Alpha": alpha.sha256, "Beta": beta.sha256}
    assert replay_hashes(plan.replays) == {"Alpha": alpha.sha256, "Beta": beta.sha256}


def test_a_team_without_a_submission_is_skipped_with_the_reason(tmp_path: Path) -> None:
    model = project(tmp_path, DEADLINE, "Alpha", "Beta", "Gamma")
    store_submission(tmp_path, "Alpha", SOUTH.encode(), ".py", BEFORE)
    store_submission(tmp_path, "Beta", SOUTH.encode(), ".py", AFTER)  # only late
    table = {"name": "Cup", "mode": "round-robin", "seeding": "registration",
             "entrants": ["Alpha", "Beta", "Gamma", "Greedy Ghosts"], "third_place": False,
             "seed": 1, "require_confinement": False, "swap_sides": False,
             "submission_deadline": DEADLINE}
    plan = project_plan(table, model.teams(), model.maps(), model.config(), tmp_path)
    assert plan.entrants == ("Alpha", "Greedy Ghosts")  # the built-in plays as it is
    assert plan.skipped == (("Beta", "no submission before the deadline (only after the deadline)"),
                            ("Gamma", "no submission before the deadline"))
    table["entrants"] = ["Beta", "Gamma", "Alpha"]
    with pytest.raises(ProjectError, match="needs two entrants with a submission"):
        project_plan(table, model.teams(), model.maps(), model.config(), tmp_path)


def test_a_new_submission_makes_saved_results_another_setups(tmp_path: Path) -> None:
    model = project(tmp_path, None, "Alpha", "Beta")
    store_submission(tmp_path, "Alpha", SOUTH.encode(), ".py", BEFORE)
    store_submission(tmp_path, "Beta", SOUTH.encode(), ".py", BEFORE)
    table = {"name": "Cup", "mode": "single-elimination", "seeding": "registration",
             "entrants": ["Alpha", "Beta"], "third_place": False, "seed": 1,
             "require_confinement": False, "swap_sides": False, "submission_deadline": None}
    first = project_plan(table, model.teams(), model.maps(), model.config(), tmp_path)
    store_submission(tmp_path, "Beta", NORTH.encode(), ".py", BEFORE + timedelta(minutes=5))
    second = project_plan(table, model.teams(), model.maps(), model.config(), tmp_path)
    assert first.fingerprint() != second.fingerprint()


def test_without_a_deadline_or_submissions_drafts_play_as_before(tmp_path: Path) -> None:
    model = project(tmp_path, None, "Alpha", "Beta")
    table = {"name": "Cup", "mode": "single-elimination", "seeding": "registration",
             "entrants": ["Alpha", "Beta"], "third_place": False, "seed": 1,
             "require_confinement": False, "swap_sides": False, "submission_deadline": None}
    plan = project_plan(table, model.teams(), model.maps(), model.config(), tmp_path)
    assert plan.submissions == () and plan.teams == tuple(model.teams())
    assert "submissions" not in plan.fingerprint()


def test_the_teams_list_says_who_has_submitted(tmp_path: Path) -> None:
    model = project(tmp_path, DEADLINE, "Alpha", "Beta")
    stored = store_submission(tmp_path, "Alpha", SOUTH.encode(), ".py", BEFORE)
    store_submission(tmp_path, "Alpha", SOUTH.encode(), ".py", AFTER)
    listed = {entry.team.name: entry for entry in team_submissions(model)}
    assert set(listed) == {"Alpha", "Beta"}  # built-ins submit nothing
    assert listed["Alpha"].playing == stored and listed["Alpha"].late == 1
    assert listed["Beta"].playing is None and listed["Beta"].submissions == ()


def test_a_folder_stuffed_with_files_is_read_only_so_far(tmp_path: Path) -> None:
    folder = team_folder(tmp_path, "Alpha")
    folder.mkdir(parents=True)
    for number in range(6000):
        (folder / f"junk-{number}.txt").touch()
    assert list_submissions(tmp_path, "Alpha") == []  # scanned 5,000 entries at most, no error
    assert len(os.listdir(folder)) == 6000
