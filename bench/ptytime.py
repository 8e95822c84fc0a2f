"""Time a program from its start to a frame on a real pseudo-terminal (shared by the benches).

``first_frame(argv, texts)`` starts ``argv`` on a new pty of the given size, reads what it draws
into a pyte screen, and returns the seconds from just before the start until every one of
``texts`` is on that screen (and the processor time the program used by then); then it hangs up
the terminal and ends the program's process group.
No Textual test harness is involved: the program sees a terminal, as it would in a person's.
Needs pyte (the 'test' extra). POSIX only.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import pyte

READ_SIZE = 65536


class FrameTime(NamedTuple):
    """How long a program took to show a frame."""

    seconds: float
    """Wall-clock time from just before its start."""
    cpu_seconds: float | None
    """The processor time it used by then (user and system, from /proc; None elsewhere), which
    other work on a shared machine changes much less than the wall-clock time."""


def _cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def terminal_env(pythonpath: str | Path | None = None) -> dict[str, str]:
    """A small, fixed environment for the programs timed: the same for every program compared.

    Deliberately without PYTHONDONTWRITEBYTECODE (set in some shells and CI): with it every start
    would compile the studio's modules again, which is not what a person's start costs.
    """
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/tmp")}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return env


def _end(process: subprocess.Popen[bytes], grace: float = 2.0) -> None:
    """Hang-up, then SIGTERM, then SIGKILL to the program's process group; always reaped."""
    for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue
    process.wait()


def first_frame(argv: Sequence[str], texts: Sequence[str], *, size: tuple[int, int] = (80, 24),
                env: dict[str, str] | None = None, cwd: str | Path | None = None,
                timeout: float = 60.0) -> FrameTime:
    """The time from starting ``argv`` on a ``size`` (columns, rows) pty until all ``texts`` show.

    Raises:
        RuntimeError: the program ended, or ``timeout`` passed, before they showed (with the
            screen as it was, to see why).
    """
    columns, rows = size
    screen = pyte.Screen(columns, rows)
    stream = pyte.ByteStream(screen)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    started = time.perf_counter()
    try:
        process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave,
                                   env=env if env is not None else terminal_env(), cwd=cwd,
                                   start_new_session=True, close_fds=True)
    finally:
        os.close(slave)
    try:
        while True:
            left = started + timeout - time.perf_counter()
            ready, _, _ = select.select([master], [], [], max(left, 0))
            if not ready:
                raise RuntimeError(f"{argv[-1]}: no {texts} after {timeout:.0f} s; the screen:\n"
                                   + "\n".join(screen.display))
            try:
                data = os.read(master, READ_SIZE)
            except OSError:  # EIO: the program ended and closed the terminal
                data = b""
            if not data:
                raise RuntimeError(f"{argv[-1]} ended before showing {texts}; the screen:\n"
                                   + "\n".join(screen.display))
            stream.feed(data)
            shown = "\n".join(screen.display)
            if all(text in shown for text in texts):
                return FrameTime(time.perf_counter() - started, _cpu_seconds(process.pid))
    finally:
        os.close(master)
        _end(process)
