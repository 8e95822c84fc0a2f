"""Landlock around a served session's studio: it writes only in the served folder (and its own
temp folder), reads only that and what Python and the studio are made of.

The studio's own path rule (``studio.storage.served``) refuses every path outside the folder with
a reason; this is the wall behind it, applied by the session's first code before any thread
starts, so nothing the session does later (a bug, a hostile file) reaches another file. What it
cannot do: hide a file *inside* the folder (Landlock only grants), so the server's own files are
kept from a session by the path rule alone, and the README says to keep them elsewhere.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from studio.engines.haunted.ai import landlock
from studio.engines.haunted.ai.confine import SYSTEM_READABLE

_SESSION_READABLE = ("/proc", "/dev/null", "/dev/urandom", "/dev/zero", "/etc/localtime",
                     "/etc/ld.so.cache", "/etc/nsswitch.conf", "/etc/passwd", "/etc/group")
"""Beyond the shared libraries: ``/proc`` (a process's own status, the descendants the studio
ends), the name-service files ``getpass``/``pwd`` read for the user's name. ``/etc/passwd``
names accounts and holds no secret (shadow passwords); a session may still not *open* it
through the studio, whose path rule refuses it.

A studio that is not root may also *write* in ``/proc``: its AI workers enter a user namespace
and must write their own ``uid_map`` (a root studio's workers switch uid instead, and a root
process writing ``/proc/sys`` is exactly what must not happen). Other processes' entries stay
out of reach: Landlock lets a confined process trace, or open the ``/proc`` memory of, only
processes confined at least as tightly, and file permissions keep the rest."""


def package_folder() -> Path:
    """The ``studio`` package this process runs."""
    import studio

    return Path(studio.__file__).resolve().parent


def python_folders() -> list[str]:
    """The interpreter's install, its standard library and site-packages (every ``sys.path``
    folder but the current one, which an import must not look in)."""
    folders = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(sys.executable)}
    folders.update(path for path in sys.path if path and os.path.isdir(path))
    return sorted(folders)


def readable_folders(package: Path) -> list[str]:
    """What a session may read besides its folder: Python, the studio package, system files.

    The folder holding the package (a checkout, or site-packages) is in ``sys.path`` through
    ``PYTHONPATH``; it is left to :func:`listable_folders` unless it is Python's own, so a
    checkout's other files (tests, a key someone left there) are not readable.
    """
    holder = str(package.parent)
    pythons = [path for path in python_folders() if path != holder]
    return [str(package), *pythons, *SYSTEM_READABLE, *_SESSION_READABLE]


def confine(root: Path, temp: Path | None) -> tuple[int, str]:
    """Apply Landlock to this process: ``root`` and ``temp`` writable, the rest read-only.

    Returns:
        ``(abi, "")`` when confined, ``(0, reason)`` when Landlock is missing or failed.
    """
    package = package_folder()
    # /dev/null: a worker's stderr goes there (opened for writing by the studio).
    writable = [str(root), "/dev/null"] + ([str(temp)] if temp is not None else [])
    rules = [] if os.geteuid() == 0 else [("/proc", landlock.READ_ONLY | landlock.WRITE_FILE
                                             | landlock.TRUNCATE)]
    return landlock.restrict(writable, readable_folders(package), listable=[str(package.parent)],
                             rules=rules)


_PR_SET_DUMPABLE = 4


def undumpable() -> bool:
    """Hand this process's ``/proc`` entries to root: a process that is not dumpable has its
    ``/proc/PID`` files owned by root, so a session of the same user (which, under a server not
    run by root, may write in ``/proc`` for its AI workers' id maps) can no longer write the
    server's or another session's ``oom_score_adj``, ``clear_refs`` or ``coredump_filter``. The
    process keeps its own ``/proc/self`` (the kernel lets a process see its own descriptors),
    and what it starts is dumpable again after ``exec``, as its AI workers must be to write
    their own id map. No core dumps either, which could hold another session's data.

    Returns:
        Whether the kernel took it (False off Linux).
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    return ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) == 0


def availability() -> str:
    """What a session's confinement will be, for the server's start line."""
    abi = landlock.abi_version()
    if abi < 1:
        return ("not confined by Landlock (the kernel has none: Linux 5.13+ with landlock in the "
                "LSM list); sessions are held to the folder by the studio's own path checks only")
    return f"confined with Landlock ABI {abi} to the folder (and Python, the studio, read-only)"
