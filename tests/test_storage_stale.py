"""The stale-save check: a save never silently overwrites a file changed since it was read."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import (
    StaleFileError, backup_path, create_project, file_sha256, load_project, save_project,
)


@pytest.fixture
def project_file(tmp_path: Path) -> Path:
    return create_project(tmp_path, "tilecode", "Shared").path


def test_load_and_save_remember_the_bytes_on_disk(project_file: Path) -> None:
    project = load_project(project_file)
    assert project.disk_sha256 == file_sha256(project_file)
    project.header.name = "Renamed inside"
    save_project(project, check_stale=True)
    assert project.disk_sha256 == file_sha256(project_file)
    project.header.name = "Renamed again"
    save_project(project, check_stale=True)  # its own save is not someone else's change
    assert load_project(project_file).name == "Renamed again"


def test_a_file_changed_by_someone_else_is_not_overwritten(project_file: Path) -> None:
    mine = load_project(project_file)
    theirs = load_project(project_file)
    theirs.header.name = "Theirs"
    save_project(theirs, check_stale=True)
    their_text = project_file.read_text(encoding="utf-8")
    mine.header.name = "Mine"
    with pytest.raises(StaleFileError) as info:
        save_project(mine, check_stale=True)
    assert not info.value.missing and info.value.file == project_file
    assert "changed on disk" in info.value.message and "reload" in info.value.hint
    assert project_file.read_text(encoding="utf-8") == their_text
    # Overwriting is the user's explicit choice: without the check the save goes through.
    save_project(mine)
    assert load_project(project_file).name == "Mine"
    assert 'name = "Theirs"' in backup_path(project_file).read_text(encoding="utf-8")


def test_a_deleted_file_is_reported_as_missing_and_save_as_still_works(project_file: Path) -> None:
    project = load_project(project_file)
    project_file.unlink()
    with pytest.raises(StaleFileError) as info:
        save_project(project, check_stale=True)
    assert info.value.missing and "deleted or renamed" in info.value.message
    assert not project_file.exists()
    other = project_file.with_name("elsewhere.toml")
    save_project(project, other, check_stale=True)  # a new target is never stale
    assert load_project(other).name == "Shared" and project.path == other


def test_a_project_never_loaded_from_disk_is_never_stale(tmp_path: Path) -> None:
    project = load_project(create_project(tmp_path, "btree", "Fresh").path)
    project.disk_sha256 = None
    project.path.write_text(project.path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    project.header.name = "Fresh start"
    save_project(project, check_stale=True)  # nothing read, so nothing to be stale against
    assert load_project(project.path).name == "Fresh start"
