"""Worker-side hardening, applied before any AI code is loaded (spec haunted.md §8.1).

Standard library only (imported by the worker by path). The order matters:

1. resource limits (address space, CPU backstop, open files, file size, no core dumps);
2. a new network namespace: only a loopback interface that is down, so nothing is reachable;
   ``CLONE_NEWNET`` needs ``CAP_SYS_ADMIN``, so an unprivileged worker first enters a new user
   namespace (``CLONE_NEWUSER``) where it has that capability;
3. as root, a switch to a uid of its own: root ignores ``RLIMIT_NPROC`` and may write anywhere,
   a fresh unused uid is bounded by the process limit and owns nothing but the temp folder;
4. ``RLIMIT_NPROC`` (after the user namespace, which counts processes per namespace);
5. Landlock: read anywhere, change files only in the temp folder, no TCP.
"""

from __future__ import annotations

import ctypes
import os
import resource

try:
    from . import landlock
except ImportError:  # run by path inside the worker, where this folder is on sys.path
    import landlock  # type: ignore[no-redef]

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_UID_BASE = 0x40000000  # far above any real account; one uid per worker pid


def set_limits(memory_mb: int, cpu_seconds: int, files: int = 64, file_mb: int = 1) -> None:
    """Resource limits that hold for the worker and anything it starts.

    Args:
        memory_mb: address-space cap; 0 leaves it alone (V8 reserves huge virtual ranges).
        cpu_seconds: CPU-time backstop (the host's wall-clock limit acts first).
        files: most open file descriptors.
        file_mb: largest file the worker may write.
    """
    limits = [(resource.RLIMIT_CPU, cpu_seconds), (resource.RLIMIT_NOFILE, files),
              (resource.RLIMIT_FSIZE, file_mb << 20), (resource.RLIMIT_CORE, 0)]
    if memory_mb:
        limits.append((resource.RLIMIT_AS, memory_mb << 20))
    for which, value in limits:
        _lower(which, value)


def _lower(which: int, value: int) -> None:
    _soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def confine(workdir: str, processes: int) -> tuple[bool, str]:
    """Cut the network, drop root, bound processes and apply Landlock.

    Args:
        workdir: the worker's private temp folder (the only writable place).
        processes: ``RLIMIT_NPROC``; 1 means the AI can start no process or thread.

    Returns:
        ``(True, summary)`` when fully confined, else ``(False, reason)`` naming what is missing.
    """
    missing: list[str] = []
    root = os.geteuid() == 0
    net_error = _new_netns(root)
    if net_error:
        missing.append(f"network open ({net_error})")
    if root:
        try:
            _become_own_uid(workdir)
        except OSError as exc:
            missing.append(f"runs as root, processes unbounded ({exc.strerror})")
    _lower(resource.RLIMIT_NPROC, processes)
    abi, ll_error = landlock.restrict(workdir)
    if ll_error:
        missing.append(f"files writable with the user's rights ({ll_error})")
    if missing:
        return False, "; ".join(missing)
    net = "netns" + (" + Landlock TCP rules" if abi >= 4 else "")
    return True, f"Landlock ABI {abi} (writes only in its temp folder), {net}"


def _new_netns(root: bool) -> str:
    libc = ctypes.CDLL(None, use_errno=True)
    if root and libc.unshare(_CLONE_NEWNET) == 0:
        return ""
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
        return f"unshare: {os.strerror(ctypes.get_errno())}"
    # Map our own ids so files in the temp folder can still be created (unmapped ids cannot).
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
    except OSError as exc:
        return f"user namespace id map: {exc.strerror}"
    return ""


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as file:
        file.write(text)


_PR_SET_KEEPCAPS = 8
_CAP_VERSION_3 = 0x20080522
_CAP_DAC_READ_SEARCH = 2


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _become_own_uid(workdir: str) -> None:
    """Switch to a fresh uid, keeping only the right to read what root could read.

    The standard library may live under root's home (pyenv: ``/root/.pyenv``, mode 700), so a
    plain switch would break ``import``. ``CAP_DAC_READ_SEARCH`` keeps reads working (Landlock
    still forbids writes) without the capabilities that exempt a process from ``RLIMIT_NPROC``.
    """
    uid = _UID_BASE + os.getpid()
    os.chown(workdir, uid, uid)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_KEEPCAPS) failed")
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    keep = 1 << _CAP_DAC_READ_SEARCH
    header, data = _CapHeader(_CAP_VERSION_3, 0), (_CapData * 2)((keep, keep, 0), (0, 0, 0))
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")
    libc.prctl(_PR_SET_KEEPCAPS, 0, 0, 0, 0)

