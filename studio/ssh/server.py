"""The built-in SSH server: public-key logins, one studio process per session, nothing else.

The server does three things and refuses the rest: it checks a client's key against an
authorized_keys file or a roster (:mod:`studio.ssh.login`), it runs
``python -m studio.ssh.child`` in a fresh pseudo-terminal for each interactive session, and it
passes bytes both ways. Passwords, keyboard-interactive, exec, subsystems (SFTP), port and agent
forwarding are all refused. One line is logged per connection when it ends.

What came from outside (a client's user name, the command it asked for, an exception's text, a
line of the authorized_keys file) reaches the log and a client's terminal only made inert
(``studio.engines.common.inert``): an escape sequence in it is shown, not obeyed, and a newline
in it cannot forge a log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from studio.engines.common.inert import inert
# precompile and session_env are the server's to offer (the serve command and tests use them).
from studio.ssh.environment import precompile, session_argv, session_env  # noqa: F401
from studio.ssh.flow import Flow
from studio.ssh import roster_service
from studio.ssh.login import Gate
from studio.ssh.pty_process import PtyProcess
from studio.storage.roster import Person

RESTORE_TERMINAL = (
    b"\x18"  # CAN: ends an escape sequence the studio's last bytes may have left half-sent
    b"\x1b[<u"  # the kitty keyboard protocol off (before leaving the alternate screen)
    b"\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"  # mouse reports off
    b"\x1b[?2004l\x1b[?1004l\x1b[?2048l\x1b[?7h"  # bracketed paste, focus, resize reports
    b"\x1b[0m\x1b[?1049l\x1b[?25h"  # plain text, the normal screen, the cursor shown
)
"""What the studio writes when it leaves the terminal, for the server to write when the studio
cannot: it was ended by the server stopping, or killed. Without it the client's terminal stayed
in the alternate screen, with mouse reports on and no cursor."""


@dataclass
class ServeConfig:
    """What ``studio serve --ssh`` was asked for."""

    folder: Path
    authorized_keys: Path
    host_key: asyncssh.SSHKey
    host: str = "127.0.0.1"
    port: int = 2222
    max_sessions: int = 8
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

    def argv(self, temp: Path | None = None, person: Person | None = None) -> list[str]:
        """The session's command line (:func:`~studio.ssh.environment.session_argv`)."""
        return session_argv(self.config.folder, self.config.theme, self.own_files(), temp, person)


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


class StudioSession(asyncssh.SSHServerSession):
    """One interactive session: a studio process in its own pseudo-terminal."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.hub = connection.hub
        self.chan: asyncssh.SSHServerChannel | None = None
        self.process: PtyProcess | None = None
        self.size = (80, 24)
        self.has_pty = False
        self.temp: Path | None = None
        self._closed = False
        self.flow: Flow  # made with the channel: holds the studio while its client does not read

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan
        self.flow = Flow(chan, self.connection.conn,
                         lambda: None if self._closed else self.process)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: object) -> bool:
        self.has_pty = True
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.connection.note(f"refused exec {command[:80]!r}")
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        self.connection.note(f"refused subsystem {subsystem[:40]!r}")
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if not self.has_pty:
            self._refuse("the studio needs a terminal: connect with 'ssh -t'", "refused: no terminal")
            return
        limit = self.hub.config.max_sessions
        if len(self.hub.sessions) >= limit:
            self._refuse(f"the server is full ({limit} sessions at once); try again later",
                         f"refused: server full ({limit} sessions)")
            return
        self.hub.sessions.add(self)
        term = self.chan.get_terminal_type()
        env = session_env(term, dict(self.chan.get_environment()))
        try:
            # Its own temp folder, the only writable place besides the served folder: AI workers
            # make theirs in it, numba caches there, and no session sees another's.
            self.temp = Path(tempfile.mkdtemp(prefix="studio-session-"))
            env["TMPDIR"] = str(self.temp)
            env["NUMBA_CACHE_DIR"] = str(self.temp / "numba")
            argv = self.hub.argv(self.temp, self.connection.person)
            with roster_service.for_session(self.hub.config.roster, self.connection, env) as fds:
                self.process = PtyProcess(argv, env, self.size, self._output, self._exited,
                                          pass_fds=fds)
        except OSError as exc:
            self.hub.sessions.discard(self)
            self._remove_temp()
            self._refuse(f"cannot start the studio: {exc}", f"failed to start: {exc}")

    def _remove_temp(self) -> None:
        if self.temp is not None:
            shutil.rmtree(self.temp, ignore_errors=True)
            self.temp = None

    def _refuse(self, message: str, reason: str) -> None:
        assert self.chan is not None
        self.connection.note(reason)
        self._tell(message)
        self.chan.exit(1)

    def _tell(self, message: str) -> None:
        """Write the server's own one line to the client, what it quotes made inert."""
        if self.chan is not None and not self._closed:
            with contextlib.suppress(OSError):
                self.chan.write(f"studio: {inert(message)}\r\n".encode())

    # ------------------------------------------------------------------------ the bridge

    def _output(self, data: bytes) -> None:
        if self.chan is not None and not self._closed:
            self.chan.write(data)
            self.flow.sent()

    def data_received(self, data: bytes, datatype: object) -> None:
        self.flow.keys(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.process is not None:
                self.process.resize(width, height)  # the kernel sends the studio SIGWINCH

    def pause_writing(self) -> None:
        self.flow.block("channel")  # a slow or stopped reader: let the studio wait, not memory grow

    def resume_writing(self) -> None:
        self.flow.unblock("channel")

    def eof_received(self) -> bool:
        return True  # keep drawing; the studio ends with its own quit or the hangup

    def leave(self, reason: str) -> None:
        """End the session from the server's side: the client's terminal is restored and told
        ``reason`` in one line, then the studio is hung up (it ends the ordinary way)."""
        if self.process is not None:
            self.process.hold()  # nothing more of the studio's: the goodbye is the last word
        self._goodbye(reason)
        self.end_process()
        if self.chan is not None and not self._closed:
            self._closed = True
            self.chan.exit(1)

    def _goodbye(self, reason: str) -> None:
        if self.chan is not None and not self._closed:
            with contextlib.suppress(OSError):
                self.chan.write(RESTORE_TERMINAL + b"\r\n")
            self._tell(reason)

    def _exited(self, code: int) -> None:
        """The studio ended by itself (quit or crash): pass its status on and close."""
        self.hub.sessions.discard(self)
        self._remove_temp()
        outcome = f"studio exited ({code})" if code >= 0 else f"studio killed by signal {-code}"
        self.connection.note(outcome)
        if self.chan is not None and not self._closed:
            if code < 0:  # killed: it could not put the terminal back itself
                name = signal.Signals(-code).name
                self._goodbye(f"the studio stopped unexpectedly ({name}); unsaved edits are lost")
            self._closed = True
            if code >= 0:
                self.chan.exit(code)
            else:
                self.chan.exit_with_signal(signal.Signals(-code).name.removeprefix("SIG"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        if self.process is not None and self.process.returncode is None:
            self.connection.note("client disconnected")
            self.end_process()

    def end_process(self) -> None:
        if self.process is None:
            return
        process, self.process = self.process, None

        async def end() -> int:
            try:
                return await process.end(self.hub.config.grace)
            finally:
                self.hub.sessions.discard(self)
                self._remove_temp()

        self.hub.track(asyncio.ensure_future(end()))
