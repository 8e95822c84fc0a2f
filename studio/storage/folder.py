"""A folder of projects: listing, creating, duplicating, renaming and moving to the trash."""

from __future__ import annotations

import re
import shutil
import time
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from studio.storage.atomic import backup_path
from studio.storage.errors import ProjectError
from studio.storage.project import (
    FileTakenError,
    Project,
    load_project,
    new_project,
    save_project,
    validate_name,
)
from studio.storage.tilecode.replay import REPLAY_SUFFIX, is_replay_name, load_replay, \
    project_sha256, save_replay

if TYPE_CHECKING:
    from studio.engines.tilecode.replay import Replay

TRASH = ".trash"
"""Deleted projects go to this folder inside the projects folder; nothing is deleted outright."""
SUFFIX = ".toml"


@dataclass
class ProjectEntry:
    """One ``.toml`` file of a folder, loaded or not: a project, or a TileCode replay."""

    path: Path
    size: int
    modified: float
    project: Project | None = None
    error: ProjectError | None = None
    replay: Replay | None = None
    """Set for ``NAME.tcreplay.toml`` files, which are recordings, not projects."""

    @property
    def name(self) -> str:
        if self.project:
            return self.project.name
        return self.path.name.removesuffix(REPLAY_SUFFIX) + " (replay)" if \
            is_replay_name(self.path) else self.path.stem

    @property
    def kind(self) -> str | None:
        return self.project.kind if self.project else None


def scan_folder(folder: str | Path) -> list[ProjectEntry]:
    """Every project file directly in ``folder``, sorted by name; broken files carry their error.

    TileCode replays (``NAME.tcreplay.toml``) are listed too, with ``replay`` set.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ProjectError("no such folder", file=folder, hint="create it or pick another folder")
    entries = []
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        if path.name.startswith(".") or not path.is_file():
            continue
        stat = path.stat()
        entry = ProjectEntry(path, stat.st_size, stat.st_mtime)
        try:
            if is_replay_name(path):
                entry.replay = load_replay(path)
            else:
                entry.project = load_project(path)
        except ProjectError as exc:
            entry.error = exc
        entries.append(entry)
    entries.sort(key=lambda e: (e.name.casefold(), e.path.name))
    return entries


def slug(name: str) -> str:
    """A file-name stem for a project name: lower case, words joined by ``-``."""
    text = re.sub(r"[^\w]+", "-", name.strip().casefold(), flags=re.UNICODE).strip("-_")
    return text or "project"


def free_path(folder: Path, name: str) -> Path:
    """``folder/slug(name).toml``, numbered when taken."""
    stem = slug(name)
    candidate = folder / f"{stem}{SUFFIX}"
    number = 2
    while candidate.exists():
        candidate = folder / f"{stem}-{number}{SUFFIX}"
        number += 1
    return candidate


def save_new(project: Project, folder: Path) -> Path:
    """Save ``project`` as a new file named after it in ``folder``, never over another file.

    Two sessions creating "Maze" at once get ``maze.toml`` and ``maze-2.toml``, not one file
    written twice: the name is taken atomically, and taken again if someone was faster.
    """
    for _ in range(100):
        try:
            return save_project(project, free_path(folder, project.name), exclusive=True)
        except FileTakenError:
            continue
    raise ProjectError("cannot find a free file name", file=folder, hint="tidy the folder")


def create_project(folder: str | Path, kind: str, name: str) -> Project:
    """Write a new project of ``kind`` into ``folder``; returns it with its path set."""
    project = new_project(kind, name)
    save_new(project, Path(folder))
    return project


def duplicate_project(path: str | Path, new_name: str) -> Project:
    """Copy a project under a new name beside the original."""
    project = load_project(path)
    project.header.name = validate_name(new_name)
    project.path = None
    save_new(project, Path(path).parent)
    return project


def rename_project(path: str | Path, new_name: str) -> Project:
    """Give a project a new name and a file name to match; the old file name is freed."""
    path = Path(path)
    project = load_project(path)
    before = project_sha256(project)
    project.header.name = validate_name(new_name)
    if slug(project.name) == slug(path.stem):
        save_project(project, path, check_stale=True)
    else:
        new_path = save_new(project, path.parent)
        # Another session may have moved it meanwhile: the renamed copy is saved, which counts.
        path.unlink(missing_ok=True)
        _follow_replays(path, new_path, before, project_sha256(project))
        old_backup, new_backup = backup_path(path), backup_path(new_path)
        if old_backup.exists() and not new_backup.exists():
            old_backup.rename(new_backup)  # the previous version goes with the project
    return project


def _follow_replays(old: Path, new: Path, old_sha: str, new_sha: str) -> None:
    """Point the TileCode replays of ``old`` at ``new`` (renamed along with it when named after
    it): the viewer finds a replay's project by file name, and a rename left them orphaned.

    A replay recorded on the project as it was keeps matching it (the name is not a change to
    the game); one recorded on an earlier version still reports that.
    """
    for found in sorted(old.parent.glob(f"*{REPLAY_SUFFIX}")):
        try:
            recorded = load_replay(found)
        except ProjectError:
            continue
        if recorded.project != old.name:
            continue
        sha = new_sha if recorded.project_sha256 == old_sha else recorded.project_sha256
        target = found
        rest = found.name[len(old.stem):]
        if found.name.startswith(old.stem) and rest[:1] in ("-", "."):
            renamed = found.with_name(new.stem + rest)
            target = found if renamed.exists() else renamed
        try:
            save_replay(replace(recorded, project=new.name, project_sha256=sha), target)
        except ProjectError:
            continue  # a read-only replay stays as it was: the project is renamed regardless
        if target != found:
            found.unlink(missing_ok=True)


def move_to_trash(path: str | Path) -> Path:
    """Move a project file (broken or not) to the folder's trash; returns where it went."""
    path = Path(path)
    trash = path.parent / TRASH
    trash.mkdir(exist_ok=True)
    target = trash / path.name
    if target.exists():
        stamp = datetime.fromtimestamp(time.time()).strftime("%Y%m%d-%H%M%S")
        target = trash / f"{path.stem}.{stamp}{path.suffix}"
        number = 2
        while target.exists():
            target = trash / f"{path.stem}.{stamp}-{number}{path.suffix}"
            number += 1
    try:
        shutil.move(str(path), str(target))
    except OSError as exc:
        raise ProjectError(f"cannot move to the trash: {exc.strerror or exc}", file=path) from None
    return target
