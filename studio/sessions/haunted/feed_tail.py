"""Reading a live feed as it grows, from any process (issue 30): the lines appended since the last
read, and nothing else. Bounded and tolerant by construction:

- a line longer than ``MAX_LINE_BYTES`` is dropped unread (and counted), however it arrives;
- a half-written last line waits for its end;
- a missing file is waited for; a file replaced (a new run) or cut shorter is read afresh;
- at most ``CHUNK`` bytes are read per call, so a huge backlog is taken in steps and a caller
  polling from a UI never stalls on one read.

What the lines say is :mod:`studio.sessions.haunted.watch`'s business.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from studio.sessions.haunted.feed import MAX_LINE_BYTES

CHUNK = 1024 * 1024
"""Bytes read per call at most."""


class FeedTail:
    """The new complete lines of one feed file at each :meth:`read`."""

    def __init__(self, path: Path, max_line: int = MAX_LINE_BYTES, chunk: int = CHUNK) -> None:
        self.path = Path(path)
        self.max_line = max_line
        self.chunk = chunk
        self._fd: int | None = None
        self._identity: tuple[int, int] | None = None
        self._offset = 0
        self._partial = b""
        self._skipping = False
        """Inside a line already too long: dropped up to its end."""
        self.too_long = 0
        """Lines dropped for their length."""
        self.restarts = 0
        """Times the file was replaced or cut (a new run began)."""
        self.restarted = False
        """The last :meth:`read` began a new file: what was read before is of another run."""
        self._more = False

    @property
    def file(self) -> tuple[Path, int, int] | None:
        """The file read now: path, device and inode (None while waiting for it)."""
        return None if self._identity is None or self._fd is None else (self.path, *self._identity)

    @property
    def more(self) -> bool:
        """The last read stopped at ``chunk`` bytes: more is there already, without a new write."""
        return self._more

    @property
    def waiting(self) -> bool:
        """No feed file yet."""
        return self._fd is None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _open(self) -> bool:
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return False
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):  # a FIFO or a device would block or never end
            os.close(fd)
            return False
        self.close()
        self._fd, self._identity = fd, (found.st_dev, found.st_ino)
        self._offset, self._partial, self._skipping = 0, b"", False
        return True

    def _replaced(self) -> bool:
        """The path now names another file, or ours was cut shorter than what was read."""
        assert self._fd is not None
        try:
            now = os.stat(self.path)
        except OSError:
            return False  # removed: what is left of the open file is still read to its end
        if (now.st_dev, now.st_ino) != self._identity:
            return True
        return os.fstat(self._fd).st_size < self._offset

    def read(self) -> list[bytes]:
        """The complete lines added since the last call (without their newlines)."""
        self.restarted = self._more = False
        if self._fd is None or self._replaced():
            had = self._fd is not None
            if not self._open():
                return []
            self.restarted = True
            self.restarts += had
        assert self._fd is not None
        os.lseek(self._fd, self._offset, os.SEEK_SET)  # not pread: Windows has none
        data = os.read(self._fd, self.chunk)
        self._offset += len(data)
        self._more = len(data) == self.chunk
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            piece = data[start:end]
            start = end + 1
            if self._skipping:
                self._skipping = False  # the end of the line that was too long
                continue
            line = self._partial + piece
            self._partial = b""
            if len(line) > self.max_line:
                self.too_long += 1
                continue
            lines.append(line)
        rest = data[start:]
        if not self._skipping:
            self._partial += rest
            if len(self._partial) > self.max_line:
                self.too_long += 1
                self._partial, self._skipping = b"", True
        return lines
