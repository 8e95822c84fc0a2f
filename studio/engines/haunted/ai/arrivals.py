"""Protocol lines from a worker, each stamped with the moment the host received it.

The referee asks both AIs, then collects one answer after the other (spec haunted.md §7.3). Were an
answer timed when ``collect`` reads it, an honest answer already waiting in its pipe would be late
whenever the other AI used up its whole limit and was killed first (issue 10). So a thread per
worker reads the protocol pipe as data comes and stamps every complete line with
``time.perf_counter()`` on arrival; whoever collects later judges the stamp against the limit.

Only lines that were asked for are taken (issue 28): a worker answers each request once, so a line
beyond the requests sent ends the stream at once. Answers written ahead for future turns can then
neither pile up in the studio's memory nor be taken for answers to requests not yet sent.
"""

from __future__ import annotations

import math
import os
import queue
import select
import threading
import time
from collections.abc import Callable
from typing import NamedTuple

LINE_LIMIT = 4 << 20
"""Bytes of one protocol line; a legal reply is far smaller (the worker caps results at 1 MiB)."""


class Arrival(NamedTuple):
    """A complete line (without its newline), or the end of the stream when ``line`` is None."""

    at: float
    """``time.perf_counter()`` when the host read it."""
    line: bytes | None
    ended: str = ""
    """Why the stream ended: ``eof`` (the worker closed its end or died), ``too long``, or
    ``unasked`` (a line beyond the requests sent)."""


class LineReader:
    """Reads newline-terminated lines from ``fd`` in a daemon thread; owns ``fd`` and closes it.

    The thread ends by itself at end of file, on an overlong line or on a line nobody asked for
    (see :meth:`expect`), and :meth:`close` ends it in any case (through a wake-up pipe, so it
    never needs the worker's cooperation). So at most one line per request, plus ``limit`` bytes,
    is ever held.

    Args:
        fd: the read end; owned from now on.
        limit: bytes of one line.
        on_line: called in the thread with each complete line asked for, before it is queued
            (the runner stops the worker there, the moment its answer is in).
        name: the thread's name.
    """

    def __init__(self, fd: int, *, limit: int = LINE_LIMIT,
                 on_line: Callable[[], None] | None = None,
                 name: str = "studio-ai-lines") -> None:
        self._fd: int | None = fd
        self._limit = limit
        self._on_line = on_line
        self._asked = 0
        self._arrivals: queue.SimpleQueue[Arrival] = queue.SimpleQueue()
        self._stamping = threading.Lock()
        """Held from taking a stamp until the line is queued (see :meth:`next`); guards
        ``_asked`` too."""
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(fd, False)
        self._thread: threading.Thread | None = threading.Thread(
            target=self._run, name=name, daemon=True)
        self._thread.start()

    def expect(self, lines: int = 1) -> None:
        """Allow ``lines`` more lines: call it before sending the request they answer."""
        with self._stamping:
            self._asked += lines

    def next(self, deadline: float) -> Arrival | None:
        """The next arrival if it came no later than ``deadline``, else None.

        Waits until the deadline at most (``math.inf``: as long as it takes) but returns at once
        when a line is already waiting. A line that came after the deadline is consumed and
        None returned: the answer was late, however early it is asked for.
        """
        arrivals = self._arrivals
        try:
            if deadline == math.inf:
                arrival = arrivals.get()
            else:
                arrival = arrivals.get(timeout=max(deadline - time.perf_counter(), 0.0))
        except queue.Empty:
            # A line stamped in time may be between its stamp and the queue: wait for it.
            with self._stamping:
                pass
            try:
                arrival = arrivals.get_nowait()
            except queue.Empty:
                return None
        return arrival if arrival.at <= deadline else None

    def close(self) -> None:
        """End the thread, then close ``fd`` and the wake-up pipe. Safe to call twice."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass
        thread.join(timeout=5.0)
        if thread.is_alive():  # cannot happen short of a stopped interpreter; never close
            return             # an fd a running thread may still select on
        for fd in (self._fd, self._wake_r, self._wake_w):
            if fd is not None:
                os.close(fd)
        self._fd = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        fd, wake, limit = self._fd, self._wake_r, self._limit
        assert fd is not None
        pending = bytearray()
        while True:
            ready, _, _ = select.select([fd, wake], [], [])
            if wake in ready:
                return
            try:
                chunk = os.read(fd, min(limit + 1, 1 << 20))
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            with self._stamping:
                now = time.perf_counter()
                if not chunk:
                    self._arrivals.put(Arrival(now, None, "eof"))
                    return
                start, scan = 0, len(pending)  # only the new chunk can hold a newline
                pending += chunk
                while (end := pending.find(b"\n", scan)) >= 0:
                    if end - start > limit:
                        break
                    if self._asked <= 0:
                        self._arrivals.put(Arrival(now, None, "unasked"))
                        return
                    self._asked -= 1
                    if self._on_line is not None:
                        self._on_line()
                    self._arrivals.put(Arrival(now, bytes(pending[start:end])))
                    start = scan = end + 1
                del pending[:start]
                if (newline := pending.find(b"\n")) > limit or (newline < 0
                                                                 and len(pending) > limit):
                    self._arrivals.put(Arrival(now, None, "too long"))
                    return
