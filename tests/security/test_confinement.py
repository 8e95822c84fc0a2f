"""Hostile AIs against the worker's confinement (issue 28, items 3, 4 and 6).

Each test is one attack, with its outcome asserted: the secret is in neither the match log nor
the replay, the worker holds no privilege, nothing is left once the round ends, the JavaScript
memory cap holds for ``ArrayBuffer``s. Both languages wherever the attack applies: a script in
V8 has no file or IPC calls to try, so for JavaScript the worker's own state is checked (the
same confinement that stops a Python AI, in case a script escapes V8).
"""

from __future__ import annotations

import ctypes
import json
import os
import secrets
import shutil
import socket
import tempfile
import textwrap
from pathlib import Path

import pytest

from studio import cli
from studio.engines.haunted.ai import landlock, runner
from tests.haunted.hostile import HAS_JS, NO_JS_REASON, move, player, wait_gone

needs_landlock = pytest.mark.skipif(landlock.abi_version() < 1, reason="the kernel has no Landlock")
needs_js = pytest.mark.skipif(not HAS_JS, reason=NO_JS_REASON)
LANGUAGES = ["py", pytest.param("js", marks=needs_js)]


def _token(what: str) -> str:
    return f"SECRET-{what}-{secrets.token_hex(8)}"


@pytest.fixture
def victim():
    """A machine's secrets as an attacker finds them: a root-only key (0600), another team's AI
    and the project file (0644, in a folder anyone may enter), and a secret in the studio's
    environment. Outside pytest's 0700 folder, so that only confinement stops the reads."""
    base = Path(tempfile.mkdtemp(prefix="studio-victim-"))
    base.chmod(0o755)
    project = base / "project"
    (project / "ais").mkdir(parents=True)
    for folder in (project, project / "ais"):
        folder.chmod(0o755)
    tokens = {name: _token(name) for name in ("key", "other", "project", "environ")}
    key = base / "ssh_host_ed25519_key"
    key.write_text(tokens["key"])
    key.chmod(0o600)
    other = project / "ais" / "other_team.py"
    other.write_text(f"# {tokens['other']}\ndef main(game_state, side):\n    return []\n")
    toml = project / "cup.toml"
    toml.write_text(f'[project]\nkind = "haunted"\nname = "{tokens["project"]}"\n')
    for path in (other, toml):
        path.chmod(0o644)
    os.environ["STUDIO_TEST_TOKEN"] = tokens["environ"]
    paths = [str(key), str(other), str(toml), "/etc/shadow", "/proc/1/environ",
             f"/proc/{os.getpid()}/environ", str(project / "ais")]
    try:
        yield project, paths, tokens
    finally:
        os.environ.pop("STUDIO_TEST_TOKEN", None)
        shutil.rmtree(base, ignore_errors=True)


THIEF = '''
import os

PATHS = {paths!r}


def main(game_state, side):
    for path in PATHS:
        try:
            if os.path.isdir(path):
                print(path, "lists", os.listdir(path))
            else:
                with open(path, "rb") as file:
                    print(path, "reads", file.read(300))
        except OSError as exc:
            print(path, "refused:", type(exc).__name__)
    return ["none", "none", "none"]
'''


@needs_landlock
def test_an_ai_cannot_read_secrets_other_ais_or_the_project(victim, capsys) -> None:
    project, paths, tokens = victim
    thief = project / "ais" / "thief.py"
    thief.write_text(textwrap.dedent(THIEF.format(paths=paths)))
    thief.chmod(0o644)
    saved = project / "thief.json"
    assert cli.main(["match", str(thief), "builtin:idle", "--rounds", "1", "--seed", "5",
                     "--timeout", "5", "--json", "--replay", str(saved)]) == 0
    printed = capsys.readouterr()
    replay = saved.read_text()
    for name, token in tokens.items():
        assert token not in replay, f"the {name} secret reached the replay"
        assert token not in printed.out + printed.err, f"the {name} secret reached the log"
    assert json.loads(printed.out)["log"] == []  # ran confined: no "runs unconfined" note
    # The thief did run and try every path (the test would prove nothing otherwise).
    for path in paths:
        assert f"{path} refused: PermissionError" in replay, path


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status", encoding="ascii") as file:
        return dict(line.rstrip("\n").split(":\t", 1) for line in file if ":\t" in line)


