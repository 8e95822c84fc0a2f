"""The built-in server with OpenSSH's ``ssh`` as the client, where it is installed."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pyte
import pytest

from studio.ssh.pty_process import PtyProcess
from tests.ssh.conftest import alive
from tests.ssh.test_server import HOME, session_pids, wait_until

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="OpenSSH's ssh is not installed")


@pytest.fixture
def ssh_files(tmp_path: Path, client_key) -> Path:
    """An identity file (mode 0600, as ssh insists) beside an empty known_hosts."""
    identity = tmp_path / "id_ed25519"
    identity.write_bytes(client_key.export_private_key())
    identity.chmod(0o600)
    return identity


def ssh_command(server, identity: Path, *extra: str) -> list[str]:
    known = identity.with_name("known_hosts")
    key = server.config.host_key.export_public_key().decode().split()[:2]
    known.write_text(f"[127.0.0.1]:{server.port} {' '.join(key)}\n")
    # -F /dev/null and IdentitiesOnly: the person's own config and agent play no part.
    return [SSH, "-F", "/dev/null", "-p", str(server.port), "-i", str(identity),
            "-o", "IdentitiesOnly=yes", "-o", f"UserKnownHostsFile={known}",
            "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
            *extra, "ann@127.0.0.1"]


async def test_ssh_logs_in_sees_the_studio_resizes_and_leaves(make_server, ssh_files) -> None:
    server = await make_server()
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    ended = asyncio.Event()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
           "HOME": str(ssh_files.parent)}
    client = PtyProcess(ssh_command(server, ssh_files, "-t"), env, (80, 24), stream.feed,
                        lambda code: ended.set())
    try:
        await wait_until(lambda: all(t in "\n".join(screen.display) for t in HOME), 30)
        [pid] = session_pids(server)
        for key in (b"\x1b[B", b"\r"):  # down, enter: open Shared
            client.write(key)
            await asyncio.sleep(0.2)
        await wait_until(lambda: "Shared — game home" in "\n".join(screen.display))
        screen.resize(40, 120)
        client.resize(120, 40)
        os.kill(client.pid, signal.SIGWINCH)  # what the person's terminal does on a resize
        await wait_until(lambda: "m Map" in "\n".join(screen.display)
                         and screen.display[0].index("Shared") > 40)
    finally:
        await client.end(grace=2)  # ssh hangs up, as when a terminal window is closed
    await wait_until(lambda: not alive(pid) and not server.sessions)
    await wait_until(lambda: len(server.log) == 1)
    assert "ended=client disconnected" in server.log[0]


async def test_ssh_password_and_exec_are_refused(make_server, ssh_files) -> None:
    server = await make_server()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL)

    password_only = ssh_command(server, ssh_files, "-o", "PubkeyAuthentication=no",
                                "-o", "PreferredAuthentications=password,keyboard-interactive")
    result = await asyncio.to_thread(run, *password_only)
    assert result.returncode == 255 and "Permission denied (publickey)" in result.stderr
    result = await asyncio.to_thread(run, *ssh_command(server, ssh_files), "id")
    assert result.returncode != 0 and "exec request failed" in result.stderr
    result = await asyncio.to_thread(run, *ssh_command(server, ssh_files, "-T"))
    assert result.returncode == 1 and "needs a terminal" in result.stdout
    await wait_until(lambda: len(server.log) == 3)
    assert "refused exec 'id'" in server.log[1] and not server.sessions
