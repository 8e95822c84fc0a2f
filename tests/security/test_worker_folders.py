"""Worker temp folders left behind are swept, and nothing else is (the issue on untrusted code:
an attacker in /tmp may plant names and links there).

A folder named ``studio-ai-<pid>-…`` goes when its studio is gone. Earlier studios named theirs
``studio-ai-XXXXXXXX`` (no pid); those go when they are real folders of this user (for root, also
of its workers' uids), a day untouched. A link is never followed, named like a folder or inside one.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from studio.engines.haunted.ai import spawn
from studio.engines.haunted.ai.privileges import WORKER_UIDS

DAY = 24 * 3600
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="handing a folder to another uid "
                               "(chown) needs root")


def aged(path: Path, seconds: float) -> Path:
    """``path`` as last changed ``seconds`` ago (its own times, not a link's target's)."""
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)
    return path


def old_style(tmp: Path, name: str = "studio-ai-k63l9o7u", age: float = 2 * DAY) -> Path:
    folder = tmp / name
    folder.mkdir()
    (folder / "scratch").mkdir()
    (folder / "scratch" / "notes.txt").write_text("left by a worker")
    return aged(folder, age)


def test_an_old_style_folder_a_day_old_is_removed_and_a_young_one_kept(tmp_path: Path) -> None:
    old = old_style(tmp_path)
    young = old_style(tmp_path, "studio-ai-eb1t_vgw", age=3600)
    assert spawn.sweep_stale(str(tmp_path)) == [str(old)]
    assert not old.exists() and young.is_dir()
    assert spawn.OLD_STYLE_AGE == DAY


@pytest.mark.parametrize("name", ["studio-ai-k63l9o7", "studio-ai-k63l9o7uu", "studio-ai-K63L9O7U",
                                  "studio-ai-k63l9o7u.bak", "xstudio-ai-k63l9o7u",
                                  "studio-ai-k63l-o7u"])
def test_only_the_exact_old_pattern_counts(tmp_path: Path, name: str) -> None:
    folder = old_style(tmp_path, name)
    assert spawn.sweep_stale(str(tmp_path)) == []
    assert folder.is_dir()


def test_a_link_named_like_an_old_folder_is_left_alone_and_so_is_its_target(
        tmp_path: Path) -> None:
    tmp, target = tmp_path / "tmp", tmp_path / "precious"
    tmp.mkdir()
    target.mkdir()
    (target / "keep.txt").write_text("not the studio's")
    aged(target, 2 * DAY)
    link = tmp / "studio-ai-a1b2c3d4"
    link.symlink_to(target, target_is_directory=True)
    aged(link, 2 * DAY)
    (tmp / "studio-ai-zzzzzzzz").write_text("a file, not a folder")
    aged(tmp / "studio-ai-zzzzzzzz", 2 * DAY)
    assert spawn.sweep_stale(str(tmp)) == []
    assert link.is_symlink() and (target / "keep.txt").read_text() == "not the studio's"
    assert (tmp / "studio-ai-zzzzzzzz").is_file()


def test_removing_an_old_folder_never_follows_a_link_inside_it(tmp_path: Path) -> None:
    tmp, outside = tmp_path / "tmp", tmp_path / "home"
    tmp.mkdir()
    outside.mkdir()
    (outside / "keys").write_text("secret")
    folder = old_style(tmp)
    (folder / "scratch" / "out").symlink_to(outside, target_is_directory=True)
    aged(folder, 2 * DAY)
    assert spawn.sweep_stale(str(tmp)) == [str(folder)]
    assert (outside / "keys").read_text() == "secret"


@ROOT_ONLY
def test_an_old_folder_of_another_uid_is_left_alone(tmp_path: Path) -> None:
    folder = old_style(tmp_path)
    os.chown(folder, 65534, 65534)
    aged(folder, 2 * DAY)
    assert spawn.sweep_stale(str(tmp_path)) == []
    assert (folder / "scratch" / "notes.txt").exists()


@ROOT_ONLY
def test_as_root_an_old_folder_handed_to_a_worker_uid_is_removed(tmp_path: Path) -> None:
    # As root, earlier studios too gave each worker's folder to the worker's own uid.
    folder = old_style(tmp_path)
    uid = WORKER_UIDS.start + 4242
    os.chown(folder, uid, uid)
    aged(folder, 2 * DAY)
    assert spawn.sweep_stale(str(tmp_path)) == [str(folder)]


def test_a_folder_of_a_gone_studio_goes_at_once_and_a_running_one_s_stays(tmp_path: Path) -> None:
    gone = tmp_path / "studio-ai-999999999-abcd1234"  # above any pid_max
    mine = tmp_path / f"studio-ai-{os.getpid()}-abcd1234"
    gone.mkdir()
    mine.mkdir()
    assert spawn.sweep_stale(str(tmp_path)) == [str(gone)]
    assert mine.is_dir()


@ROOT_ONLY
def test_a_gone_studio_s_folder_of_another_user_is_left_alone(tmp_path: Path) -> None:
    # In the shared temp folder anyone may make a folder named like a dead studio's: root's
    # sweep must not remove another user's files for the name alone.
    planted = tmp_path / "studio-ai-999999999-abcd1234"
    planted.mkdir()
    (planted / "thesis.txt").write_text("another user's work")
    os.chown(planted, 65534, 65534)
    assert spawn.sweep_stale(str(tmp_path)) == []
    assert (planted / "thesis.txt").exists()


def test_a_link_named_like_a_gone_studio_s_folder_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("kept")
    (tmp_path / "studio-ai-999999999-abcd1234").symlink_to(target)
    assert spawn.sweep_stale(str(tmp_path)) == []
    assert (target / "keep.txt").exists()
