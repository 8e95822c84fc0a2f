"""The roster's format and its errors, and the role policy every screen and command asks
(issue 30, item 2)."""

from __future__ import annotations

import shutil
import json
from pathlib import Path

import pytest

from studio.sessions.access import SPECTATOR, STUDENT, TEACHER, Access, file_guard, own_sources
from studio.storage import ProjectError, load_project, save_project
from studio.storage.roster import load_roster

ROOT = Path(__file__).resolve().parent.parent
KEY_A = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJ1jX6Ls5w3Hg0X6cnxYgk5rN0c9o2v8w6Qm6c9bQ2a ann@laptop"
KEY_B = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb2k0v1pX8fS5w2m7n3c9q4r6t8y0u2i4o6p8a0s2d4 bob"


def roster(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "roster.toml"
    path.write_text(text)
    return path


def test_a_roster_maps_keys_to_people_roles_and_teams(tmp_path: Path) -> None:
    path = roster(tmp_path, f'''
[[person]]
name = "Ms Rivera"
role = "teacher"
keys = ["{KEY_A}"]

[[person]]
name = "Bob"
role = "student"
team = "Team B"
keys = ["{KEY_B}"]
''')
    loaded = load_roster(path)
    assert [p.role for p in loaded.people] == [TEACHER, STUDENT]
    import base64

    blob = base64.b64decode(KEY_B.split()[1])
    assert loaded.who("ssh-ed25519", blob).team == "Team B"
    assert loaded.who("ssh-rsa", blob) is None


@pytest.mark.parametrize("body, field, words", [
    ('[[person]]\nname = "A"\nrole = "boss"\nkeys = ["K"]\n', "person[0].role", "no role 'boss'"),
    ('[[person]]\nname = "A"\nrole = "student"\nkeys = ["K"]\n', "person[0].team",
     "team is missing"),
    ('[[person]]\nname = "A"\nrole = "teacher"\nteam = "X"\nkeys = ["K"]\n', "person[0].team",
     "a teacher has no team"),
    ('[[person]]\nname = "A"\nrole = "teacher"\nkeys = ["ssh-ed25519 !!!"]\n',
     "person[0].keys[0]", "not base64"),
    ('[[person]]\nname = "A"\nrole = "teacher"\nkeys = ["hello world"]\n', "person[0].keys[0]",
     "not an SSH public key line"),
    ('[[person]]\nname = "A"\nrole = "teacher"\n', "person[0].keys", "keys is missing"),
    ('[[person]]\nname = "A"\nrole = "teacher"\nkey = ["K"]\nkeys = ["K"]\n', "person[0].key",
     "unknown field 'key'"),
    ('[[person]]\nname = "A\\u001b[2J"\nrole = "teacher"\nkeys = ["K"]\n', "person[0].name",
     "one line"),
    ('[[person]]\nname = "A"\nrole = "teacher"\nkeys = ["K"]\n[[person]]\nname = "B"\n'
     'role = "spectator"\nkeys = ["K"]\n', "person[1].keys[0]", "this key is also 'A''s"),
    ('[people]\n', "people", "unknown table 'people'"),
])
def test_each_mistake_names_the_file_and_the_field(tmp_path: Path, body: str, field: str,
                                                    words: str) -> None:
    path = roster(tmp_path, body.replace('"K"', f'"{KEY_A}"'))
    with pytest.raises(ProjectError) as caught:
        load_roster(path)
    text = str(caught.value)
    assert str(path) in text and field in text and words in text, text


def test_a_roster_that_is_not_toml_or_too_big_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="TOML"):
        load_roster(roster(tmp_path, "[[person]\n"))
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (3 << 20))
    with pytest.raises(ProjectError, match="more than"):
        load_roster(big)


# ------------------------------------------------------------------------------- the policy


