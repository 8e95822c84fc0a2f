"""File permissions through the save path: a save keeps the file's mode, a new file gets the
mode any program would give it (0666 less the umask), and a backup is as private as its file."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from studio.storage import (
    atomic_write, backup_path, create_project, load_project, save_new, save_project,
)
from studio.storage import atomic

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask() -> Iterator[Callable[[int], int]]:
    """Set the process umask for the test; the one before is put back."""
    before = os.umask(0o022)
    yield os.umask
    os.umask(before)


@pytest.mark.parametrize("kept", [0o600, 0o640, 0o664, 0o604])
def test_a_save_keeps_the_files_mode_and_gives_it_to_the_backup(
        tmp_path: Path, umask, kept: int) -> None:
    path = create_project(tmp_path, "tilecode", "Private").path
    path.chmod(kept)
    project = load_project(path)
    project.header.name = "Still private"
    save_project(project, check_stale=True)
    assert load_project(path).name == "Still private"  # the file was replaced, not rewritten
    assert mode(path) == kept
    assert mode(backup_path(path)) == kept


def test_a_backup_made_before_the_file_turned_private_turns_private_too(
        tmp_path: Path, umask) -> None:
    path = create_project(tmp_path, "btree", "Secret").path
    save_project(load_project(path))
    assert mode(backup_path(path)) == 0o644
    path.chmod(0o600)
    save_project(load_project(path))
    assert mode(backup_path(path)) == 0o600


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o077, 0o600),
                                                (0o002, 0o664), (0o027, 0o640)])
def test_new_files_get_0666_less_the_umask(tmp_path: Path, umask, mask: int,
                                           expected: int) -> None:
    umask(mask)
    created = create_project(tmp_path, "haunted", "Cup").path  # exclusive: new, save as
    copy = load_project(created)
    copy.header.name = "Cup copy"
    new = save_new(copy, tmp_path)
    plain = save_project(load_project(created), tmp_path / "plain.toml")  # a new target
    replay = tmp_path / "replay.json"
    atomic_write(replay, b"{}")  # replays and AI files are written the same way
    assert [mode(p) for p in (created, new, plain, replay)] == [expected] * 4
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_save_does_not_take_the_umask_for_an_existing_file(tmp_path: Path, umask) -> None:
    path = create_project(tmp_path, "tilecode", "Shared").path
    path.chmod(0o664)
    umask(0o077)
    save_project(load_project(path))
    assert mode(path) == 0o664


def test_without_proc_the_umask_is_read_and_put_back(umask,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def no_proc(*args, **kwargs):
        raise FileNotFoundError("/proc/self/status")

    monkeypatch.setattr(atomic, "open", no_proc, raising=False)
    umask(0o027)
    assert atomic.new_file_mode() == 0o640
    assert umask(0o022) == 0o027  # reading it left it as it was
