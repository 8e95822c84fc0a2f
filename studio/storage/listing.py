"""What a folder of projects holds, told apart by name and by a glance at each file's head.

:func:`glance_folder` lists the folder as :func:`studio.storage.folder.scan_folder` will, from
each project's ``[project]`` header alone: the home screen's first frame shows it while the
folder is read in full (every file parsed and validated against its kind, which loads each
kind's engine) in a thread. Nothing here loads a kind: this module is on the first frame's path.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from studio.storage import served
from studio.storage.errors import ProjectError
from studio.storage.reading import read_head
from studio.storage.trrbt_files import BTREPLAY_SUFFIX, sniff_trrbt, trrbt_paths

if TYPE_CHECKING:
    from studio.engines.tilecode.replay import Replay
    from studio.storage.btree.replay import BtreeReplay
    from studio.storage.project import Project

SUFFIX = ".toml"
TRASH = ".trash"
"""Deleted projects go to this folder inside the projects folder; nothing is deleted outright."""
REPLAY_SUFFIX = ".tcreplay.toml"
"""A TileCode replay: TOML, beside its game, but not a project."""
HEADER_BYTES = 4096
"""How much of a project file a glance reads: the writer puts ``[project]`` first."""

_HEADER = re.compile(r"^[ \t]*\[[ \t]*project[ \t]*\][ \t]*(?:#[^\n]*)?$", re.MULTILINE)
_NEXT_TABLE = re.compile(r"^[ \t]*\[", re.MULTILINE)


def is_replay_name(name: str | Path) -> bool:
    """Is this a TileCode replay's file name (``NAME.tcreplay.toml``, any case)?"""
    return str(name).lower().endswith(REPLAY_SUFFIX)


@dataclass
class ProjectEntry:
    """One file of a folder, loaded or not: a project, a replay, or a trrbt game to import.

    An entry from :func:`glance_folder` is ``pending``: only its header was read (``header``:
    the project's name and kind as it says), and a full read of the folder replaces it.
    """

    path: Path
    size: int
    modified: float
    project: Project | None = None
    error: ProjectError | None = None
    replay: Replay | None = None
    """Set for ``NAME.tcreplay.toml`` files, which are recordings, not projects."""
    btreplay: BtreeReplay | None = None
    """Set for a behaviour-tree game's saved play (``NAME.btreplay.json``)."""
    trrbt: str | None = None
    """Set for a trrbt game file (``.yaml``, ``.yml``, ``.json``), which can be imported: the
    game's name as the file's head gives it ("" when it names none)."""
    pending: bool = False
    """Only glanced at: not parsed nor validated yet (:func:`glance_folder`)."""
    header: tuple[str, str] | None = None
    """(name, kind) as a pending project's header gives them, when it could be read."""

    @property
    def name(self) -> str:
        if self.project:
            return self.project.name
        if self.header is not None:
            return self.header[0]
        if self.trrbt is not None:
            return self.trrbt or self.path.stem
        if self.path.name.endswith(BTREPLAY_SUFFIX):
            return self.path.name[: -len(BTREPLAY_SUFFIX)] + " (replay)"
        return self.path.name.removesuffix(REPLAY_SUFFIX) + " (replay)" if \
            is_replay_name(self.path) else self.path.stem

    @property
    def label(self) -> str:
        """The entry in a list of the folder: its name, but a trrbt game's file name. After an
        import the game and its project share a name, and two rows reading "dungeon" looked like
        one project listed twice; the file name says which row is the source to import."""
        return self.path.name if self.trrbt is not None else self.name

    @property
    def kind(self) -> str | None:
        if self.project:
            return self.project.kind
        return self.header[1] if self.header is not None else None

    @property
    def is_tcreplay(self) -> bool:
        return self.replay is not None or (self.pending and is_replay_name(self.path))

    @property
    def is_btreplay(self) -> bool:
        return self.btreplay is not None or (self.pending and
                                             self.path.name.endswith(BTREPLAY_SUFFIX))