def test_what_each_role_may_do() -> None:
    mine, theirs = {"name": "Team A", "source": "ais/a.py"}, {"name": "Team B"}
    teacher, student = Access(TEACHER, "T"), Access(STUDENT, "Ann", "Team A")
    spectator = Access(SPECTATOR, "Sam")
    assert teacher.open_source(theirs) == teacher.save_projects() == teacher.run_tournaments() == ""
    assert student.open_source(mine) == ""
    assert "Team B is not your team (Team A)" in student.open_source(theirs)
    assert "students cannot change projects" in student.save_projects()
    assert "students cannot run tournaments" in student.run_tournaments()
    assert "spectators watch only" in spectator.open_source(mine)
    assert "nothing can be saved" in spectator.save_projects()
    assert student.label == "Ann (student, Team A)" and Access().label == ""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A served folder with a project of two teams with AI files, Team A's and Team B's."""
    folder = tmp_path / "games"
    (folder / "ais").mkdir(parents=True)
    shutil.copy(ROOT / "games" / "haunted-tiles.toml", folder / "cup.toml")
    for team in "ab":
        (folder / "ais" / f"{team}.py").write_text(f"# SECRET-{team}\n")
    project = load_project(folder / "cup.toml")
    project.body["team"] += [{"name": "Team A", "runtime": "python", "source": "ais/a.py"},
                             {"name": "Team B", "runtime": "python", "source": "ais/b.py"}]
    save_project(project, folder / "cup.toml")
    return folder


def test_a_students_files_are_their_teams_ai_files_and_their_replays(folder: Path) -> None:
    student = Access(STUDENT, "Ann", "Team A")
    assert own_sources(student, folder) == {(folder / "ais" / "a.py").resolve()}
    guard = file_guard(student, folder)
    a, b = folder / "ais" / "a.py", folder / "ais" / "b.py"
    assert guard(a, False, False) == guard(a, True, False) == ""
    assert "not your team's (Team A)" in guard(b, False, False)
    assert "not your team's" in guard(b, True, False)
    assert "students cannot change projects" in guard(folder / "cup.toml", True, False)
    assert guard(folder / "cup.toml", False, False) == ""  # projects are read, not written
    assert guard(folder / "replays" / "x.json.gz", True, False) == ""
    assert file_guard(Access(TEACHER, "T"), folder) is None


def test_a_spectator_reads_no_source_and_writes_nothing(folder: Path) -> None:
    guard = file_guard(Access(SPECTATOR, "Sam"), folder)
    assert "no AI's source" in guard(folder / "ais" / "a.py", False, False)
    assert "nothing can be written" in guard(folder / "replays" / "x.json.gz", True, False)
    assert guard(folder / "cup.toml", False, False) == ""


def test_a_student_hands_in_to_their_own_teams_submissions_only(folder: Path) -> None:
    guard = file_guard(Access(STUDENT, "Ann", "Team A"), folder)
    own, other = folder / "submissions" / "team-a", folder / "submissions" / "team-b"
    for name in ("2026-11-13T16-59-02Z.py", "2026-11-13T16-59-02Z.json"):
        assert guard(own / name, True, False) == guard(own / name, False, False) == ""
    assert "not your team's" in guard(other / "2026-11-13T16-59-02Z.py", False, False)
    assert "not your team's" in guard(other / "2026-11-13T16-59-02Z.py", True, False)
    assert "students cannot change" in guard(other / "2026-11-13T16-59-02Z.json", True, False)


def test_ladder_replays_are_read_by_the_teams_that_played_them(folder: Path) -> None:
    ladder = folder / "replays" / "ladder"
    ladder.mkdir(parents=True)
    entry = {"winner": "home", "home_rounds": 1, "away_rounds": 0}
    (ladder / "index.json").write_text(json.dumps({
        "format": "studio-haunted-ladder", "matches": {
            "k1": {**entry, "home": "Team A", "away": "Team B"},
            "k2": {**entry, "home": "Team B", "away": "Team C"}}}))
    student = file_guard(Access(STUDENT, "Ann", "Team A"), folder)
    assert student(ladder / "match-k1.json.gz", False, False) == ""
    assert "Team B vs Team C is not your team's match" in student(
        ladder / "match-k2.json.gz", False, False)
    assert "not in the ladder's index" in student(ladder / "match-k9.json.gz", False, False)
    assert student(ladder / "index.json", False, False) == ""
    assert "written by its runs only" in student(ladder / "index.json", True, False)
    spectator = file_guard(Access(SPECTATOR, "Sam"), folder)
    assert "standings only" in spectator(ladder / "match-k1.json.gz", False, False)
    assert spectator(ladder / "live.jsonl", False, False) == ""
