"""Spectators share a studio (issue 30, "Watch it live"): one process draws the spectator screen
and the server sends its frames to every spectator whose terminal fits it.

A studio per spectator drew every turn once per spectator: thirty of them needed more than the
two cores of the machine the class competition runs on. Spectators all see the same thing (what
the served folder plays now, with nobody's words in it), so one studio per *shared size* draws
it once. A terminal is given the largest of a few standard sizes that fits in it
(:func:`shared_size`), so a class's many window sizes fall into a few views.

The shared studio is told it answers no one (``--shared-view``): its screen lists no key but
``q``, which the server takes as the spectator leaving. It is told its terminal can draw a frame
at once (the answer to Textual's DEC mode 2026 query), so each frame it writes comes between
the synchronized-update brackets: the server passes on only what lies inside them, whole
frames, and a spectator who joins is put in at the start of the next one, after the shared
studio was asked (SIGUSR1) to draw all of its screen again. What the studio writes outside a
frame (its terminal modes: mouse reports, bracketed paste) reaches nobody; a spectator's
terminal is set up by the server (:data:`VIEWER_SETUP`) and put back when they leave.

A spectator whose connection cannot take more (a stopped or slow client) misses frames rather
than holding the others up: it is taken out, and put back in with a whole frame when its
channel drains.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from studio.ssh.client_terminal import RESTORE_TERMINAL, VIEWER_SETUP
from studio.ssh.pty_process import PtyProcess
from studio.storage.roster import Person



class Hub(Protocol):
    """What a shared view needs of the server (``studio.ssh.server.Hub``)."""

    config: Any
    broadcasts: Broadcasts

    def studios(self) -> int: ...

    def argv(self, temp: Path | None = None, person: Person | None = None,
             shared_view: bool = False) -> list[str]: ...

    def track(self, task: asyncio.Task[int]) -> None: ...

SYNC_START = b"\x1b[?2026h"
SYNC_END = b"\x1b[?2026l"
SYNC_QUERY = b"\x1b[?2026$p"
SYNC_REPLY = b"\x1b[?2026;2$y"
"""DECRPM: mode 2026 known and off, which Textual takes as "frames can be bracketed"."""
_MARKERS = (SYNC_START, SYNC_END, SYNC_QUERY)
_MARKER = re.compile(rb"\x1b\[\?2026(?:h|l|\$p)")

QUIT_KEYS = (b"q", b"Q", b"\x03", b"\x04")
"""q, and ctrl+c and ctrl+d as a person leaving a terminal program tries them."""
_KEY_SEQUENCE = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?", re.DOTALL)
"""Escape sequences a terminal sends for other keys (f2 is ``ESC O Q``): not a q typed."""

REDRAW_GAP = 0.1
"""Seconds between two whole frames asked of a shared studio at the least: spectators joining
together are drawn for by one, and no client can make it draw without rest."""
RESIZE_QUIET = 0.3
"""Seconds a spectator's window keeps its size before the view follows it (a drag of the
window's edge sends dozens of sizes; each different view would be another studio started)."""

WIDTHS = (80, 100, 120, 160, 200, 240)
HEIGHTS = (24, 30, 40, 50, 60, 80)

SPECTATORS = Person(name="spectators", role="spectator")


def shared_size(cols: int, rows: int) -> tuple[int, int]:
    """The size of the shared view a ``cols`` × ``rows`` terminal is shown: the largest standard
    width and height that fit, or its own where it is smaller than all of them."""
    return (max((w for w in WIDTHS if w <= cols), default=cols),
            max((h for h in HEIGHTS if h <= rows), default=rows))


class Frames:
    """Cuts a studio's output into frames. ``feed`` returns the pieces in order: ``("start",)``,
    ``("in", bytes)``, ``("end",)``, ``("query",)`` (the studio asks whether frames can be
    bracketed), and nothing for what lies between frames."""

    def __init__(self) -> None:
        self.inside = False
        self._carry = b""

    def feed(self, data: bytes) -> list[tuple[str, bytes]]:
        data = self._carry + data
        self._carry = b""
        cut = len(data)
        tail = data.rfind(b"\x1b", max(0, len(data) - len(SYNC_QUERY) + 1))
        if tail >= 0 and any(m.startswith(data[tail:]) and m != data[tail:] for m in _MARKERS):
            cut, self._carry = tail, data[tail:]  # a marker cut in two by the read: wait for it
        pieces: list[tuple[str, bytes]] = []
        at = 0
        for found in _MARKER.finditer(data, 0, cut):
            self._between(pieces, data[at:found.start()])
            marker = found.group()
            if marker == SYNC_START:
                self.inside = True
                pieces.append(("start", b""))
            elif marker == SYNC_END:
                self.inside = False
                pieces.append(("end", b""))
            else:
                pieces.append(("query", b""))
            at = found.end()
        self._between(pieces, data[at:cut])
        return pieces

    def _between(self, pieces: list[tuple[str, bytes]], data: bytes) -> None:
        if data and self.inside:
            pieces.append(("in", data))


