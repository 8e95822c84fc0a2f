"""History and Document: unlimited undo of model snapshots, dirty tracking, the save path."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import (
    ProjectError,
    StaleFileError,
    create_project,
    load_project,
    save_project,
)
from studio.widgets.document import Document
from studio.widgets.history import History


def test_undo_and_redo_walk_the_snapshots() -> None:
    history = History("a")
    history.record("to b", "b")
    history.record("to c", "c")
    assert history.model == "c" and history.undo_label == "to c" and len(history) == 2
    assert history.undo().label == "to c" and history.model == "b"
    assert history.undo().label == "to b" and history.model == "a"
    assert history.undo() is None and not history.can_undo
    assert history.redo().after == "b" and history.redo_label == "to c"
    history.record("to d", "d")  # a new edit forgets what was undone
    assert not history.can_redo and history.model == "d"


def test_an_edit_that_changes_nothing_is_not_recorded() -> None:
    history = History((1, 2))
    assert history.record("same", (1, 2)) is None and not history.can_undo


def test_a_stroke_collapses_into_one_entry_until_it_ends() -> None:
    history = History(0)
    for value in (1, 2, 3):
        history.record("paint", value, merge_key="stroke")
    assert len(history) == 1 and history.undo().before == 0
    history.redo()
    history.end_merge()
    history.record("paint", 4, merge_key="stroke")
    assert len(history) == 2 and history.undo().before == 3


def test_history_is_unlimited() -> None:
    history = History(0)
    for value in range(1, 5001):
        history.record("step", value)
    while history.undo():
        pass
    assert history.model == 0


@pytest.fixture
def document(tmp_path: Path) -> Document[str]:
    project = load_project(create_project(tmp_path, "btree", "Doc").path)
    return Document(project, lambda p: p.name, lambda name: project.body)


def test_dirty_follows_the_saved_version_through_undo_and_redo(document: Document[str]) -> None:
    seen: list[str] = []
    unsubscribe = document.subscribe(seen.append)
    assert not document.dirty
    document.edit("rename", "Other")
    assert document.dirty
    document.save()
    assert not document.dirty
    document.undo()
    assert document.dirty
    document.redo()
    assert not document.dirty
    unsubscribe()
    document.edit("again", "Third")
    assert seen == ["edit", "save", "undo", "redo"]


def test_save_refuses_a_stale_file_and_reload_keeps_the_edit_undoable(
        document: Document[str]) -> None:
    other = load_project(document.path)
    other.header.name = "Changed elsewhere"
    save_project(other)
    document.edit("rename", "Mine")
    with pytest.raises(StaleFileError):
        document.save()
    assert document.dirty and document.model == "Mine"
    document.reload()
    assert document.model == "Changed elsewhere" and not document.dirty
    assert document.name == "Changed elsewhere"
    assert document.undo().after == "Changed elsewhere" and document.model == "Mine"
    assert document.name == "Doc"  # the title's name goes back with the body
    document.redo()
    assert document.name == "Changed elsewhere"
    document.undo()
    document.save(overwrite=True)
    assert not document.dirty


def test_a_failed_save_keeps_the_model_and_the_file(document: Document[str],
                                                    tmp_path: Path) -> None:
    before = document.path.read_bytes()
    document.edit("rename", "Mine")
    with pytest.raises(ProjectError):
        document.save_as(tmp_path / "no-such-folder" / "x.toml")
    assert document.dirty and document.model == "Mine" and document.path.read_bytes() == before
