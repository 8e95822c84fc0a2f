"""Landlock through ctypes: files may be read only in named places and changed only in one folder.

Standard library only: the worker imports this module by path before any AI code runs. Landlock
(Linux 5.13+) is an unprivileged, stackable LSM, so a worker can lock itself down without root.
Each feature is used only where the kernel's ABI version has it:

- ABI 1: file-system rights (create, write, remove ...); ABI 2: ``REFER``; ABI 3: ``TRUNCATE``;
- ABI 4: TCP bind/connect rules (no rule given, so all TCP bind/connect is denied);
- ABI 5: device ``ioctl``; ABI 6: scoping of signals and abstract unix sockets.
"""

from __future__ import annotations

import ctypes
import os
import platform

# New system calls share one number on every architecture (since Linux 5.x).
_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_ABI1_FS = (1 << 13) - 1  # EXECUTE .. MAKE_SYM
_REFER, TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_TRUNCATE = TRUNCATE
_NET_BIND_TCP, _NET_CONNECT_TCP = 1, 2
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1, 2

READ_ONLY = EXECUTE | READ_FILE | READ_DIR
_FILE_READ = EXECUTE | READ_FILE  # a rule on a file (not a folder) may not name READ_DIR
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | _TRUNCATE | _IOCTL_DEV
SIMULATE_MISSING = "STUDIO_SIMULATE_MISSING"
"""Environment variable: a comma-separated list of features to report absent (``landlock``),
so the studio's behaviour without them can be tried on a kernel that has them."""


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed: 12 bytes
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 when Landlock is missing or disabled."""
    if platform.system() != "Linux" or "landlock" in simulated_missing():
        return 0
    try:
        version = _libc().syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                                  ctypes.c_uint32(_CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(int(version), 0)


def simulated_missing() -> set[str]:
    """Features the environment asks to treat as absent (see :data:`SIMULATE_MISSING`)."""
    return {name.strip() for name in os.environ.get(SIMULATE_MISSING, "").split(",") if name}


def _fs_rights(abi: int) -> int:
    rights = _ABI1_FS
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    if abi >= 5:
        rights |= _IOCTL_DEV
    return rights


def restrict(writable: str | list[str], readable: list[str], listable: list[str] = (),
             rules: list[tuple[str, int]] = ()) -> tuple[int, str]:
    """Lock this thread (and threads and processes it starts later) down; irreversible.

    Args:
        writable: the only folder (or folders) where files may be created, written, truncated
            or removed (and read).
        readable: folders (with everything beneath them) and single files that may be read;
            nothing else can be. Paths that do not exist are left out.
        listable: folders whose names may be listed (not their files read): an import looks
            for a package in the folder that holds it.
        rules: other ``(folder, rights)`` pairs, rights from this module's constants.

    Returns:
        ``(abi, "")`` on success, ``(0, reason)`` when Landlock is unavailable or failed.
    """
    abi = abi_version()
    if abi < 1:
        return 0, "the kernel has no Landlock (Linux 5.13+ with landlock in the LSM list)"
    libc = _libc()
    fs = _fs_rights(abi)
    attr = _RulesetAttr(fs=fs, net=0, scoped=0)
    size = 8
    if abi >= 4:
        attr.net, size = _NET_BIND_TCP | _NET_CONNECT_TCP, 16
    if abi >= 6:
        attr.scoped, size = _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL, 24
    ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        return 0, f"landlock_create_ruleset failed: {os.strerror(ctypes.get_errno())}"
    try:
        for path in readable:
            if os.path.exists(path):
                rights = READ_ONLY if os.path.isdir(path) else _FILE_READ
                error = _allow(libc, ruleset, path, rights)
                if error:
                    return 0, error
        for path, rights in [*((path, READ_DIR) for path in listable), *rules]:
            if os.path.isdir(path):
                error = _allow(libc, ruleset, path, rights & fs)
                if error:
                    return 0, error
        for path in [writable] if isinstance(writable, str) else writable:
            # A file (``/dev/null``) takes only the rights a file has; a folder takes them all.
            error = _allow(libc, ruleset, path, fs if os.path.isdir(path) else fs & _FILE_RIGHTS)
            if error:
                return 0, error
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return 0, f"prctl(NO_NEW_PRIVS) failed: {os.strerror(ctypes.get_errno())}"
        if libc.syscall(_SYS_RESTRICT_SELF, ctypes.c_int(int(ruleset)), ctypes.c_uint32(0)) != 0:
            return 0, f"landlock_restrict_self failed: {os.strerror(ctypes.get_errno())}"
    finally:
        os.close(int(ruleset))
    return abi, ""


def _allow(libc: ctypes.CDLL, ruleset: int, path: str, rights: int) -> str:
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        rule = _PathBeneath(allowed=rights, parent_fd=fd)
        if libc.syscall(_SYS_ADD_RULE, ctypes.c_int(int(ruleset)), ctypes.c_int(_RULE_PATH_BENEATH),
                        ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
            return f"landlock_add_rule({path}) failed: {os.strerror(ctypes.get_errno())}"
    finally:
        os.close(fd)
    return ""
