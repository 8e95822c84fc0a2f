"""A seccomp filter refusing new Unix-domain sockets (standard library only, run by path).

A network namespace cuts IP, and Landlock scopes abstract Unix sockets, but a *named* Unix socket
is reached through the file system and Landlock (up to ABI 7) does not govern ``connect`` on it:
a worker could talk to any socket whose file mode lets everyone write (measured: a confined AI
connected to a 0777 socket in a folder anyone may enter). An AI needs no new Unix socket, so
``socket(AF_UNIX, …)`` fails with EACCES, and so does every system call of another ABI
(x32, or 32-bit calls from machine code an AI could run through ctypes), which could name
``socket`` by another number. ``socketpair`` stays allowed: it reaches nothing
outside the process, and asyncio makes one for its own wake-ups.
"""

from __future__ import annotations

import ctypes
import platform

_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_AF_UNIX = 1
_EACCES = 13
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_X32_BIT = 0x40000000  # x86_64's x32 ABI numbers: refused outright
_LD_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ARCHES = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}
"""machine → (AUDIT_ARCH_*, number of ``socket``)."""


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(_Instruction))]


def refuse_unix_sockets() -> str:
    """Install the filter on this thread and those it starts later (needs ``no_new_privs``).

    Returns:
        ``""`` on success, else why it could not be installed.
    """
    machine = platform.machine()
    if machine not in _ARCHES:
        return f"no seccomp filter for {machine}"
    arch, socket_nr = _ARCHES[machine]
    deny, allow = _RET_ERRNO | _EACCES, _RET_ALLOW
    code = [
        (_LD_ABS, 0, 0, 4),            # 0: the architecture
        (_JEQ, 0, 5, arch),            # 1: another one (a 32-bit call via int 0x80) → 7 deny
        (_LD_ABS, 0, 0, 0),            # 2: the system call number
        (_JGE, 3, 0, _X32_BIT),        # 3: x32 → 7 deny
        (_JEQ, 0, 3, socket_nr),       # 4: not socket() → 8 allow
        (_LD_ABS, 0, 0, 16),           # 5: its first argument (low half): the domain
        (_JEQ, 0, 1, _AF_UNIX),        # 6: not AF_UNIX → 8 allow
        (_RET, 0, 0, deny),            # 7
        (_RET, 0, 0, allow),           # 8
    ]
    if platform.architecture()[0] != "64bit":
        return "no seccomp filter for a 32-bit interpreter"
    instructions = (_Instruction * len(code))(*code)
    program = _Program(len(code), instructions)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) != 0:
        import os  # noqa: PLC0415

        return f"seccomp: {os.strerror(ctypes.get_errno())}"
    return ""
