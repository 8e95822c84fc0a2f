"""Project storage: reading, errors with places, canonical and atomic saves, migration, folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.storage import (
    KINDS,
    ProjectError,
    backup_path,
    create_project,
    duplicate_project,
    dumps_project,
    load_project,
    loads_project,
    move_to_trash,
    new_project,
    rename_project,
    save_project,
    scan_folder,
    slug,
)
from studio.storage import kinds as kinds_module
from studio.storage.tomlio import dumps, locate_field, parse_toml

HEADER = '[project]\nkind = "btree"\nname = "T"\nformat = 1\n'


def test_every_kind_has_a_new_project_that_round_trips() -> None:
    for kind in KINDS:
        project = new_project(kind, "Fresh")
        text = dumps_project(project)
        again = loads_project(text)
        assert again.kind == kind and again.name == "Fresh"
        assert dumps_project(again) == text


def test_bundled_games_cover_every_kind_and_save_byte_for_byte(sample_games: Path) -> None:
    kinds = set()
    for path in sorted(sample_games.glob("*.toml")):
        project = load_project(path)
        kinds.add(project.kind)
        assert dumps_project(project) == path.read_text(encoding="utf-8"), path.name
    assert kinds == set(KINDS)


def test_syntax_error_has_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(HEADER + "\n[[node]\n")
    with pytest.raises(ProjectError) as info:
        load_project(path)
    error = info.value
    assert error.file == path and error.line == 6 and error.column is not None
    assert "syntax" in error.message
    assert str(error).startswith(f"{path}:6:")


def test_schema_error_names_field_and_line() -> None:
    text = '[project]\nkind = "chess"\nname = "T"\nformat = 1\n'
    with pytest.raises(ProjectError) as info:
        loads_project(text, Path("x.toml"))
    assert info.value.field_path == ("project", "kind")
    assert info.value.line == 2
    assert "tilecode" in info.value.hint


@pytest.mark.parametrize(
    ("text", "path", "words"),
    [
        ("[game]\nx = 1\n", ("project",), "no [project]"),
        ("project = 3\n", ("project",), "must be a table"),
        ('[project]\nkind = "btree"\nname = "T"\n', ("project",), "no 'format'"),
        ('[project]\nkind = "btree"\nname = ""\nformat = 1\n', ("project", "name"), "empty"),
        ('[project]\nkind = "btree"\nname = 5\nformat = 1\n', ("project", "name"), "string"),
        ('[project]\nkind = "btree"\nname = "a\\nb"\nformat = 1\n', ("project", "name"), "control"),
        ('[project]\nkind = "btree"\nname = "T"\nformat = "1"\n', ("project", "format"), "whole"),
        ('[project]\nkind = "btree"\nname = "T"\nformat = 0\n', ("project", "format"), "whole"),
        (HEADER + "colour = 1\n", ("project", "colour"), "unknown key"),
    ],
)
def test_header_errors(text: str, path: tuple, words: str) -> None:
    with pytest.raises(ProjectError) as info:
        loads_project(text)
    assert info.value.field_path == path
    assert words in info.value.message


def test_newer_format_is_refused_with_advice() -> None:
    with pytest.raises(ProjectError) as info:
        loads_project(HEADER.replace("format = 1", "format = 7"))
    assert "upgrade" in info.value.hint
    assert info.value.line == 4


def test_older_format_is_migrated(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = KINDS["btree"]
    monkeypatch.setattr(spec, "current_format", 2)
    monkeypatch.setitem(spec.migrations, 1, lambda body: {**body, "added": {"by": "migration"}})
    project = loads_project(HEADER + "\n[btree]\nseed = 3\n")
    assert project.header.format == 2 and project.migrated_from == 1
    assert project.body == {"btree": {"seed": 3}, "added": {"by": "migration"}}


def test_missing_migration_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(KINDS["btree"], "current_format", 3)
    with pytest.raises(ProjectError, match="no migration from format 1"):
        loads_project(HEADER)


def test_kind_validation_error_is_located(monkeypatch: pytest.MonkeyPatch) -> None:
    def validate(body: dict) -> None:
        if body["node"][1]["type"] != "order":
            raise ProjectError("unknown node type", field_path=("node", 1, "type"))

    monkeypatch.setattr(KINDS["btree"], "validate", validate)
    text = HEADER + '\n[[node]]\ntype = "order"\n\n[[node]]\ntype = "orderr"\n'
    with pytest.raises(ProjectError) as info:
        loads_project(text, Path("t.toml"))
    assert info.value.line == 10 and info.value.file == Path("t.toml")


def test_not_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(HEADER.encode() + b'\n[x]\ns = "caf\xe9"\n')
    with pytest.raises(ProjectError) as info:
        load_project(path)
    assert info.value.line == 7 and "UTF-8" in info.value.message


def test_unreadable_paths(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="no such file"):
        load_project(tmp_path / "nope.toml")
    with pytest.raises(ProjectError, match="folder"):
        load_project(tmp_path)


def test_save_is_atomic_and_keeps_one_backup(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    project = new_project("btree", "One")
    save_project(project, path)
    first = path.read_bytes()
    assert not backup_path(path).exists()
    project.header.name = "Two"
    save_project(project)
    assert backup_path(path).read_bytes() == first
    assert b'name = "Two"' in path.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.toml", "p.toml.bak"]


def test_failed_save_leaves_the_file_and_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "p.toml"
    project = new_project("btree", "One")
    save_project(project, path)
    before = path.read_bytes()

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    project.header.name = "Two"
    with pytest.raises(ProjectError, match="No space left"):
        save_project(project)
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_save_without_path_is_an_error() -> None:
    with pytest.raises(ProjectError, match="no file"):
        save_project(new_project("haunted", "X"))


def test_writer_layout() -> None:
    text = dumps(
        {
            "project": {"kind": "btree", "name": "N", "format": 1},
            "node": [{"at": [0], "lhs": {"main": "a b\nc d\n"}}],
            "rules": [{"id": 1, "tiles": [{"col": 2}]}],
            "odd key": {"x": 1},
        }
    )
    assert 'lhs.main = """\na b\nc d\n"""' in text
    assert "\n  [[rules.tiles]]\n  col = 2\n" in text
    assert '\n["odd key"]\nx = 1\n' in text
    assert text.endswith("x = 1\n")


def test_writer_escapes_what_must_be_escaped() -> None:
    value = 'quote " """ back\\slash tab\t bell\x07 del\x7f\r\n'
    document = {"t": {"multi": value, "one": value.strip()}}
    text = dumps(document)
    assert parse_toml(text) == document
    assert dumps(parse_toml(text)) == text


