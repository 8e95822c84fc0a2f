"""Being woken when a live feed grows, rather than looking at it ten times a second (issue 30).

A spectator that polls its feed pays for every look, and is up to a poll behind each turn: thirty
spectators over SSH spent a sixth of a core looking at a feed that had not changed, and saw a turn
late, or two at once (one of them never drawn), when a write fell just after a look. On Linux an
inotify watch on the feed file makes a descriptor readable when the file is written to, replaced
or removed; the screen adds it to its event loop and reads the feed then. Elsewhere, or where the
kernel refuses (no inotify, a confinement without it, the watch limit reached), :func:`open_wake`
gives None and the caller polls as before: the wake only makes following faster, never required.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path

IN_MODIFY = 0x002
IN_ATTRIB = 0x004
IN_CLOSE_WRITE = 0x008
IN_MOVE_SELF = 0x800
IN_DELETE_SELF = 0x400
IN_NONBLOCK = os.O_NONBLOCK
IN_CLOEXEC = 0o2000000
WATCHED = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_DELETE_SELF
"""Written to, cut (attributes), replaced (moved over) or removed: each is a reason to look."""

_libc: ctypes.CDLL | None | bool = False  # False: not looked for yet


def _inotify() -> ctypes.CDLL | None:
    global _libc
    if _libc is False:
        _libc = None
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
                libc.inotify_init1.argtypes = [ctypes.c_int]
                libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
                libc.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
                _libc = libc
            except (OSError, AttributeError):
                _libc = None
    return _libc  # type: ignore[return-value]


class FeedWake:
    """A descriptor that becomes readable when the watched file changes."""

    def __init__(self, fd: int, libc: ctypes.CDLL) -> None:
        self._fd = fd
        self._libc = libc
        self.watched: tuple[Path, int, int] | None = None
        """The file watched now: its path, device and inode (a new run's file is another)."""
        self._watch = -1

    def fileno(self) -> int:
        return self._fd

    def watch(self, file: tuple[Path, int, int] | None) -> bool:
        """Watch ``file`` (path, device, inode) instead of what was watched (None: nothing);
        False when the kernel refused (the caller then polls that file)."""
        if file == self.watched and (file is None or self._watch >= 0):
            return True
        if self._watch >= 0:
            self._libc.inotify_rm_watch(self._fd, self._watch)  # gone already is harmless
            self._watch = -1
        self.watched = file
        if file is None:
            return True
        self._watch = self._libc.inotify_add_watch(self._fd, os.fsencode(file[0]), WATCHED)
        return self._watch >= 0

    def drain(self) -> bool:
        """Read the events waiting (their content does not matter: any is a reason to look);
        True when there was one."""
        woken = False
        while True:
            try:
                data = os.read(self._fd, 4096)
            except OSError:  # BlockingIOError: all read
                return woken
            if not data:
                return woken
            woken = True

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def open_wake() -> FeedWake | None:
    """A wake, or None where this system cannot give one (then poll)."""
    libc = _inotify()
    if libc is None:
        return None
    fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
    if fd < 0:
        return None
    return FeedWake(fd, libc)