def folder_files(folder: Path) -> tuple[list[Path], list[Path], list[Path]]:
    """The folder's project and TileCode replay files (``*.toml``), trrbt games and behaviour-
    tree replays, each sorted, hidden ones left out: what both listings look at.

    Raises:
        ProjectError: ``folder`` is not a folder, or cannot be listed.
    """
    if not folder.is_dir():
        raise ProjectError("no such folder", file=folder, hint="create it or pick another folder")
    try:
        # The server's own files are not a served session's to see, even kept in the folder.
        tomls = sorted(path for path in folder.glob(f"*{SUFFIX}")
                       if not path.name.startswith(".") and not served.is_hidden(path))
        replays = sorted(path for path in folder.glob(f"*{BTREPLAY_SUFFIX}")
                         if not path.name.startswith("."))
    except OSError as exc:
        raise ProjectError(f"cannot list the folder: {exc.strerror or exc}", file=folder) from None
    return tomls, trrbt_paths(folder), replays


def file_stat(path: Path) -> os.stat_result | None:
    """The file's status, or the link's own when it points nowhere; None when it is gone."""
    try:
        return path.stat()
    except OSError:
        try:
            return path.lstat()
        except OSError:
            return None


def folder_stamp(folder: str | Path) -> tuple[tuple[str, int, int], ...]:
    """Names, sizes and change times of the folder's listed files: what :func:`scan_folder`
    depends on, so a screen can tell whether to read the folder again."""
    try:
        groups = folder_files(Path(folder))
    except ProjectError:
        return ()
    stamps = []
    for paths in groups:
        for path in paths:
            info = file_stat(path)
            if info is not None:
                stamps.append((path.name, info.st_size, info.st_mtime_ns))
    return tuple(sorted(stamps))


def sort_entries(entries: list[ProjectEntry]) -> list[ProjectEntry]:
    entries.sort(key=lambda e: (e.label.casefold(), e.path.name))
    return entries


def glance_folder(folder: str | Path) -> list[ProjectEntry]:
    """The folder as :func:`studio.storage.folder.scan_folder` lists it, from heads alone.

    Each ``*.toml`` gives the name and kind its ``[project]`` header states (in the first
    :data:`HEADER_BYTES`), trrbt games their sniffed name; replays are named by their file.
    Nothing is parsed past the header nor validated: every entry is ``pending``. A file that
    cannot be glanced at is listed by its file name, as the full read will list it if it is
    broken.

    Raises:
        ProjectError: ``folder`` is not a folder, or cannot be listed.
    """
    tomls, trrbts, btreplays = folder_files(Path(folder))
    entries = []
    for path in tomls:
        info = file_stat(path)
        if info is None or stat.S_ISDIR(info.st_mode):
            continue
        size = info.st_size if stat.S_ISREG(info.st_mode) else 0
        header = None if is_replay_name(path) else _header(path)
        entries.append(ProjectEntry(path, size, info.st_mtime, pending=True, header=header))
    for path in trrbts:
        info = file_stat(path)
        if info is None or not stat.S_ISREG(info.st_mode):
            continue
        try:
            name = sniff_trrbt(path)
        except ProjectError:
            continue
        if name is not None:
            entries.append(ProjectEntry(path, info.st_size, info.st_mtime, trrbt=name,
                                        pending=True))
    for path in btreplays:
        info = file_stat(path)
        if info is not None and not stat.S_ISDIR(info.st_mode):
            size = info.st_size if stat.S_ISREG(info.st_mode) else 0
            entries.append(ProjectEntry(path, size, info.st_mtime, pending=True))
    return sort_entries(entries)


def _header(path: Path) -> tuple[str, str] | None:
    """(name, kind) from the ``[project]`` table in the file's head, or None."""
    try:
        head = read_head(path, HEADER_BYTES).decode("utf-8", errors="replace")
    except ProjectError:
        return None
    found = _HEADER.search(head)
    if found is None:
        return None
    end = _NEXT_TABLE.search(head, found.end())
    if end is None and len(head) == HEADER_BYTES:
        return None  # the table may run on past what was read
    table = head[found.end(): end.start() if end else len(head)]
    if "\ufffd" in table:
        return None  # not UTF-8 (or cut inside a character): the full read will say
    import tomllib  # noqa: PLC0415  (a few ms, once the first project is glanced at)

    try:
        values = tomllib.loads(table)
    except tomllib.TOMLDecodeError:
        return None
    name, kind = values.get("name"), values.get("kind")
    if isinstance(name, str) and isinstance(kind, str):
        return name, kind
    return None
