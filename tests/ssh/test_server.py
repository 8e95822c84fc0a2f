"""The built-in SSH server with a real SSH client (asyncssh's): log in, use the studio, leave.

Every test starts its own server on 127.0.0.1 with a free port; the fixture closes it, which ends
and reaps every session's process, and the tests check that nothing is left running.
"""

from __future__ import annotations

import asyncio
import os
import signal
import tomllib
from pathlib import Path

import asyncssh
import pytest

from studio.ssh.server import session_env
from tests.ssh.conftest import alive
from tests.ssh.terminal import RemoteTerminal, connect

HOME = ("Hello World", "Shared", "palette")


async def wait_until(condition, timeout: float = 15) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


def session_pids(server) -> list[int]:
    return [s.process.pid for s in server.sessions if s.process is not None]


async def select(terminal: RemoteTerminal, file_name: str) -> None:
    """Move the home list's cursor to ``file_name`` (its details line names the file)."""
    await terminal.press("up", "up", "up", "up")
    for _ in range(6):
        if f"{file_name} —" in terminal.text():
            return
        await terminal.press("down", pause=0.3)
    raise AssertionError(f"{file_name} is not in the list:\n{terminal.text()}")


def top_left_tile(path: Path) -> str:
    return tomllib.loads(path.read_text(encoding="utf-8"))["map"]["background"][0]


async def test_log_in_open_a_project_type_resize_and_leave(make_server, client_key) -> None:
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key, size=(80, 24))
    screen = await terminal.wait_for(*HOME)
    assert "studio" in screen.splitlines()[0]
    [pid] = session_pids(server)
    await terminal.press("down", "enter")  # the list is sorted: Hello World, then Shared
    await terminal.wait_for("Shared — game home", "m Map")
    await terminal.press("m")
    await terminal.wait_for("Shared — map", "(0,0)")
    await terminal.press("right", "right")
    await terminal.wait_for("(2,0)")
    terminal.resize(120, 40)  # window-change -> TIOCSWINSZ -> SIGWINCH -> a new layout
    await wait_until(lambda: "Pen down/up" in terminal.screen.display[39])
    assert terminal.screen.display[0].index("Shared — map") > 40  # the title is centred anew
    await terminal.close()
    await wait_until(lambda: not server.sessions and not alive(pid))
    await wait_until(lambda: len(server.log) == 1)
    line = server.log[0]
    assert "peer=127.0.0.1:" in line and "user=ann" in line
    assert f"key={client_key.get_fingerprint('sha256')}" in line
    assert "duration=" in line and "ended=client disconnected" in line


async def test_keys_typed_ahead_in_one_packet_keep_their_order(make_server, client_key) -> None:
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key)
    await terminal.wait_for(*HOME)
    terminal.chan.write(b"\x1b[B\r")  # down, enter at once, as a fast typist over a slow link
    await terminal.wait_for("Shared — game home")
    await terminal.close()


async def test_quitting_the_studio_ends_the_session_with_its_status(make_server,
                                                                  client_key) -> None:
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key)
    await terminal.wait_for(*HOME)
    [pid] = session_pids(server)
    await terminal.press("q")
    await asyncio.wait_for(terminal.closed.wait(), 15)
    assert terminal.exit_status == 0
    await wait_until(lambda: not alive(pid) and not server.sessions)
    await terminal.close()  # as ssh does once its last channel closed
    await wait_until(lambda: len(server.log) == 1)
    assert "ended=studio exited (0)" in server.log[0]


async def test_a_wrong_key_and_a_password_are_refused(make_server) -> None:
    server = await make_server()
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, stranger)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, None, password="hunter2")
    await wait_until(lambda: len(server.log) == 2)
    assert "refused: no authorized key (1 offered)" in server.log[0]
    assert "closed before logging in" in server.log[1] and not server.sessions


async def test_exec_sftp_and_forwarding_are_refused(make_server, client_key) -> None:
    server = await make_server()
    async with await connect(server.port, client_key) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.run("cat /etc/passwd", check=False)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.start_sftp_client()
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
    await wait_until(lambda: len(server.log) == 1)
    line = server.log[0]
    assert "refused exec 'cat /etc/passwd'" in line and "refused subsystem 'sftp'" in line
    assert "refused port forwarding" in line and "refused remote port forwarding" in line
    assert not server.sessions