@needs_landlock
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_worker_holds_no_privilege_and_shares_no_namespace(language: str) -> None:
    name = "counter.py" if language == "py" else "js_counter.js"
    with player(name) as ai:
        assert ai.load(1, "home").ok
        assert move(ai).ok  # the JS worker's V8 threads exist by now
        pid = ai.pid
        tasks = os.listdir(f"/proc/{pid}/task")
        for task in tasks:  # capabilities and no_new_privs are per thread: V8's too
            status = _status(int(task))
            for field in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
                assert int(status[field], 16) == 0, (task, field, status[field])
            assert status["NoNewPrivs"].strip() == "1", task
            assert status["Seccomp"].strip() == "2", task  # the filter refusing Unix sockets
            assert os.readlink(f"/proc/{pid}/task/{task}/ns/net") != os.readlink(
                "/proc/self/ns/net")
            assert os.readlink(f"/proc/{pid}/task/{task}/ns/ipc") != os.readlink(
                "/proc/self/ns/ipc")
        if os.geteuid() == 0:
            assert _status(pid)["Uid"].split()[0] != "0"
        assert ai.confined and "no capabilities" in ai.confinement


@needs_landlock
def test_an_ai_cannot_connect_to_a_unix_socket_anyone_may_write_to() -> None:
    folder = Path(tempfile.mkdtemp(prefix="studio-socket-"))
    folder.chmod(0o755)
    path = folder / "service.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        path.chmod(0o777)
        server.listen(1)
        server.settimeout(0.5)
        with player("unix_socket.py") as ai:
            assert ai.load(1, "home").ok
            reply = move(ai, path=str(path))
        assert reply.failure == "exception" and "PermissionError" in reply.error
        with pytest.raises(TimeoutError):
            server.accept()
    finally:
        server.close()
        shutil.rmtree(folder, ignore_errors=True)


def _shm_keys() -> set[int]:
    with open("/proc/sysvipc/shm", encoding="ascii") as file:
        next(file)
        return {int(line.split()[0]) for line in file}


def _remove_segments(keys: list[int]) -> None:
    """Clean up after a failing run (old code left the segments on the machine)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for key in keys:
        shmid = libc.shmget(ctypes.c_int(key), ctypes.c_size_t(0), 0)
        if shmid >= 0:
            libc.shmctl(shmid, 0, None)  # IPC_RMID


@needs_landlock
def test_shared_memory_and_files_of_a_python_ai_are_gone_with_its_worker() -> None:
    keys = [0x57D10000 + secrets.randbelow(1 << 16) * 4 + i for i in range(4)]
    try:
        with player("shm_hog.py", time_limit=5.0) as ai:
            assert ai.load(1, "home").ok
            pid, folder = ai.pid, ai._workdir
            reply = move(ai, keys=keys)
            assert reply.ok and "segments" in reply.stdout
            assert "-1" not in reply.stdout, reply.stdout  # it did make all four
            assert Path(folder, "left-behind.txt").exists()
        assert wait_gone(pid, 10.0)
        assert not Path(folder).exists()
        assert not set(keys) & _shm_keys(), "a segment outlived the worker"
    finally:
        _remove_segments(keys)


def _peak_mb(pid: int) -> float:
    return int(_status(pid)["VmHWM"].split()[0]) / 1024


@needs_js
def test_the_js_memory_cap_counts_array_buffers() -> None:
    with player("js_buffers.js", time_limit=20.0) as ai:
        assert ai.load(1, "home").ok
        pid = ai.pid
        reply = move(ai)
        peak = _peak_mb(pid) if os.path.exists(f"/proc/{pid}") else None
    assert not reply.ok, "1 GB of ArrayBuffers was kept"
    assert "held 1024 MB" not in reply.stdout
    assert reply.failure in ("exception", "crash"), reply
    cap = runner.V8_START_MB + 3 * 64  # the worker's RLIMIT_DATA
    if peak is not None:  # alive: the allocation failed inside V8 ("Array buffer allocation")
        assert peak < cap, f"the worker's peak was {peak:.0f} MB, over its cap of {cap} MB"


@needs_landlock
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_temp_folder_the_workers_uid_cannot_pass_still_works(language: str, tmp_path,
                                                                  monkeypatch) -> None:
    # TMPDIR under a folder only root may pass (root's home, pytest's 0700 folders): the fresh
    # uid could not reach its own temp folder by name, and every worker died at its start.
    hidden = tmp_path / "hidden"
    (hidden / "tmp").mkdir(parents=True)
    hidden.chmod(0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(hidden / "tmp"))
    name = "counter.py" if language == "py" else "js_counter.js"
    with player(name) as ai:
        assert ai.load(1, "home").ok
        assert move(ai).ok
        assert ai.confined, ai.confinement