class Viewer:
    """A spectator on a shared view. It stands where a session's studio process stands
    (``write``, ``hold``, ``release``, ``resize``, ``end``, ``returncode``), so the session and
    its flow control treat both alike."""

    def __init__(self, hub: Hub, size: tuple[int, int], env: dict[str, str],
                 send: Callable[[bytes], None], on_exit: Callable[[int], None]) -> None:
        self.hub = hub
        self.env = env
        self.send = send
        self._on_exit = on_exit
        self.returncode: int | None = None
        self.input_drained: Callable[[], None] | None = None
        self.broadcast: Broadcast | None = None
        self._held = False
        self.size = size
        self._resizing: asyncio.TimerHandle | None = None
        hub.broadcasts.join(self)

    @property
    def held(self) -> bool:
        return self._held

    def write(self, data: bytes) -> bool:
        """A spectator's keys: ``q`` leaves; nothing else goes anywhere."""
        typed = _KEY_SEQUENCE.sub(b"", data)
        if self.returncode is None and any(key in typed for key in QUIT_KEYS):
            self.finish(0, b"")
        return True

    def hold(self) -> None:
        """Its client takes no more: out of the view until it drains."""
        self._held = True
        if self.broadcast is not None:
            self.broadcast.drop(self)

    def release(self) -> None:
        self._held = False
        if self.broadcast is not None and self.returncode is None:
            self.broadcast.add(self)  # in again, from a whole frame

    def resize(self, cols: int, rows: int) -> None:
        self.size = (cols, rows)
        if self._resizing is not None:
            self._resizing.cancel()
        self._resizing = asyncio.get_running_loop().call_later(RESIZE_QUIET, self._resized)

    def _resized(self) -> None:
        self._resizing = None
        if self.returncode is None:
            with contextlib.suppress(OSError):  # no studio for it: it stays where it is
                self.hub.broadcasts.join(self)  # the same view or another, from a whole frame

    def finish(self, code: int, words: bytes) -> None:
        """Leave the view: the terminal put back, ``words`` said, the session ended."""
        if self.returncode is not None:
            return
        self.returncode = code
        self._stop_resizing()
        self.hub.broadcasts.leave(self)
        self.send(RESTORE_TERMINAL + b"\r\n" + words)
        self._on_exit(code)

    async def end(self, grace: float = 1.0) -> int:
        """The client went away (or the server stops): out of the view."""
        if self.returncode is None:
            self.returncode = 0
            self._stop_resizing()
            self.hub.broadcasts.leave(self)
        return self.returncode

    def _stop_resizing(self) -> None:
        if self._resizing is not None:
            self._resizing.cancel()
            self._resizing = None


