"""Flow control of one session: what a client that does not read, or types flat out, may cost.

This module owns the limits between a client's channel and its studio's pseudo-terminal. While
output waits for the client, in its channel (its window is full: :data:`OUTPUT_HIGH_WATER`) or
on the connection's socket (:data:`LINK_HIGH_WATER`), the studio is *held*: its terminal is not
read and it is given no more keys, so it waits on its full terminal instead of memory growing in
the server or the studio. Keys the studio has not taken beyond ``pty_process.MAX_PENDING_INPUT``
stop the server reading the client until they are taken, so they wait in the client. The
server's session only tells a :class:`Flow` what happened; it decides nothing about pace.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncssh

from studio.ssh.pty_process import PtyProcess

OUTPUT_HIGH_WATER = 64 * 1024
"""Output waiting in a session's channel (the client's window is full) beyond which the studio's
terminal is no longer read; it is read again once the wait is down to a quarter of this."""
LINK_HIGH_WATER = 1 << 20
"""Output waiting on the connection's socket beyond which the studio's terminal is not read.

The channel's window does not bound it: a client chooses its window (up to 4 GB) and may then
stop reading its socket, and asyncssh does not pass the socket's back-pressure on."""
LINK_POLL = 0.05
"""Seconds between looks at a held socket's backlog (asyncssh says nothing when it drains)."""


class Flow:
    """Holds and releases one session's studio as its client's channel and socket fill and drain.

    Args:
        chan: the session's channel; its write buffer limits are set here.
        conn: the client's connection, whose socket backlog is watched.
        studio: the studio to hold and release, None before it starts and once the session is
            closed or its studio ended.
    """

    def __init__(self, chan: asyncssh.SSHServerChannel,
                 conn: asyncssh.SSHServerConnection | None,
                 studio: Callable[[], PtyProcess | None]) -> None:
        self._chan = chan
        self._conn = conn
        self._studio = studio
        self._blocked: set[str] = set()
        """Why the studio's output is held: "channel" (window full), "link" (socket full)."""
        chan.set_write_buffer_limits(OUTPUT_HIGH_WATER, OUTPUT_HIGH_WATER // 4)

    # ------------------------------------------------------------------------------ output

    def sent(self) -> None:
        """Output was written to the channel: hold the studio if the socket is backed up."""
        if "link" not in self._blocked and self.link_backlog() > LINK_HIGH_WATER:
            self.block("link")
            asyncio.get_running_loop().call_later(LINK_POLL, self._check_link)

    def link_backlog(self) -> int:
        """Bytes the connection's socket has not taken yet (0 where that cannot be known)."""
        transport = getattr(self._conn, "_transport", None)
        try:
            return transport.get_write_buffer_size() if transport is not None else 0
        except (AttributeError, RuntimeError):
            return 0

    def _check_link(self) -> None:
        if self._studio() is None:
            return
        if self.link_backlog() > LINK_HIGH_WATER // 4:
            asyncio.get_running_loop().call_later(LINK_POLL, self._check_link)
        else:
            self.unblock("link")

    def block(self, why: str) -> None:
        """Hold the studio because of ``why`` ("channel" or "link")."""
        self._blocked.add(why)
        if (process := self._studio()) is not None:
            process.hold()

    def unblock(self, why: str) -> None:
        """``why`` is over; the studio is released once nothing else holds it."""
        self._blocked.discard(why)
        if not self._blocked and (process := self._studio()) is not None:
            process.release()

    # ------------------------------------------------------------------------------- input

    def keys(self, data: bytes) -> None:
        """Pass the client's keys on; while the studio is behind, stop reading the client."""
        process = self._studio()
        if process is not None and not process.write(data):
            self._chan.pause_reading()  # the studio is not reading: stop the client, not memory
            process.input_drained = self._chan.resume_reading