def test_a_session_gets_a_clean_environment() -> None:
    env = session_env("xterm-kitty", {"COLORTERM": "truecolor", "LD_PRELOAD": "/x.so",
                                      "SSH_AUTH_SOCK": "/tmp/a"},
                      {"PATH": "/bin", "HOME": "/home/t", "AWS_SECRET": "s"})
    assert env["TERM"] == "xterm-kitty" and env["COLORTERM"] == "truecolor"
    assert env["LANG"] == "C.UTF-8" and env["PATH"] == "/bin"
    assert not {"LD_PRELOAD", "SSH_AUTH_SOCK", "AWS_SECRET"} & set(env)
    assert session_env("xterm; rm -rf /", {})["TERM"] == "xterm-256color"


def test_a_client_cannot_name_where_a_session_loads_compiled_code_from() -> None:
    """``STUDIO_NUMBA_COPY`` and ``NUMBA_CACHE_DIR`` say where a process loads machine code from;
    a client sending them (``ssh -o SetEnv=...``) must not reach the session, whose own temp folder
    the server names (``studio.ssh.session``, ``studio.ssh.child``)."""
    from studio.engines import jit

    hostile = {jit.COPY_ENV: "/tmp/mine", "NUMBA_CACHE_DIR": "/tmp/mine", "PYTHONPATH": "/tmp/mine",
               "PYTHONSTARTUP": "/tmp/mine/x.py"}
    env = session_env("xterm", hostile, {"PATH": "/bin"})
    assert not any("/tmp/mine" in value for value in env.values()), env


async def test_beyond_max_sessions_a_login_is_told_the_server_is_full(make_server,
                                                                     client_key) -> None:
    server = await make_server(max_sessions=1)
    first = await RemoteTerminal.open(server.port, client_key)
    await first.wait_for(*HOME)
    second = await RemoteTerminal.open(server.port, client_key)
    await asyncio.wait_for(second.closed.wait(), 15)
    assert "the server is full (1 sessions at once)" in second.text()
    assert second.exit_status == 1 and len(server.sessions) == 1
    await second.close()
    no_pty = await RemoteTerminal.open(server.port, client_key, pty=False)
    await asyncio.wait_for(no_pty.closed.wait(), 15)
    await no_pty.close()
    [pid] = session_pids(server)
    await first.close()
    await wait_until(lambda: not alive(pid) and len(server.log) == 3)
    assert any("refused: server full (1 sessions)" in line for line in server.log)
    assert any("refused: no terminal" in line for line in server.log)


async def test_two_sessions_edit_one_project_and_nothing_is_lost(make_server, client_key,
                                                                shared: Path) -> None:
    """Ann saves first; Bob's save is stopped and asked about; then Ann deletes the project."""
    server = await make_server()
    path = shared / "shared.toml"
    ann = await RemoteTerminal.open(server.port, client_key)
    bob = await RemoteTerminal.open(server.port, client_key)
    for person in (ann, bob):
        await person.wait_for(*HOME)
        await person.press("down", "enter")
        await person.wait_for("Shared — game home")
        await person.press("m")
        await person.wait_for("Shared — map", "(0,0)")
    await ann.press("2", "space", "ctrl+s")  # grass at (0,0), saved
    await ann.wait_for("Saved shared.toml")
    assert top_left_tile(path) == "1"
    await bob.press("3", "space", "ctrl+s")  # water at (0,0): his file is stale now
    await bob.wait_for("Changed on disk", "Reload", "Overwrite")
    assert top_left_tile(path) == "1"  # Ann's save stands
    await bob.press("a")  # save as… the suggested shared-2.toml
    await bob.wait_for("Save as")
    await bob.press("enter")
    await bob.wait_for("Saved as")
    assert top_left_tile(path) == "1" and top_left_tile(shared / "shared-2.toml") == "2"

    # Ann deletes the file Bob now edits (shared-2.toml): his next save is asked about.
    await ann.press("escape", "escape")
    await ann.wait_for(*HOME)
    await ann.press("f5")
    await select(ann, "shared-2.toml")
    await ann.press("delete")
    await ann.wait_for("Delete project")
    await ann.press("y")
    await ann.wait_for("Moved shared-2.toml")
    assert not (shared / "shared-2.toml").exists()
    await bob.press("4", "space", "ctrl+s")  # dirt at (0,0)
    await bob.wait_for("The file is gone", "Save here again")
    await bob.press("o")
    await bob.wait_for("Saved shared-2.toml")
    assert top_left_tile(shared / "shared-2.toml") == "3"
    assert top_left_tile(shared / ".trash" / "shared-2.toml") == "2"
    assert top_left_tile(path) == "1"
    pids = session_pids(server)
    await ann.close()
    await bob.close()
    await wait_until(lambda: not any(alive(pid) for pid in pids) and not server.sessions)


