"""Worker-side privilege handling: capabilities, the uid switch, dying with the studio.

Standard library only (imported by the worker by path, beside ``confine``). Every call here is
per thread in the kernel (capabilities, the parent-death signal), so the worker makes them while
it still has a single thread: V8's threads are started afterwards and inherit the result.
"""

from __future__ import annotations

import ctypes
import os
import signal

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_CAP_VERSION_3 = 0x20080522
_UID_BASE = 0x40000000  # far above any real account; one uid per worker pid
WORKER_UIDS = range(_UID_BASE, _UID_BASE + (1 << 22))
"""The uids a root studio's workers run under: one per worker pid (``pid_max`` is at most
2**22). A worker's temp folder is handed to its uid, so those folders are the studio's too."""
PARENT_GONE_EXIT = 3
"""Exit code of a worker whose studio was gone before it could tie its life to the studio's."""


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _fail(call: str) -> OSError:
    errno = ctypes.get_errno()
    return OSError(errno, f"{call}: {os.strerror(errno)}")


def die_with_parent(parent: int) -> None:
    """Be killed when the studio process ends, however it ends (SIGKILL included).

    The kernel sends the signal when the *thread* that started us ends, which is why the studio
    starts workers from a thread that lives as long as it does. A uid switch clears the setting,
    so this is called again after it. If the studio was already gone when we got here (we were
    adopted), nobody will ever read our answers: leave at once.
    """
    if _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise _fail("prctl(PR_SET_PDEATHSIG)")
    if parent and os.getppid() != parent:
        os._exit(PARENT_GONE_EXIT)


def no_new_privs() -> None:
    """No exec from now on may grant privileges (set-uid files, file capabilities)."""
    if _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise _fail("prctl(PR_SET_NO_NEW_PRIVS)")


def last_capability() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as file:
            return int(file.read())
    except (OSError, ValueError):
        return 63  # dropping a capability the kernel does not know fails harmlessly


def drop_bounding_set() -> None:
    """Remove every capability from the bounding set and the ambient set: no later exec or
    uid change can bring one back. Needs CAP_SETPCAP (root, or any process in its own user
    namespace); call before :func:`clear_capabilities`."""
    libc = _libc()
    for cap in range(last_capability() + 1):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() != 22:
            raise _fail(f"prctl(PR_CAPBSET_DROP, {cap})")
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)  # EINVAL before 4.3: none


def clear_capabilities() -> None:
    """Empty the effective, permitted and inheritable sets of this thread."""
    header = _CapHeader(_CAP_VERSION_3, 0)
    data = (_CapData * 2)((0, 0, 0), (0, 0, 0))
    if _libc().capset(ctypes.byref(header), data) != 0:
        raise _fail("capset")


def become_own_uid(workdir: str) -> int:
    """As root, switch to a fresh uid and gid with no supplementary groups; returns the uid.

    Root is exempt from ``RLIMIT_NPROC`` and owns most files; a fresh uid owns only the temp
    folder and has no other process to signal or trace. The switch clears the permitted and
    effective capabilities (no ``PR_SET_KEEPCAPS``).
    """
    uid = _UID_BASE + os.getpid()
    os.chown(workdir, uid, uid)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    # A uid change makes the process non-dumpable, which hands /proc/self to root (mode 0500
    # for fd/): the worker could no longer use the folder handles of :func:`reachable`.
    # Nothing else runs under this uid, so nobody gains a way to trace it.
    _libc().prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)
    return uid


def undumpable() -> None:
    """Not dumpable: this process's ``/proc`` files belong to root from now on (and no core
    dumps); it still reads its own."""
    _libc().prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def hold_folders(paths: list[str]) -> dict[str, int]:
    """Open each folder (before the uid switch) so it can still be reached after it.

    A Python installed under root's home (pyenv: ``/root/.pyenv``, mode 0700) cannot be reached
    by the fresh uid; a handle opened before the switch can, through ``/proc/self/fd/N``
    (following that link skips the checks on the folders above). Rights inside the folder
    stay those of the fresh uid, and Landlock still decides what may be read.
    """
    held = {}
    for path in paths:
        try:
            held[path] = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            pass
    return held


def reachable(held: dict[str, int]) -> dict[str, str]:
    """After the switch: each held folder's usable path (itself, or its handle's path); the
    handles of folders that are reachable anyway are closed."""
    usable = {}
    for path, fd in held.items():
        if os.access(path, os.R_OK | os.X_OK):
            os.close(fd)
            usable[path] = path
        else:
            usable[path] = f"/proc/self/fd/{fd}"
    return usable
