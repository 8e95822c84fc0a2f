"""The built-in SSH server: public-key logins, one studio process per session, nothing else.

The server does three things and refuses the rest: it checks a client's key against an
authorized_keys file or a roster (:mod:`studio.ssh.login`), it runs
``python -m studio.ssh.child`` in a fresh pseudo-terminal for each interactive session
(:mod:`studio.ssh.session`; spectators share one, :mod:`studio.ssh.broadcast`), and it
passes bytes both ways. Passwords, keyboard-interactive, exec, subsystems (SFTP), port and agent
forwarding are all refused. One line is logged per connection when it ends.

What came from outside (a client's user name, the command it asked for, an exception's text, a
line of the authorized_keys file) reaches the log and a client's terminal only made inert
(``studio.engines.common.inert``): an escape sequence in it is shown, not obeyed, and a newline
in it cannot forge a log line.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from studio.engines.common.inert import inert
# precompile and session_env are the server's to offer (the serve command and tests use them).
from studio.ssh.environment import precompile, session_argv, session_env  # noqa: F401
from studio.ssh.broadcast import Broadcasts
from studio.ssh.client_terminal import RESTORE_TERMINAL  # noqa: F401 (the server's word for it)
from studio.ssh.login import Gate
from studio.ssh.session import StudioSession
from studio.storage.roster import Person




@dataclass
class ServeConfig:
    """What ``studio serve --ssh`` was asked for."""

    folder: Path
    authorized_keys: Path
    host_key: asyncssh.SSHKey
    host: str = "127.0.0.1"
    port: int = 2222
    max_sessions: int = 8
    """Studio processes at most: sessions' own, and shared views (``studio.ssh.broadcast``)."""
    max_spectators: int = 200
    """Spectators on shared views at most (each costs the server their bytes, no process)."""
    shared_spectators: bool = True
    """Spectators watch shared views; False: each has a studio of their own, like any session."""
    theme: str | None = None
    grace: float = 1.0
    """Seconds a session's studio gets to end after a hangup before it is terminated, then killed."""
    host_key_path: Path | None = None
    """Where the host key is kept: one of the files a session may never reach."""
    roster: Path | None = None
    """Who each key is and in which role (``studio.storage.roster``); read at every login, and
    then the only keys allowed in. None: the authorized keys, everyone a teacher."""
    log: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr, flush=True))


class StudioSSH:
    """The running server: its sessions, the limit on them and the log."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.sessions: set[StudioSession] = set()
        self.connections: set[Connection] = set()
        self._endings: set[asyncio.Task[int]] = set()
        self._server: asyncssh.SSHAcceptor | None = None
        self.broadcasts = Broadcasts(self)

    def studios(self) -> int:
        """The studio processes running: sessions' own and shared views."""
        own = sum(not s.spectating for s in self.sessions)
        return own + self.broadcasts.processes

    @property
    def port(self) -> int:
        """The port listened on (useful with ``port=0``, which picks a free one)."""
        assert self._server is not None
        return self._server.sockets[0].getsockname()[1]

    async def start(self) -> None:
        self._server = await asyncssh.create_server(
            lambda: Connection(self), self.config.host, self.config.port,
            server_host_keys=[self.config.host_key],
            encoding=None, line_editor=False,  # raw bytes both ways: the studio is the editor
            agent_forwarding=False, x11_forwarding=False, allow_scp=False,
            gss_host=None, kbdint_auth=False, password_auth=False, host_based_auth=False,
            login_timeout=30, keepalive_interval=30, keepalive_count_max=4,
        )

    async def close(self) -> None:
        """Stop listening, end every session and reap every process."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for connection in list(self.connections):
            connection.note("server stopped")
        for session in list(self.sessions):
            session.leave("the server stopped; your session has ended (unsaved edits are lost)")
        self.broadcasts.close()
        while self._endings:
            await asyncio.gather(*list(self._endings), return_exceptions=True)
        for connection in list(self.connections):
            if connection.conn is not None:
                connection.conn.close()
        for _ in range(100):  # up to 2 s for every connection to close and log its line
            if not self.connections:
                break
            await asyncio.sleep(0.02)

    def track(self, task: asyncio.Task[int]) -> None:
        self._endings.add(task)
        task.add_done_callback(self._endings.discard)

    def own_files(self) -> list[Path]:
        """The server's files, never to be reached from a session wherever they sit."""
        config = self.config
        files = [config.authorized_keys] + ([config.roster] if config.roster else [])
        if config.host_key_path is not None:
            files += [config.host_key_path, config.host_key_path.with_name(
                config.host_key_path.name + ".pub")]
        return files

    def argv(self, temp: Path | None = None, person: Person | None = None,
             shared_view: bool = False) -> list[str]:
        """The session's command line (:func:`~studio.ssh.environment.session_argv`)."""
        return session_argv(self.config.folder, self.config.theme, self.own_files(), temp, person,
                            shared_view)


