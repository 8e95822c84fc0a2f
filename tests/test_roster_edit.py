"""Changing the roster (``studio roster``): every refusal names what is wrong, a change made
meanwhile by hand is never overwritten, and the file the server reads stays valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio import cli
from studio.storage.errors import ProjectError
from studio.storage.roster import load_roster
from studio.storage.roster_edit import (
    add_key, add_person, open_roster, remove_key, remove_person, save_roster, set_role,
)
from tests.test_roster_access import KEY_A, KEY_B

KEY_C = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC9vZ3JpZGFuZ2VsdGVzdGtleWJsb2Jmb3J0aGVyb3N0ZXI= c"


def teacher_and_student(path: Path):
    rf = open_roster(path, create=True)
    add_person(rf, "Ms Rivera", "teacher", [KEY_A])
    add_person(rf, "Ann", "student", [KEY_B], team="Ghosts")
    save_roster(rf)
    return rf


def test_a_roster_made_and_changed_reads_as_the_server_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "roster.toml"
    rf = teacher_and_student(path)
    add_key(rf, "Ann", KEY_C)
    set_role(rf, "Ann", "spectator")
    save_roster(rf)
    roster = load_roster(path)
    assert [(p.name, p.role, p.team) for p in roster.people] == [
        ("Ms Rivera", "teacher", ""), ("Ann", "spectator", "")]  # a spectator has no team
    assert len(roster.by_key) == 3
    assert (tmp_path / "roster.toml.bak").exists()  # the version before the last save
    remove_key(rf, "Ann", 1)
    remove_person(rf, "Ann")
    save_roster(rf)
    assert [p.name for p in load_roster(path).people] == ["Ms Rivera"]


@pytest.mark.parametrize("change, words", [
    (lambda rf: add_person(rf, "Ann", "teacher", [KEY_C]), "two people are called 'Ann'"),
    (lambda rf: add_person(rf, "Bo", "student", [KEY_C]), "person[2].team: team is missing"),
    (lambda rf: add_person(rf, "Bo", "teacher", [KEY_C], team="Ghosts"), "a teacher has no team"),
    (lambda rf: add_person(rf, "Bo", "teacher", [KEY_A]), "this key is also 'Ms Rivera'"),
    (lambda rf: add_person(rf, "Bo", "teacher", ["ssh-ed25519 !!!"]), "not base64"),
    (lambda rf: add_person(rf, "Bo", "teacher", ["hello"]), "not an SSH public key line"),
    (lambda rf: add_person(rf, "Bo", "teacher", []), "keys is missing"),
    (lambda rf: add_person(rf, "Bo\x1b[2J", "teacher", [KEY_C]), "one line"),
    (lambda rf: add_person(rf, "Bo", "student", [KEY_C], team="Nope", teams=["Ghosts"]),
     "the project has no team 'Nope'"),
    (lambda rf: remove_person(rf, "Ms Rivera"), "no teacher"),
    (lambda rf: set_role(rf, "Ms Rivera", "student", "Ghosts"), "no teacher"),
    (lambda rf: set_role(rf, "Ann", "admin"), "no role 'admin'"),
    (lambda rf: remove_person(rf, "Nobody"), "nobody called 'Nobody'"),
    (lambda rf: remove_key(rf, "Ann", 1), "the only key of 'Ann'"),
    (lambda rf: remove_key(rf, "Ann", 5), "'Ann' has no key 5"),
])
def test_every_refused_change_says_why_and_changes_nothing(tmp_path: Path, change, words) -> None:
    path = tmp_path / "roster.toml"
    rf = teacher_and_student(path)
    before = [dict(p) for p in rf.people]
    with pytest.raises(ProjectError) as caught:
        change(rf)
    assert words in str(caught.value) and "roster.toml" in str(caught.value)
    assert rf.people == before


def test_a_hand_edit_made_meanwhile_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "roster.toml"
    teacher_and_student(path)
    rf = open_roster(path)
    add_key(rf, "Ann", KEY_C)
    edited = path.read_text() + "\n# a note the teacher typed meanwhile\n"
    path.write_text(edited)
    with pytest.raises(ProjectError, match="changed on disk since it was read"):
        save_roster(rf)
    assert path.read_text() == edited
    path.unlink()  # gone meanwhile: not made again from the old reading either
    with pytest.raises(ProjectError, match="changed on disk"):
        save_roster(rf)
    assert not path.exists()


def test_cli_roster_adds_lists_and_refuses(tmp_path: Path, capsys) -> None:
    path = tmp_path / "roster.toml"
    pub = tmp_path / "ann.pub"
    pub.write_text(KEY_B + "\n")
    assert cli.main(["roster", str(path), "add", "Ms Rivera", "--role", "teacher", "--key", KEY_A]) == 0
    assert cli.main(["roster", str(path), "add", "Ann", "--role", "student", "--team", "Ghosts",
                     "--key-file", str(pub)]) == 0
    capsys.readouterr()
    assert cli.main(["roster", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ms Rivera (teacher)" in out and "Ann (student, Ghosts)" in out
    assert "1. ssh-ed25519 SHA256:" in out and "ann@laptop" in out  # fingerprint and comment
    two = tmp_path / "two.pub"
    two.write_text(KEY_B + "\n" + KEY_C + "\n")
    assert cli.main(["roster", str(path), "add-key", "Ann", "--key-file", str(two)]) == 1
    assert "holds one key line, this one 2" in capsys.readouterr().err
    assert cli.main(["roster", str(path), "remove", "Ms Rivera"]) == 1
    assert "no teacher" in capsys.readouterr().err
    assert cli.main(["roster", str(tmp_path / "none.toml")]) == 1
    assert "there is no roster here" in capsys.readouterr().err
