"""One program in its own pseudo-terminal, driven from an asyncio loop.

The SSH server runs one of these per session: bytes from the client go to the pty, what the
program draws comes back, a window change becomes ``TIOCSWINSZ`` (the kernel then sends the
program SIGWINCH, as for any terminal), and ending it hangs up the terminal, then terminates, then
kills, and always reaps, so no process outlives its session. POSIX only.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence
from pathlib import Path

READ_SIZE = 65536
MAX_PENDING_INPUT = 1 << 16
"""Input not yet taken by the program; beyond it the client is asked to pause (flow control)."""


def set_window_size(fd: int, cols: int, rows: int) -> None:
    # Clamp: a hostile client may send 0 or 2**32; the kernel struct holds unsigned shorts.
    cols, rows = max(1, min(cols, 1000)), max(1, min(rows, 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (from /proc; empty where there is none).

    Processes that left the session's process group (AI workers start their own sessions) are
    found here, so that ending a session ends them too.
    """
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    text = handle.read()
            except OSError:
                continue
            # The command name may hold spaces and parentheses: the ppid follows the last ')'.
            fields = text[text.rfind(b")") + 2:].split()
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class PtyProcess:
    """A program running in a new session on a new pseudo-terminal.

    Args:
        argv: the program and its arguments.
        env: its whole environment.
        size: (columns, rows) of the terminal.
        on_output: called with each chunk the program writes.
        on_exit: called once with the exit code (negative: killed by that signal) after the
            program ended and everything it wrote was passed to ``on_output``.
        cwd: its working folder.
    """

    def __init__(self, argv: Sequence[str], env: dict[str, str], size: tuple[int, int],
                 on_output: Callable[[bytes], None], on_exit: Callable[[int], None],
                 cwd: Path | None = None, pass_fds: Sequence[int] = ()) -> None:
        self._loop = asyncio.get_running_loop()
        self._on_output = on_output
        self._on_exit = on_exit
        self._pending = bytearray()
        self._reading = False
        self._held = False
        self._output_done = False
        self._exited: asyncio.Future[int] = self._loop.create_future()
        self._pidfd: int | None = None
        self.input_drained: Callable[[], None] | None = None
        """Called once when input that filled the buffer has all gone to the program."""
        self.started = time.monotonic()
        master, slave = os.openpty()
        try:
            set_window_size(slave, *size)
            # start_new_session: the program leads its own session, so the terminal can become
            # its controlling terminal (the child does that, see studio.ssh.child) and a signal
            # to its group never reaches the server.
            self.process = subprocess.Popen(
                list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                start_new_session=True, close_fds=True, pass_fds=tuple(pass_fds))
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self._master: int | None = master
        os.set_blocking(master, False)
        self.resume_output()
        self._watch_exit()

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    # ------------------------------------------------------------------------------- I/O

    def write(self, data: bytes) -> bool:
        """Send input to the program; False when the caller should pause until drained."""
        if self._master is None:
            return True
        if not self._pending and not self._held:
            try:
                written = os.write(self._master, data)
            except BlockingIOError:
                written = 0
            except OSError:
                return True  # the program is gone; its exit is on its way
            data = data[written:]
            if data:
                self._loop.add_writer(self._master, self._flush)
        self._pending += data
        return len(self._pending) < MAX_PENDING_INPUT

    def _flush(self) -> None:
        try:
            written = os.write(self._master, self._pending) if self._master is not None else 0
        except BlockingIOError:
            return
        except OSError:
            written = len(self._pending)
        del self._pending[:written]
        if not self._pending and self._master is not None:
            self._loop.remove_writer(self._master)
            drained, self.input_drained = self.input_drained, None
            if drained is not None:
                drained()

    def hold(self) -> None:
        """The client takes no more output: stop reading the program's, and stop giving it input.

        The program then waits on its full terminal. Input is held too because a program that
        cannot draw still takes keys (a Textual app's input thread reads on and queues events):
        keys from a client that never reads would pile up inside the program without bound.
        """
        self._held = True
        self.pause_output()
        if self._pending and self._master is not None:
            self._loop.remove_writer(self._master)

    def release(self) -> None:
        """The client reads again: pass output and the held input on."""
        self._held = False
        self.resume_output()
        if self._pending and self._master is not None:
            self._loop.add_writer(self._master, self._flush)

    @property
    def held(self) -> bool:
        return self._held

    def pause_output(self) -> None:
        """Stop reading the program's output."""
        if self._reading and self._master is not None:
            self._loop.remove_reader(self._master)
        self._reading = False

    def resume_output(self) -> None:
        if (not self._reading and not self._held and self._master is not None
                and not self._output_done):
            self._loop.add_reader(self._master, self._read)
            self._reading = True

    def _read(self) -> None:
        try:
            data = os.read(self._master, READ_SIZE)  # type: ignore[arg-type]
        except BlockingIOError:
            return
        except OSError as exc:
            # EIO: every holder of the terminal's other side has closed it (the program ended).
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise
            data = b""
        if data:
            self._on_output(data)
            return
        self.pause_output()
        self._output_done = True
        self._maybe_finished()

    def resize(self, cols: int, rows: int) -> None:
        if self._master is not None:
            with contextlib.suppress(OSError):
                set_window_size(self._master, cols, rows)

    # ------------------------------------------------------------------------------- end

    def _watch_exit(self) -> None:
        try:
            self._pidfd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            self._poll_exit()  # no pidfd (old kernel or not Linux): look a few times a second
            return
        self._loop.add_reader(self._pidfd, self._reap)

    def _poll_exit(self) -> None:
        if self.process.poll() is None:
            self._loop.call_later(0.1, self._poll_exit)
        else:
            self._reap()

    def _reap(self) -> None:
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        code = self.process.wait()
        if not self._exited.done():
            self._exited.set_result(code)
        # Output left in the terminal is still read; a program whose own children keep the
        # terminal open is not waited for beyond a moment.
        self._loop.call_later(0.5, self._finish_output)
        self._maybe_finished()

    def _finish_output(self) -> None:
        if not self._output_done:
            self.pause_output()
            self._output_done = True
            self._maybe_finished()

    def _maybe_finished(self) -> None:
        if self._output_done and self._exited.done() and self._master is not None:
            self._close_master()
            self._on_exit(self._exited.result())

    def _close_master(self) -> None:
        if self._master is None:
            return
        self.pause_output()
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_writer(self._master)
        os.close(self._master)
        self._master = None

    async def end(self, grace: float = 1.0) -> int:
        """End the program as a dropped connection does, and reap it; returns its exit code.

        Hang up its terminal (SIGHUP, what a program expects when its user goes away), then after
        ``grace`` seconds SIGTERM, then SIGKILL, to its process group and every descendant.
        """
        if self._exited.done():
            self._close_master()
            return self._exited.result()
        below = descendants(self.pid)
        self._close_master()  # the hangup: the kernel sends SIGHUP to the session
        for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
            self._signal(sig, below)
            try:
                code = await asyncio.wait_for(asyncio.shield(self._exited), grace)
                break
            except asyncio.TimeoutError:
                continue
        else:
            code = await self._exited
        # What it started had the same signals; one that ignored them (an AI may) must not
        # outlive the session with nobody left to stop it.
        for pid in below:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        return code

    def _signal(self, sig: signal.Signals, below: list[int]) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)
        for pid in below:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
