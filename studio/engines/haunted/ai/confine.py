"""Worker-side hardening, applied before any AI code runs (spec haunted.md §8.1).

Standard library only (imported by the worker by path). Python and JavaScript workers go through
the same steps, while the worker still has a single thread (V8 starts its threads later):

1. resource limits (memory, CPU backstop, open files, file size, no core dumps);
2. new network and IPC namespaces: only a loopback interface that is down, so nothing is
   reachable, and System V shared memory, semaphores and queues that die with the worker.
   Both need ``CAP_SYS_ADMIN``, so a worker not started by root first enters a new user
   namespace (``CLONE_NEWUSER``), where it has that capability;
3. every capability dropped: the bounding and ambient sets, then (after 4) the effective,
   permitted and inheritable sets;
4. as root, a switch to a uid of its own: root is exempt from ``RLIMIT_NPROC`` and owns most
   files; a fresh uid is bounded by the process limit and owns nothing but the temp folder;
5. ``RLIMIT_NPROC`` (after the user namespace, which counts processes per namespace);
6. Landlock (with ``no_new_privs``): read only the language runtime, the AI's own source and the
   worker's own ``/proc`` entry; change files only in the temp folder; no TCP;
7. a seccomp filter: no new Unix-domain socket (a named one is reached through the file system,
   where Landlock does not govern ``connect``).
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys

try:
    from . import landlock, privileges, seccomp
except ImportError:  # run by path inside the worker, where this folder is on sys.path
    import landlock  # type: ignore[no-redef]
    import privileges  # type: ignore[no-redef]
    import seccomp  # type: ignore[no-redef]

_CLONE_NEWIPC = 0x08000000
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
SYSTEM_READABLE = ("/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime",
                   "/proc/cpuinfo", "/sys/devices/system/cpu", "/dev/null", "/dev/urandom")
"""Shared libraries and the few system files a runtime asks for; public on any machine. Not
``/etc`` as a whole, not ``/home``, ``/root``, ``/tmp`` or ``/proc`` of other processes."""


def set_limits(memory_mb: int, cpu_seconds: int, files: int = 64, file_mb: int = 1,
               data_mb: int = 0) -> None:
    """Resource limits that hold for the worker and anything it starts.

    Args:
        memory_mb: address-space cap; 0 leaves it alone (V8 reserves about 1.4 TB of address
            space for its sandbox, so a JavaScript worker is capped with ``data_mb`` instead).
        cpu_seconds: CPU-time backstop (the host's wall-clock limit acts first).
        files: most open file descriptors.
        file_mb: largest file the worker may write.
        data_mb: ``RLIMIT_DATA``, the writable private memory the process may map: the V8 heap,
            ``ArrayBuffer`` contents and every other allocation alike; 0 leaves it alone.
    """
    limits = [(resource.RLIMIT_CPU, cpu_seconds), (resource.RLIMIT_NOFILE, files),
              (resource.RLIMIT_FSIZE, file_mb << 20), (resource.RLIMIT_CORE, 0)]
    if memory_mb:
        limits.append((resource.RLIMIT_AS, memory_mb << 20))
    if data_mb:
        limits.append((resource.RLIMIT_DATA, data_mb << 20))
    for which, value in limits:
        _lower(which, value)


def _lower(which: int, value: int) -> None:
    _soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def runtime_folders(extra: list[str]) -> list[str]:
    """The folders a runtime reads after confinement: the standard library (this interpreter's
    ``sys.path``, which ``-I -S`` limits to it), this worker's own folder, and ``extra`` (the
    mini-racer package, or the studio for a built-in AI that uses it)."""
    here = os.path.dirname(os.path.abspath(__file__))
    folders = [path for path in sys.path if path and os.path.isdir(path)]
    return list(dict.fromkeys(folders + [here] + [path for path in extra if path]))


def confine(workdir: str, processes: int, readable: list[str], source: str = "",
            parent: int = 0) -> tuple[bool, str]:
    """Cut the network, private IPC, drop every privilege, bound processes, apply Landlock.

    Args:
        workdir: the worker's private temp folder (the only writable place).
        processes: ``RLIMIT_NPROC``; 1 means the AI can start no process or thread.
        readable: folders the runtime needs (from :func:`runtime_folders`).
        source: the AI's own file, readable so tracebacks can quote its lines.
        parent: the studio's pid, to die with it (the uid switch clears that setting).

    Returns:
        ``(True, summary)`` when fully confined, else ``(False, reason)`` naming what is missing.
    """
    missing: list[str] = []
    root = os.geteuid() == 0
    ns_error = new_namespaces(root)
    if ns_error:
        missing.append(f"network and System V IPC shared with the studio ({ns_error})")
    # The temp folder too: under a folder the fresh uid cannot pass (a TMPDIR in root's home,
    # pytest's 0700 folders) its path is out of reach after the switch, and every worker died.
    held = privileges.hold_folders([*readable, workdir])
    try:
        privileges.drop_bounding_set()
        if root:
            privileges.become_own_uid(workdir)
        privileges.clear_capabilities()
    except OSError as exc:
        if root or not ns_error:  # otherwise there is nothing to drop: an ordinary user's
            missing.append(f"keeps the studio's privileges ({exc.strerror})")
    privileges.die_with_parent(parent)
    usable = privileges.reachable(held)
    writable = usable.pop(workdir, workdir)
    sys.path[:] = [usable.get(path, path) for path in sys.path]
    _lower(resource.RLIMIT_NPROC, processes)
    own = [f"/proc/{os.getpid()}", source] if source else [f"/proc/{os.getpid()}"]
    allowed = list(usable.values()) + list(SYSTEM_READABLE) + own
    abi, ll_error = landlock.restrict(writable, allowed)
    if ll_error:
        missing.append(f"reads and writes files with the worker's rights ({ll_error})")
    if not root and not any(path.startswith("/proc/self/fd/")
                            for path in [writable, *usable.values()]):
        # The id maps are written: hand our /proc files to root, or another session of the same
        # user (whose jail lets it write in /proc for its own workers) could write this one's
        # oom_score_adj, clear_refs or coredump_filter. A root studio's worker has a uid of its
        # own instead, and must stay dumpable to reach its held folders through /proc/self/fd.
        privileges.undumpable()
    privileges.no_new_privs()  # set by Landlock already where it ran; seccomp needs it too
    sc_error = seccomp.refuse_unix_sockets()
    if sc_error:
        missing.append(f"may connect to Unix sockets others can write to ({sc_error})")
    if missing:
        return False, "; ".join(missing)
    net = "netns" + (" + Landlock TCP rules" if abi >= 4 else "")
    return True, (f"Landlock ABI {abi} (reads only its runtime and source, writes only in its "
                  f"temp folder), {net}, no Unix sockets, own IPC namespace, no capabilities")


def new_namespaces(root: bool) -> str:
    """Step 2: new network and IPC namespaces (first a user namespace, not as root); returns
    why they could not be made, empty when they were. The probe tries this in a child."""
    libc = ctypes.CDLL(None, use_errno=True)
    if root and libc.unshare(_CLONE_NEWNET | _CLONE_NEWIPC) == 0:
        return ""
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET | _CLONE_NEWIPC) != 0:
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
