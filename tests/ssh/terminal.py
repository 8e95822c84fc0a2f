"""A remote terminal for tests and benchmarks: an asyncssh client session read through pyte.

``RemoteTerminal`` logs in with a key, asks for a pty like ``ssh -t`` does, and keeps a VT100
screen model of everything received, so a test can wait for text to appear where a person would
see it, and count the bytes the server sent.
"""

from __future__ import annotations

import asyncio
import time

import asyncssh
import pyte

KEYS = {"enter": b"\r", "escape": b"\x1b", "up": b"\x1b[A", "down": b"\x1b[B",
        "right": b"\x1b[C", "left": b"\x1b[D", "tab": b"\t", "shift+tab": b"\x1b[Z", "space": b" ",
        "ctrl+s": b"\x13", "ctrl+z": b"\x1a", "ctrl+q": b"\x11", "delete": b"\x1b[3~",
        "f5": b"\x1b[15~", "ctrl+o": b"\x0f", "ctrl+r": b"\x12", "home": b"\x1b[H"}


async def connect(port: int, key: asyncssh.SSHKey | None = None, *, username: str = "ann",
                  password: str | None = None, timeout: float = 20) -> asyncssh.SSHClientConnection:
    """A client connection to 127.0.0.1 that uses only what it is given (no agent, no config)."""
    return await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=username, known_hosts=None, agent_path=None, config=[],
        client_keys=[key] if key is not None else None, password=password,
        preferred_auth="publickey,password,keyboard-interactive" if password else "publickey",
    ), timeout)


class _Session(asyncssh.SSHClientSession):
    def __init__(self, terminal: RemoteTerminal) -> None:
        self.terminal = terminal

    def data_received(self, data: bytes, datatype: object) -> None:
        self.terminal.received(data)

    def exit_status_received(self, status: int) -> None:
        self.terminal.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.terminal.closed.set()


class RemoteTerminal:
    """One interactive session with a screen model; ``bytes`` counts everything received."""

    def __init__(self, conn: asyncssh.SSHClientConnection, size: tuple[int, int]) -> None:
        self.conn = conn
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.bytes = 0
        self.kept: bytearray | None = None
        """Every byte received, once ``open(keep=True)`` asked for them."""
        self.last_data = time.monotonic()
        self.exit_status: int | None = None
        self.closed = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel | None = None

    @classmethod
    async def open(cls, port: int, key: asyncssh.SSHKey, size: tuple[int, int] = (80, 24),
                   term: str = "xterm-256color", pty: bool = True,
                   window: int | None = None, username: str = "ann",
                   keep: bool = False) -> RemoteTerminal:
        """``window``: the channel's receive window (what the server may send unread);
        ``keep``: keep every byte received in ``kept``."""
        conn = await connect(port, key, username=username)
        terminal = cls(conn, size)
        if keep:
            terminal.kept = bytearray()
        options = {} if window is None else {"window": window}
        chan, _ = await asyncio.wait_for(conn.create_session(
            lambda: _Session(terminal), encoding=None,
            term_type=term if pty else None, term_size=size if pty else None, **options), 20)
        terminal.chan = chan
        return terminal

    def received(self, data: bytes) -> None:
        self.bytes += len(data)
        if self.kept is not None:
            self.kept += data
        self.last_data = time.monotonic()
        self.stream.feed(data)

    # ------------------------------------------------------------------------------- look

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, *texts: str, timeout: float = 30) -> str:
        """Wait until every one of ``texts`` is on the screen; returns the screen's text."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if all(text in screen for text in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {texts!r}; the screen shows:\n{screen}")
            if self.closed.is_set():
                raise AssertionError(f"the session closed before {texts!r} showed:\n{screen}")
            await asyncio.sleep(0.02)

    async def settle(self, quiet: float = 0.3, timeout: float = 15) -> None:
        """Wait until nothing has arrived for ``quiet`` seconds (the frame is complete)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last_data < quiet and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    # ------------------------------------------------------------------------------- act

    async def press(self, *keys: str, pause: float = 0.15) -> None:
        """Type keys (names from ``KEYS``, or text) with a pause after each, as a person would."""
        assert self.chan is not None
        for key in keys:
            self.chan.write(KEYS.get(key, key.encode()))
            await asyncio.sleep(pause)

    def resize(self, cols: int, rows: int) -> None:
        assert self.chan is not None
        self.screen.resize(rows, cols)
        self.chan.change_terminal_size(cols, rows)

    async def close(self) -> None:
        self.conn.close()
        await asyncio.wait_for(self.conn.wait_closed(), 10)