class Connection(asyncssh.SSHServer):
    """One client connection: authentication and its log line."""

    def __init__(self, hub: StudioSSH) -> None:
        self.hub = hub
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.user = "-"
        self.key = "-"
        self.started = time.monotonic()
        self.authenticated = False
        self.ended = ""
        self.refused_keys = 0
        self.gate = Gate(hub.config.authorized_keys, hub.config.roster)
        self.person: Person | None = None
        """Who logged in, from the roster (None without one: a teacher)."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        host, port = conn.get_extra_info("peername")[:2]
        self.peer = f"{host}:{port}"
        self._host = host
        self.hub.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.hub.connections.discard(self)
        if not self.authenticated:
            self.note(f"refused: no authorized key ({self.refused_keys} offered)"
                      if self.refused_keys else "closed before logging in")
        elif not self.ended:
            self.ended = "closed"
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        duration = time.monotonic() - self.started
        who = ""
        if self.person is not None:  # the roster's words: one field each, inert, no spaces
            name = inert(self.person.name).replace(" ", "_")
            team = f" team={inert(self.person.team).replace(' ', '_')}" if self.person.team else ""
            who = f"name={name} role={self.person.role}{team} "
        self.hub.config.log(f"{stamp} peer={self.peer} user={self.user} {who}key={self.key} "
                            f"duration={duration:.1f}s ended={self.ended}")

    def note(self, what: str) -> None:
        """Record how the connection ended (the first reason wins, refusals add to it); what it
        quotes from outside (a command, an exception) is made inert."""
        what = inert(what)
        self.ended = f"{self.ended}; {what}" if self.ended else what

    # -------------------------------------------------------------------- authentication

    def begin_auth(self, username: str) -> bool:
        # One field of the log line: no escape obeyed, no space or newline to forge another.
        self.user = inert(username[:64]).replace(" ", "_") or "-"
        problem = self.gate.begin()
        if problem:
            self.note(problem)
        return True  # always ask for a key

    def public_key_auth_supported(self) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh asks again for the key it checks a signature of, right before the login
        # succeeds: the person kept is that key's, not one a client only offered.
        admitted, person = self.gate.admit(key, self._host)
        if not admitted:
            self.refused_keys += 1
            return False
        self.person = person
        self.key = key.get_fingerprint("sha256")
        self.login_key = (key.get_algorithm(), key.public_data)
        return True

    def auth_completed(self) -> None:
        self.authenticated = True

    # --------------------------------------------------------------------------- requests

    def session_requested(self) -> StudioSession:
        return StudioSession(self)

    def connection_requested(self, *args: object) -> bool:
        self.note("refused port forwarding")
        return False

    def server_requested(self, *args: object) -> bool:
        self.note("refused remote port forwarding")
        return False

    def unix_connection_requested(self, *args: object) -> bool:
        self.note("refused socket forwarding")
        return False

    def unix_server_requested(self, *args: object) -> bool:
        self.note("refused socket forwarding")
        return False
