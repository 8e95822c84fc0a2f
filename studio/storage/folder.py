"""A folder of projects: listing, creating, duplicating, renaming and moving to the trash."""

from __future__ import annotations

import re
import shutil
import stat
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from studio.storage import served
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
from studio.storage.listing import (  # noqa: F401  (ProjectEntry, folder_stamp: once here)
    REPLAY_SUFFIX,
    SUFFIX,
    TRASH,
    ProjectEntry,
    file_stat,
    folder_files,
    folder_stamp,
    is_replay_name,
    sort_entries,
)
from studio.storage.tilecode.replay import load_replay, project_sha256, save_replay
from studio.storage.trrbt_files import sniff_trrbt




def scan_folder(folder: str | Path) -> list[ProjectEntry]:
    """Every project file directly in ``folder``, sorted by name; broken files carry their error.

    trrbt game files (``.yaml``, ``.yml``, ``.json`` whose head has a ``tree``) are listed too,
    with ``trrbt`` set: they can be imported. Other files of those suffixes are left out.
    Behaviour-tree replays (``NAME.btreplay.json``) are listed with ``btreplay`` set.

    TileCode replays (``NAME.tcreplay.toml``) are listed too, with ``replay`` set. So is whatever
    else is named ``*.toml`` but cannot be read (a FIFO, a device, a dangling link, a file too big
    or too deep): listed with its error, never raised, since one bad file must not hide the rest
    of the folder, nor end the studio (over SSH, the session) as it starts. Folders named
    ``*.toml`` are not projects and are left out.

    Raises:
        ProjectError: ``folder`` is not a folder, or cannot be listed.
    """
    tomls, trrbts, btreplays = folder_files(Path(folder))
    entries = [entry for path in tomls if (entry := _entry(path)) is not None]
    entries += [entry for path in trrbts if (entry := _trrbt_entry(path)) is not None]
    entries += [entry for path in btreplays if (entry := _btreplay_entry(path)) is not None]
    return sort_entries(entries)


def _entry(path: Path) -> ProjectEntry | None:
    info = file_stat(path)
    if info is None or stat.S_ISDIR(info.st_mode):
        return None
    size = info.st_size if stat.S_ISREG(info.st_mode) else 0
    entry = ProjectEntry(path, size, info.st_mtime)
    try:
        if is_replay_name(path):
            entry.replay = load_replay(path)
        else:
            entry.project = load_project(path)
    except ProjectError as exc:
        entry.error = exc
    except Exception as exc:  # noqa: BLE001 - a reader's bug must not take the list down with it
        entry.error = ProjectError(f"the studio failed reading it ({type(exc).__name__}: {exc})",
                                   file=path, hint="please report this as a bug of the studio")
    return entry


def _trrbt_entry(path: Path) -> ProjectEntry | None:
    """A trrbt game to import, or None for any other file of its suffixes (a ``.json`` of
    settings, a FIFO): those are not the studio's, so they are not listed as broken."""
    info = file_stat(path)
    if info is None or not stat.S_ISREG(info.st_mode):
        return None
    try:
        name = sniff_trrbt(path)
    except ProjectError:
        return None
    if name is None:
        return None
    return ProjectEntry(path, info.st_size, info.st_mtime, trrbt=name)


def _btreplay_entry(path: Path) -> ProjectEntry | None:
    """A behaviour-tree replay, loaded (a small, bounded file), or listed with its error."""
    from studio.storage.btree.replay import load_replay as load_btreplay

    info = file_stat(path)
    if info is None or stat.S_ISDIR(info.st_mode):
        return None
    entry = ProjectEntry(path, info.st_size if stat.S_ISREG(info.st_mode) else 0, info.st_mtime)
    try:
        entry.btreplay = load_btreplay(path)
    except ProjectError as exc:
        entry.error = exc
    return entry


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


def create_project(folder: str | Path, kind: str, name: str, template: str = "empty") -> Project:
    """Write a new project of ``kind`` (from ``template``) into ``folder``; returns it with its
    path set."""
    project = new_project(kind, name, template)
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
    served.inside(path, "the delete", write=True)
    trash = served.make_folder(path.parent / TRASH, parents=False)
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
