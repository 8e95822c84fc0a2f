"""The SSH server's parts on their own: the host key, the pty process, the command, the imports."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from studio.engines import jit
from studio.engines.haunted.ai import landlock
from studio.ssh import hostkey
from studio.ssh.pty_process import PtyProcess, descendants
from tests.ssh.conftest import ROOT, alive
from tests.ssh.terminal import RemoteTerminal

ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}


def test_the_host_key_is_made_once_private_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "state" / "studio" / hostkey.KEY_NAME
    key, created = hostkey.load_or_create(path)
    assert created and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert key.algorithm == b"ssh-ed25519"
    again, created = hostkey.load_or_create(path)
    assert not created and hostkey.fingerprint(again) == hostkey.fingerprint(key)
    assert hostkey.fingerprint(key).startswith("SHA256:")
    path.chmod(0o644)
    with pytest.raises(hostkey.HostKeyError, match="chmod 600"):
        hostkey.load_or_create(path)


def test_the_state_folder_follows_xdg(tmp_path: Path) -> None:
    assert hostkey.state_folder({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "studio"
    home = Path.home() / ".local" / "state" / "studio"
    assert hostkey.state_folder({}) == home
    assert hostkey.state_folder({"XDG_STATE_HOME": "relative/path"}) == home


async def run_in_pty(code: str, size: tuple[int, int] = (80, 24)):
    output = bytearray()
    done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    process = PtyProcess([sys.executable, "-c", code], ENV, size, output.extend,
                         lambda status: done.set_result(status))
    return process, output, done


async def wait_for(output: bytearray, text: bytes, timeout: float = 10) -> None:
    async def poll() -> None:
        while text not in output:
            await asyncio.sleep(0.02)
    await asyncio.wait_for(poll(), timeout)


async def test_a_resize_reaches_the_program_as_sigwinch() -> None:
    code = ("import fcntl, os, signal, sys, termios, time\n"
            "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
            # os.write, not print: a signal landing while the first answer is still inside
            # print's buffered write ran the handler there, and the nested print raised
            # "reentrant call inside BufferedWriter" (CI, three times in many runs).
            "def changed(*_):\n"
            "    os.write(1, ('size %d %d\\n' % tuple(os.get_terminal_size())).encode())\n"
            "signal.signal(signal.SIGWINCH, changed)\n"
            "changed()\n"
            # A signal that lands between Python's last check and a blocking read() waits for
            # that read to end: poll with a timeout so the handler runs whenever it lands.
            "import select\n"
            "while not select.select([0], [], [], 0.05)[0]:\n"
            "    pass\n"
            "sys.stdin.readline()\n")
    process, output, done = await run_in_pty(code, (80, 24))
    await wait_for(output, b"size 80 24")
    process.resize(120, 40)
    await wait_for(output, b"size 120 40")
    process.write(b"\r")  # the program reads its line and ends by itself
    assert await asyncio.wait_for(done, 10) == 0 and process.returncode == 0


async def test_ending_hangs_up_and_reaps_the_program_and_what_it_started() -> None:
    code = ("import signal, subprocess, sys, time\n"
            "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"  # stubborn: needs SIGTERM or worse
            "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "worker = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],\n"
            "                          start_new_session=True)\n"
            "print('worker', worker.pid, flush=True)\n"
            "time.sleep(60)\n")
    process, output, _done = await run_in_pty(code)
    await wait_for(output, b"worker ")
    await asyncio.sleep(0.1)
    worker = int(bytes(output).split(b"worker ")[1].split()[0])
    assert worker in descendants(process.pid)
    status = await process.end(grace=0.3)
    assert status == -signal.SIGKILL
    assert not alive(process.pid)
    for _ in range(100):  # the worker is not ours to reap: wait for the kill to land
        if not alive(worker):
            break
        await asyncio.sleep(0.05)
    assert not alive(worker)


def test_serve_without_ssh_or_without_the_extra_says_what_to_do(tmp_path: Path) -> None:
    usage = subprocess.run([sys.executable, "-m", "studio", "serve", str(tmp_path)],
                           capture_output=True, text=True, timeout=60, env=ENV, cwd=tmp_path)
    assert usage.returncode == 2 and "--ssh" in usage.stderr
    code = ("import sys\nsys.modules['asyncssh'] = None\n"
            "from studio.cli import main\nsys.exit(main(['serve', '--ssh', sys.argv[1]]))")
    missing = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                             text=True, timeout=60, env=ENV, cwd=tmp_path)
    assert missing.returncode == 1
    assert "pip install 'tilegame-studio[ssh]'" in missing.stderr and "Traceback" not in missing.stderr


def test_the_server_never_loads_the_ui() -> None:
    code = ("import sys, studio.ssh.server, studio.ssh.child, studio.commands.serve\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('textual', 'rich'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, env=ENV)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


async def test_studio_serve_ssh_from_the_command_line(tmp_path: Path, shared: Path,
                                                      client_key) -> None:
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(client_key.export_public_key())
    # An empty numba cache: the server's warm-up compiles, and is still at it while we look.
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "studio", "serve", "--ssh", str(shared), "--port", "0",
        "--authorized-keys", str(authorized), "--max-sessions", "2",
        env={**ENV, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
             "NUMBA_CACHE_DIR": str(tmp_path / "numba")},
        stderr=asyncio.subprocess.PIPE, cwd=tmp_path, start_new_session=True)
    try:
        lines = []
        while not lines or "connect with" not in lines[-1]:
            line = await asyncio.wait_for(server.stderr.readline(), 60)
            assert line, "".join(lines)
            lines.append(line.decode())
        text = "".join(lines)
        assert "host key SHA256:" in text and "(made now in" in text
        assert f"sessions read and write only inside {shared}: " in text
        assert "no roster: everyone who logs in is a teacher" in text
        assert ("confined with Landlock ABI" in text) == (landlock.abi_version() >= 1)
        assert (tmp_path / "state" / "studio" / hostkey.KEY_NAME).exists()
        port = int(lines[-1].split("-p ")[1].split()[0])
        terminal = await RemoteTerminal.open(port, client_key)
        await terminal.wait_for("Hello World", "Shared")
        below = {pid: _command_line(pid) for pid in descendants(server.pid)}
        [child] = [pid for pid, line in below.items() if "studio.ssh.child" in line]
        warming = [pid for pid, line in below.items() if "runpy" in line]
        if jit.installed():  # compiling the kernels the sessions load copies of, below them
            assert "compiling the solver's and simulator's kernels for the sessions" in text
            [warm] = warming
            assert _nice(warm) >= _nice(server.pid) + 10, below
        else:
            assert warming == [] and "kernels" not in text
        server.send_signal(signal.SIGTERM)  # ctrl+c or a service manager stopping it
        assert await asyncio.wait_for(server.wait(), 30) == 0
        assert not alive(child)
        assert not any(alive(pid) for pid in warming)  # a stopped server leaves no compile running
        rest = (await server.stderr.read()).decode()
        assert "ended=server stopped" in rest
        await terminal.close()
    finally:
        if server.returncode is None:
            os.killpg(server.pid, signal.SIGKILL)
            await server.wait()


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _nice(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[16])


def test_a_roster_with_a_mistake_stops_the_start_naming_the_file_and_field(
        tmp_path: Path, shared: Path) -> None:
    roster = tmp_path / "roster.toml"
    roster.write_text('[[person]]\nname = "Ann"\nrole = "student"\nkeys = ["ssh-ed25519 AAAA"]\n')
    result = subprocess.run([sys.executable, "-m", "studio", "serve", "--ssh", str(shared),
                             "--port", "0", "--roster", str(roster)], capture_output=True,
                            text=True, timeout=60, env={**ENV, "HOME": str(tmp_path),
                                                        "XDG_STATE_HOME": str(tmp_path / "s")})
    assert result.returncode == 1
    assert f"{roster}: person[0].team: team is missing or empty" in result.stderr


def test_the_studio_without_a_terminal_says_to_use_ssh_t(shared: Path) -> None:
    """`ssh host studio` (no -t) or a ForceCommand account given a command: no pty there."""
    result = subprocess.run([sys.executable, "-m", "studio", str(shared)], capture_output=True,
                            text=True, timeout=60, env=ENV, stdin=subprocess.DEVNULL)
    assert result.returncode == 1 and result.stdout == ""
    assert "needs a terminal" in result.stderr and "ssh -t" in result.stderr
