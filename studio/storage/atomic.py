"""Atomic file replacement with one backup, so that a crash or a full disk never loses a project."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from studio.storage import served

BACKUP_SUFFIX = ".bak"


def backup_path(path: Path) -> Path:
    """Where the previous version of ``path`` is kept: ``NAME.toml.bak``."""
    return path.with_name(path.name + BACKUP_SUFFIX)


def _link_new(tmp: Path, path: Path) -> None:
    """Give ``tmp`` the name ``path`` only if no such file exists (a hard link fails if it does)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:
        # No hard links here (some network or FAT file systems): check, then rename.
        if path.exists():
            raise FileExistsError(errno.EEXIST, "File exists", str(path)) from None
        os.replace(tmp, path)


def new_file_mode() -> int:
    """The mode ``open()`` gives a new file: 0666 less the umask (0644 under the usual 022).

    mkstemp makes 0600, and a fixed 0644 would ignore what the user asked for: a umask of 077
    keeps their files private, one of 002 shares a group's games folder for writing.
    """
    with contextlib.suppress(OSError, ValueError):
        # Linux shows the umask without changing it; setting it, the only other way, would
        # briefly change it for files other threads are creating.
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not every platform can open a folder, which is fine.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``folder`` (``flock`` on the folder itself).

    Saves take it around "is the file still the one I read?" and the rename, so two sessions
    saving the same project at the same instant cannot both pass the check and the second write
    over the first. No lock file is left behind; where folders cannot be locked (no ``fcntl``, or
    a file system that refuses) saves go ahead unlocked, as before.
    """
    fd = None
    try:
        import fcntl

        fd = os.open(folder, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)
    except (ImportError, OSError):
        pass
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # closing releases the lock


def atomic_write(path: Path, data: bytes, backup: bool = True, exclusive: bool = False) -> None:
    """Replace ``path`` with ``data`` so that readers see the old file or the new one, never half.

    The data goes to a temporary file in the same folder, is flushed to disk, and is renamed over
    the target. With ``backup``, an existing target is first copied to :func:`backup_path`.

    Permissions: a replaced file keeps its mode, and so does its backup (a private file's old
    version stays private); a new file gets :func:`new_file_mode`. The temporary file is 0600
    until then, so the data is never readable by more people than the file it becomes.

    In a served session the target must be inside the served folder (:mod:`studio.storage.served`):
    it is checked before anything is written, the temporary file's descriptor is checked again
    (a folder of the path swapped for a link meanwhile), and the rename never follows a link.

    Raises:
        FileExistsError: with ``exclusive``, ``path`` exists (checked atomically: two sessions
            creating the same new file cannot both succeed).
        ProjectError: a served session's ``path`` leads outside its folder; nothing is written.
    """
    given = Path(path)
    if served.served_root() is not None:
        served.inside(given, "the save", write=True)  # a link there may not lead out
        path = served.inside(given.parent, "the save", write=True, folder=True) / given.name
    folder = path.parent
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        try:
            served.verify_open(fd, given, "the save", write=True)
        except BaseException:
            os.close(fd)
            raise
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if exclusive:
            os.chmod(tmp, new_file_mode())
            _link_new(tmp, path)
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()  # the new name stays; the temporary one goes
        else:
            if path.exists():
                with contextlib.suppress(OSError):
                    shutil.copymode(path, tmp)
                if backup:
                    shutil.copy2(path, backup_path(path))
            else:
                os.chmod(tmp, new_file_mode())
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(folder)
