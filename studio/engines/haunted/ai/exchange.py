"""The host's half of the pipes to one worker: every exchange under a deadline (spec haunted.md §8.1).

A worker is untrusted, so nothing it does may stall the studio or grow it: a request is written
without blocking and what the pipe does not take is finished under the move's deadline; replies are
read by :class:`.arrivals.LineReader` with a size cap, and only as many as were asked for (a line
nobody asked for ends the stream, so answers written ahead for future turns cannot pile up). And
the worker runs only while it is being asked: it is continued when a request goes out and stopped
the moment its answer arrives, so between its turns it takes no CPU from the opponent.
"""

from __future__ import annotations

import json
import math
import os
import select
import signal
import threading
import time
from typing import Any

from studio.engines.haunted.ai.arrivals import Arrival, LineReader

REPLY_LIMIT = 256 << 10
"""Bytes of one reply line. An honest one is far smaller: 2 × 4 KiB of captured text (12 bytes a
character at worst once JSON-escaped), a 2,000-character error and an answer of 1 KiB."""
ANSWER_LIMIT = 1024
"""Bytes of JSON of one answer; a legal one is about 30 (``["north", "north", "north"]``). The
worker refuses larger ones itself, and the host checks again: the worker is not trusted."""
TOO_LARGE = "answer too large"
KINDS = ("exception", "bad_shape", "crash", "syntax")
"""Failure kinds a worker may report; ``timeout`` is the host's alone to decide."""
TURN_OUTPUT_LIMIT = 4096
TRUNCATED = "…truncated"


class Exchange:
    """Requests to and replies from one worker process, whose process group is ``pid``.

    Owns both descriptors. ``send`` continues the worker and queues the message; ``finish``
    writes what the pipe did not take, by a deadline; ``reply`` waits for the answer by the
    same deadline. The reader thread stops the worker as soon as the answer is complete.
    """

    def __init__(self, pid: int, to_worker: int, from_worker: int) -> None:
        self.pid = pid
        self._to_worker: int | None = to_worker
        os.set_blocking(to_worker, False)
        self._unsent = b""
        self._lock = threading.Lock()
        self._closed = False
        self._replies = LineReader(from_worker, limit=REPLY_LIMIT, on_line=self.pause,
                                   name=f"studio-ai-replies-{pid}")

    def send(self, message: dict[str, Any]) -> None:
        """Write ``message`` as far as the pipe takes it, then continue the worker; never blocks.

        Written first: a worker continued before its request is there could spend the wait in
        code of its own (a timer's handler that fired while it was stopped) rather than reading.
        """
        self._replies.expect()
        self._unsent += json.dumps(message).encode() + b"\n"
        self._write()
        self.resume()

    def finish(self, deadline: float) -> bool:
        """Write what is left of the request by ``deadline``; False if the worker did not take it."""
        fd = self._to_worker
        while self._unsent and fd is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            _, ready, _ = select.select([], [fd], [], None if left == math.inf else left)
            if ready:
                self._write()
        return True

    def reply(self, deadline: float) -> Arrival | None:
        """The reply that arrived by ``deadline`` (None: none did; see ``LineReader.next``)."""
        return self._replies.next(deadline)

    def pause(self) -> None:
        """Stop the worker's process group (between its turns: it may not run then)."""
        self._signal(signal.SIGSTOP)

    def resume(self) -> None:
        self._signal(signal.SIGCONT)

    def close(self) -> None:
        """End the reader thread and close both pipes (the worker itself is the caller's)."""
        with self._lock:  # no stop signal after this: the caller may reap the worker next
            self._closed = True
        self._replies.close()
        if self._to_worker is not None:
            os.close(self._to_worker)
            self._to_worker = None
        self._unsent = b""

    def _signal(self, which: int) -> None:
        with self._lock:
            if self._closed:
                return
            try:
                os.killpg(self.pid, which)
            except (ProcessLookupError, PermissionError):
                pass  # gone already: the reply shows how

    def _write(self) -> None:
        fd = self._to_worker
        if fd is None or not self._unsent:
            return
        try:
            written = os.write(fd, self._unsent)
        except BlockingIOError:
            return
        except OSError:  # the worker closed its end or died: its reply will say how
            self._unsent = b""
            return
        self._unsent = self._unsent[written:]


class RawOutput:
    """Drains one of the worker's own stdout/stderr pipes in a thread, keeping a bounded tail."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self._kept = bytearray()
        self._dropped = False
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while chunk := self._stream.read1(65536):
            with self._lock:
                room = TURN_OUTPUT_LIMIT - len(self._kept)
                self._kept += chunk[:max(room, 0)]
                self._dropped |= len(chunk) > room

    def take(self) -> str:
        """What arrived since the last call (bounded)."""
        with self._lock:
            text = self._kept.decode(errors="replace") + (TRUNCATED if self._dropped else "")
            self._kept, self._dropped = bytearray(), False
        return text

    def join(self) -> None:
        self._thread.join(timeout=1.0)
        self._stream.close()


def parse_reply(line: bytes) -> tuple[dict[str, Any] | None, str]:
    """A reply line as a checked message, or ``(None, why)``.

    Every field the host reads is checked for its type here, so a forged line is a failure of
    the worker and never an error in the studio (a bare ``[]``, text where text is not, nesting
    deep enough to exhaust the parser's recursion).
    """
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None, "the worker sent garbage"
    if not isinstance(message, dict):
        return None, "the worker sent garbage"
    for key in ("stdout", "stderr", "error", "confinement"):
        if not isinstance(message.get(key, ""), str):
            return None, "the worker sent garbage"
    if not isinstance(message.get("ok"), bool) or message.get("kind", "exception") not in KINDS:
        return None, "the worker sent garbage"
    if "result" in message:
        try:
            size = len(json.dumps(message["result"]))
        except (ValueError, RecursionError):
            return None, "the worker sent garbage"
        if size > ANSWER_LIMIT:
            return None, f"{TOO_LARGE} ({size} bytes of JSON; at most {ANSWER_LIMIT})"
    return message, ""
