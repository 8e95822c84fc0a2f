"""One interactive session of the built-in SSH server: a studio process in its own
pseudo-terminal, or a spectator on a shared view, with the bytes passed both ways."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

import asyncssh

from studio.engines.common.inert import inert
from studio.ssh import roster_service
from studio.ssh.broadcast import Viewer
from studio.ssh.client_terminal import RESTORE_TERMINAL
from studio.ssh.environment import session_env
from studio.ssh.flow import Flow
from studio.ssh.pty_process import PtyProcess


class StudioSession(asyncssh.SSHServerSession):
    """One interactive session: a studio process in its own pseudo-terminal."""

    def __init__(self, connection: Any) -> None:
        """``connection``: the client's (``studio.ssh.server.Connection``)."""
        self.connection = connection
        self.hub = connection.hub
        self.chan: asyncssh.SSHServerChannel | None = None
        self.process: PtyProcess | Viewer | None = None
        self.size = (80, 24)
        self.has_pty = False
        self.spectating = False
        """On a shared view (``studio.ssh.broadcast``): no studio process of its own."""
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
        env = session_env(self.chan.get_terminal_type(), dict(self.chan.get_environment()))
        person = self.connection.person
        if person is not None and person.role == "spectator" and self.hub.config.shared_spectators:
            self._watch_shared(env)
            return
        limit = self.hub.config.max_sessions
        if self.hub.studios() >= limit:
            self._refuse(f"the server is full ({limit} sessions at once); try again later",
                         f"refused: server full ({limit} sessions)")
            return
        self.hub.sessions.add(self)
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

    def _watch_shared(self, env: dict[str, str]) -> None:
        """A spectator: onto the shared view that fits their terminal (one more studio only when
        none does)."""
        config = self.hub.config
        watching = sum(s.spectating for s in self.hub.sessions)
        if watching >= config.max_spectators or not self.hub.broadcasts.room_for(
                self.size, env, self.hub.studios(), config.max_sessions):
            self._refuse("the server is full; try again later",
                         f"refused: server full ({watching} spectators, "
                         f"{self.hub.studios()} studios)")
            return
        self.spectating = True
        self.hub.sessions.add(self)
        try:
            self.process = Viewer(self.hub, self.size, env, self._output, self._exited)
        except OSError as exc:
            self.hub.sessions.discard(self)
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
        if self.spectating:
            outcome = "left the shared view" if code == 0 else "the shared view stopped"
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