async def test_closing_the_server_ends_every_session(make_server, client_key) -> None:
    server = await make_server()
    terminals = [await RemoteTerminal.open(server.port, client_key) for _ in range(2)]
    for terminal in terminals:
        await terminal.wait_for(*HOME)
    pids = session_pids(server)
    assert len(pids) == 2
    await server.close()
    assert not any(alive(pid) for pid in pids) and not server.sessions
    assert len(server.log) == 2 and all(line.endswith("ended=server stopped")
                                        for line in server.log), server.log
    for terminal in terminals:
        await asyncio.wait_for(terminal.closed.wait(), 10)
        assert_restored(terminal)
        assert "studio: the server stopped; your session has ended" in terminal.text()
        assert terminal.exit_status == 1


def assert_restored(terminal: RemoteTerminal) -> None:
    """The client's terminal is as the studio found it: normal screen, no mouse, a cursor."""
    on = {mode >> 5 for mode in terminal.screen.mode if mode >= 32}  # pyte: private modes << 5
    assert not on & {1049, 1000, 1003, 1006, 1015, 2004, 1004}, sorted(on)
    assert not terminal.screen.cursor.hidden


async def test_a_studio_that_is_killed_leaves_the_client_a_usable_terminal(make_server,
                                                                          client_key) -> None:
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key)
    await terminal.wait_for(*HOME)
    assert 1049 << 5 in terminal.screen.mode and terminal.screen.cursor.hidden  # the studio's
    [pid] = session_pids(server)
    os.kill(pid, signal.SIGKILL)  # out of memory, say: it cannot put the terminal back itself
    await asyncio.wait_for(terminal.closed.wait(), 15)
    assert_restored(terminal)
    assert "studio: the studio stopped unexpectedly (SIGKILL)" in terminal.text()
    await terminal.close()


async def test_the_wire_carries_only_changes(make_server, client_key) -> None:
    """After the first frame: nothing while idle, and a list move sends a few lines, not a screen."""
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key)
    await terminal.wait_for(*HOME)
    await terminal.settle(0.5)
    first_frame = terminal.bytes
    await asyncio.sleep(2)
    if terminal.bytes != first_frame:
        # A loaded machine can send a start-up frame late, after the quiet spell: settle once
        # more. Anything that repaints while idle (a blink, a clock) shows in this window too.
        await terminal.settle(0.5)
        first_frame = terminal.bytes
        await asyncio.sleep(2)
    assert terminal.bytes == first_frame  # idle: no blinking, no clock, no polling redraws
    moves = []
    for key in ("down", "up", "down"):
        before = terminal.bytes
        await terminal.press(key)
        # `settle` counts quiet from the last bytes received: wait for the answer to begin first.
        await wait_until(lambda: terminal.bytes > before)
        await terminal.settle(0.3)
        moves.append(terminal.bytes - before)
    # Two table rows and the details line change; the footer offers the same keys: not redrawn.
    assert all(0 < size < first_frame / 3 for size in moves), (moves, first_frame)
    await terminal.close()


async def test_a_dropped_connection_loses_only_its_unsaved_edits(make_server, client_key,
                                                                 shared: Path) -> None:
    server = await make_server()
    path = shared / "shared.toml"
    before = path.read_bytes()
    terminal = await RemoteTerminal.open(server.port, client_key)
    await terminal.wait_for(*HOME)
    await terminal.press("down", "enter")
    await terminal.wait_for("Shared — game home")
    await terminal.press("m", "2", "space")
    await terminal.wait_for("● unsaved")
    [pid] = session_pids(server)
    terminal.conn.abort()  # the link drops: no goodbye, no chance to ask about saving
    await wait_until(lambda: not alive(pid) and not server.sessions)
    assert path.read_bytes() == before
    assert sorted(p.name for p in shared.iterdir()) == ["hello-world.toml", "shared.toml"]
