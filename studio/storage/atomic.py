"""Atomic file replacement with one backup, so that a crash or a full disk never loses a project."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

BACKUP_SUFFIX = ".bak"


def backup_path(path: Path) -> Path:
    """Where the previous version of ``path`` is kept: ``NAME.toml.bak``."""
    return path.with_name(path.name + BACKUP_SUFFIX)


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not every platform can open a folder, which is fine.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write(path: Path, data: bytes, backup: bool = True) -> None:
    """Replace ``path`` with ``data`` so that readers see the old file or the new one, never half.

    The data goes to a temporary file in the same folder, is flushed to disk, and is renamed over
    the target. With ``backup``, an existing target is first copied to :func:`backup_path`.
    """
    path = Path(path)
    folder = path.parent
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            with contextlib.suppress(OSError):
                shutil.copymode(path, tmp)
            if backup:
                shutil.copy2(path, backup_path(path))
        else:
            os.chmod(tmp, 0o644)  # mkstemp's 0600 would surprise people sharing a games folder
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(folder)
