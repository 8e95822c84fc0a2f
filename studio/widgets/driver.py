"""The studio's terminal driver: Textual's Linux driver, bounded and hang-up safe.

Two things the stock driver does not do, both needed once the terminal belongs to someone else
(an SSH client):

- **Input waits for the app.** The stock input thread reads the terminal as fast as keys come and
  queues an event for each; a client that sends keys faster than the studio handles them (a
  script, or a client that stops reading while it types) grew the studio without bound. Here the
  input thread stops reading while the app is more than :data:`MAX_BACKLOG` messages behind, so
  keys wait in the terminal, then in the SSH server, which stops reading the client.
- **A hang-up ends the app the ordinary way.** SIGHUP (the terminal went away: a dropped SSH link,
  a closed window) and SIGTERM call the app's ``hang_up(sig)`` (or ``exit``) instead of killing the
  process, so screens unmount, a running match keeps its partial replay as ``q`` does, and the
  writer thread, whose terminal is gone, drops what it writes instead of dying and leaving the
  app blocked on its full queue.
"""

from __future__ import annotations

import contextlib
import errno
import signal
import threading
import time
from typing import Any

from textual.drivers.linux_driver import LinuxDriver

MAX_BACKLOG = 64
"""Input messages the app may have waiting before the input thread stops reading."""
_BACKLOG_POLL = 0.01
_GONE = (errno.EIO, errno.EPIPE, errno.ENXIO, errno.EBADF)


class _TerminalOutput:
    """The terminal's file for the writer thread: after a hang-up, writes go nowhere quietly."""

    def __init__(self, file: Any) -> None:
        self._file = file
        self.gone = False

    def write(self, text: str) -> int:
        if self.gone:
            return len(text)
        try:
            return self._file.write(text)
        except OSError as exc:
            if exc.errno not in _GONE:
                raise
            self.gone = True
            return len(text)

    def flush(self) -> None:
        if self.gone:
            return
        try:
            self._file.flush()
        except OSError as exc:
            if exc.errno not in _GONE:
                raise
            self.gone = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


class StudioDriver(LinuxDriver):
    """:class:`LinuxDriver` with input paced by the app and hang-ups turned into a clean exit."""

    def __init__(self, app, **options: Any) -> None:
        super().__init__(app, **options)
        self._file = _TerminalOutput(self._file)
        self._in_flight = 0
        self._count_lock = threading.Lock()
        self._signals: list[int] = []
        self._hung = False

    # ----------------------------------------------------------------------------- input

    def send_message(self, message) -> None:
        with self._count_lock:
            self._in_flight += 1

        def deliver() -> None:
            with self._count_lock:
                self._in_flight -= 1
            self._app.post_message(message)

        try:
            self._loop.call_soon_threadsafe(deliver)
        except RuntimeError:  # the loop closed: the app is gone, so is the message
            with self._count_lock:
                self._in_flight -= 1

    def backlog(self) -> int:
        """Input messages sent but not yet handled, roughly (read from the input thread)."""
        app = self._app
        waiting = self._in_flight + app._message_queue.qsize() + getattr(app, "keys_waiting", 0)
        with contextlib.suppress(Exception):  # the stack may change under us: a rough count
            waiting += app.screen._message_queue.qsize()
            if app.focused is not None:
                waiting += app.focused._message_queue.qsize()
        return waiting

    def process_message(self, message) -> None:
        if threading.current_thread() is self._key_thread:
            while self.backlog() > MAX_BACKLOG and not self.exit_event.is_set():
                time.sleep(_BACKLOG_POLL)
        super().process_message(message)

    # -------------------------------------------------------------------------- hang-up

    def start_application_mode(self) -> None:
        super().start_application_mode()
        loop = self._loop
        for sig in (signal.SIGHUP, signal.SIGTERM):
            with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                loop.add_signal_handler(sig, self._hung_up, sig)
                self._signals.append(sig)

    def _hung_up(self, sig: int) -> None:
        if sig == signal.SIGHUP:
            self._hung = True
            self._file.gone = True  # nothing drawn from now on can reach anyone
        hang_up = getattr(self._app, "hang_up", None)
        if hang_up is not None:
            hang_up(sig)
        else:
            self._app.exit()

    def stop_application_mode(self) -> None:
        for sig in self._signals:
            with contextlib.suppress(Exception):
                self._loop.remove_signal_handler(sig)
        self._signals.clear()
        if self._hung:  # the threads still saving (a match's replay) must not die of a 2nd one
            with contextlib.suppress(ValueError):
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
        super().stop_application_mode()