def test_locate_field_finds_nested_array_entries() -> None:
    text = dumps({"a": [{"b": [{"c": 1}, {"c": 2}]}, {"b": [{"c": 3}]}], "t": {"k": {"x": 1}}})
    lines = text.splitlines()
    assert lines[locate_field(text, ("a", 1, "b", 0, "c")) - 1].strip() == "c = 3"
    assert lines[locate_field(text, ("t", "k", "x")) - 1] == "k.x = 1"
    assert lines[locate_field(text, ("t", "missing")) - 1] == "[t]"


def test_scan_folder_lists_projects_and_broken_files(games_with_broken: Path) -> None:
    (games_with_broken / "notes.txt").write_text("not a project")
    (games_with_broken / ".hidden.toml").write_text("x")
    entries = scan_folder(games_with_broken)
    assert [e.name for e in entries] == ["Boulder Sketch", "broken", "Maze Runner", "Spooky Cup"]
    broken = entries[1]
    assert broken.project is None and broken.error is not None and broken.error.line == 6
    assert broken.kind is None and entries[0].kind == "tilecode"


def test_scan_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="no such folder"):
        scan_folder(tmp_path / "nope")


def test_slug_and_free_names(tmp_path: Path) -> None:
    assert slug("  Hello, World! ") == "hello-world"
    assert slug("???") == "project"
    a = create_project(tmp_path, "btree", "Same")
    b = create_project(tmp_path, "btree", "Same")
    assert (a.path.name, b.path.name) == ("same.toml", "same-2.toml")


def test_duplicate_rename_and_trash(tmp_path: Path) -> None:
    original = create_project(tmp_path, "tilecode", "Rocks")
    copy = duplicate_project(original.path, "Rocks II")
    assert copy.path == tmp_path / "rocks-ii.toml"
    assert load_project(copy.path).body == load_project(original.path).body
    renamed = rename_project(copy.path, "Pebbles")
    assert renamed.path == tmp_path / "pebbles.toml" and not (tmp_path / "rocks-ii.toml").exists()
    assert load_project(renamed.path).name == "Pebbles"
    same_file = rename_project(renamed.path, "PEBBLES")
    assert same_file.path == renamed.path
    first = move_to_trash(original.path)
    assert first == tmp_path / ".trash" / "rocks.toml" and not original.path.exists()
    again = create_project(tmp_path, "tilecode", "Rocks")
    second = move_to_trash(again.path)
    assert second.parent == first.parent and second != first and first.exists()


def test_rename_to_bad_name_changes_nothing(tmp_path: Path) -> None:
    project = create_project(tmp_path, "btree", "Keep")
    before = project.path.read_bytes()
    with pytest.raises(ProjectError):
        rename_project(project.path, "   ")
    assert project.path.read_bytes() == before


def test_generic_summary_counts() -> None:
    assert kinds_module.generic_summary({"node": [1, 2], "btree": {"a": 1}, "x": 3}) == {
        "node": 2,
        "btree": "1 key",
    }


def test_renaming_a_tilecode_project_takes_its_replays_along(tmp_path: Path) -> None:
    from studio import cli
    from studio.storage.tilecode.replay import load_replay, project_changed

    walker = create_project(tmp_path, "tilecode", "Walker")
    # walkerx-best is a replay of walker whose name only starts like it: it keeps its name.
    for name in ("walker.tcreplay.toml", "walker-20260101-120000.tcreplay.toml",
                 "walkerx-best.tcreplay.toml"):
        assert cli.main(["run", str(walker.path), "--inputs", "right", "--save-replay",
                         str(tmp_path / name)]) == 0
    other = create_project(tmp_path, "tilecode", "Other")
    assert cli.main(["run", str(other.path), "--save-replay",
                     str(tmp_path / "other.tcreplay.toml")]) == 0
    renamed = rename_project(walker.path, "Hiker")
    names = sorted(p.name for p in tmp_path.glob("*.tcreplay.toml"))
    assert names == ["hiker-20260101-120000.tcreplay.toml", "hiker.tcreplay.toml",
                     "other.tcreplay.toml", "walkerx-best.tcreplay.toml"]
    for name in names[:2] + names[3:]:
        replay = load_replay(tmp_path / name)
        assert replay.project == "hiker.toml"
        assert not project_changed(replay, load_project(renamed.path))  # a name is no edit
    assert load_replay(tmp_path / "other.tcreplay.toml").project == "other.toml"


def test_renaming_takes_the_backup_along(tmp_path: Path) -> None:
    # The .bak kept the old name: a file of a project that no longer existed.
    project = create_project(tmp_path, "btree", "Keep")
    save_project(project, project.path)  # a second save: the first version is the .bak
    assert (tmp_path / "keep.toml.bak").exists()
    rename_project(project.path, "Kept")
    assert (tmp_path / "kept.toml.bak").exists() and not (tmp_path / "keep.toml.bak").exists()