@dataclass
class Broadcast:
    """One shared studio and the spectators it draws for."""

    hub: Hub
    key: tuple
    size: tuple[int, int]
    env: dict[str, str]
    viewers: set[Viewer] = field(default_factory=set)
    joining: set[Viewer] = field(default_factory=set)
    process: PtyProcess | None = None
    temp: Path | None = None
    drawn: bool = False
    """Whether a frame was seen: the studio takes SIGUSR1 from then on."""
    redrawn: float = float("-inf")
    """When a whole frame was last asked for (loop time)."""
    redraw_due: asyncio.TimerHandle | None = None

    def __post_init__(self) -> None:
        self._frames = Frames()
        self.temp = Path(tempfile.mkdtemp(prefix="studio-shared-view-"))
        env = {**self.env, "TMPDIR": str(self.temp), "NUMBA_CACHE_DIR": str(self.temp / "numba")}
        argv = self.hub.argv(self.temp, SPECTATORS, shared_view=True)
        try:
            self.process = PtyProcess(argv, env, self.size, self._output, self._exited)
        except BaseException:
            self._remove_temp()
            raise

    def add(self, viewer: Viewer) -> None:
        """From the start of the next frame, which is made a whole one."""
        self.viewers.discard(viewer)
        self.joining.add(viewer)
        if self.drawn and self.redraw_due is None:
            loop = asyncio.get_running_loop()
            wait = self.redrawn + REDRAW_GAP - loop.time()
            self.redraw_due = loop.call_later(max(0.0, wait), self._redraw)

    def _redraw(self) -> None:
        self.redraw_due = None
        self.redrawn = asyncio.get_running_loop().time()
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGUSR1)

    def drop(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)
        self.joining.discard(viewer)

    @property
    def empty(self) -> bool:
        return not self.viewers and not self.joining

    def _output(self, data: bytes) -> None:
        for kind, chunk in self._frames.feed(data):
            if kind == "query" and self.process is not None:
                self.process.write(SYNC_REPLY)
            elif kind == "start":
                self.drawn = True
                for viewer in self.joining:
                    viewer.send(VIEWER_SETUP)
                self.viewers |= self.joining
                self.joining.clear()
                self._send(SYNC_START)
            elif kind == "end":
                self._send(SYNC_END)
            elif kind == "in":
                self._send(chunk)

    def _send(self, data: bytes) -> None:
        for viewer in list(self.viewers):  # a send may drop a viewer (its channel full)
            if viewer in self.viewers:
                viewer.send(data)

    def _exited(self, code: int) -> None:
        """The shared studio ended by itself: every spectator is told and let go."""
        self.process = None
        self._remove_temp()
        self.hub.broadcasts.forget(self)
        how = f"exit {code}" if code >= 0 else signal.Signals(-code).name
        for viewer in list(self.viewers | self.joining):
            viewer.finish(1, f"studio: the shared view stopped ({how}); log in again to watch\r\n"
                          .encode())

    def close(self) -> None:
        """Nobody watches any more: the studio is ended and reaped (tracked by the hub)."""
        process, self.process = self.process, None
        if self.redraw_due is not None:
            self.redraw_due.cancel()
        if process is None:
            return

        async def end() -> int:
            try:
                return await process.end(self.hub.config.grace)
            finally:
                self._remove_temp()

        self.hub.track(asyncio.ensure_future(end()))

    def _remove_temp(self) -> None:
        if self.temp is not None:
            shutil.rmtree(self.temp, ignore_errors=True)
            self.temp = None


class Broadcasts:
    """The server's shared views, one per shared size and terminal kind."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.views: dict[tuple, Broadcast] = {}

    @staticmethod
    def key(size: tuple[int, int], env: dict[str, str]) -> tuple:
        """What decides a view's bytes: its size, and what the terminal is told to draw with."""
        return shared_size(*size), env.get("TERM"), env.get("COLORTERM"), env.get("NO_COLOR")

    def room_for(self, size: tuple[int, int], env: dict[str, str], studios: int,
                 limit: int) -> bool:
        """Whether a spectator of this terminal can watch: a view fits it, or one more studio
        (there are ``studios`` of at most ``limit``) can be started for it."""
        return self.key(size, env) in self.views or studios < limit

    def join(self, viewer: Viewer) -> None:
        """Into the view that fits ``viewer``'s terminal, started for it if need be and the
        server has room (OSError: no room, or the studio could not be started)."""
        key = self.key(viewer.size, viewer.env)
        view = self.views.get(key)
        if view is None:
            old = viewer.broadcast
            freed = old is not None and old.viewers | old.joining <= {viewer}  # it ends with this
            if self.hub.studios() - freed >= self.hub.config.max_sessions:
                raise OSError("the server runs as many studios as it may")
            view = Broadcast(self.hub, key, shared_size(*viewer.size), viewer.env)
            self.views[key] = view
        if view is not viewer.broadcast and viewer.broadcast is not None:
            self.leave(viewer)
        viewer.broadcast = view
        if not viewer.held:
            view.add(viewer)

    def leave(self, viewer: Viewer) -> None:
        view, viewer.broadcast = viewer.broadcast, None
        if view is None:
            return
        view.drop(viewer)
        if view.empty:
            self.forget(view)
            view.close()

    def forget(self, view: Broadcast) -> None:
        if self.views.get(view.key) is view:
            del self.views[view.key]

    @property
    def processes(self) -> int:
        return len(self.views)

    def close(self) -> None:
        for view in list(self.views.values()):
            self.forget(view)
            view.close()
