"""Confinement: an AI cannot change files outside its temp folder nor reach the network."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from studio.engines.haunted.ai import WorkerPlayer, landlock, runner
from tests.haunted.hostile import move, player

LANDLOCK = landlock.abi_version()
needs_landlock = pytest.mark.skipif(LANDLOCK < 1, reason="the kernel has no Landlock")
AI_DIR = Path(runner.__file__).parent


@pytest.fixture
def home():
    """A stand-in for the user's home (and a project folder in it) with a precious file.

    World-writable and outside pytest's private tmp folder, so that only the sandbox, not plain
    file permissions (a root worker runs under a uid of its own), can stop the AI.
    """
    base = Path(tempfile.mkdtemp(prefix="studio-fake-home-"))
    project = base / "project"
    project.mkdir()
    (project / "precious.toml").write_text("keep me")
    for path, mode in ((base, 0o777), (project, 0o777), (project / "precious.toml", 0o666)):
        path.chmod(mode)
    yield project
    shutil.rmtree(base, ignore_errors=True)


def _write_attempt(action: str, target: Path, **options) -> object:
    with player("write_outside.py", **options) as ai:
        assert ai.load(1, "home").ok
        return move(ai, action=action, target=str(target)), ai.confined


@needs_landlock
@pytest.mark.parametrize("action", ["truncate", "os_truncate", "remove"])
def test_a_confined_ai_cannot_truncate_or_remove_a_file_in_the_project(home: Path,
                                                                       action: str) -> None:
    precious = home / "precious.toml"
    reply, confined = _write_attempt(action, precious)
    assert confined
    assert reply.failure == "exception" and "PermissionError" in reply.error
    assert precious.read_text() == "keep me"


@needs_landlock
def test_a_confined_ai_cannot_create_a_file_in_home(home: Path) -> None:
    target = home.parent / "new.txt"
    reply, _ = _write_attempt("create", target)
    assert reply.failure == "exception" and "PermissionError" in reply.error
    assert not target.exists()


@needs_landlock
def test_a_confined_ai_may_write_in_its_own_folder() -> None:
    with player("write_outside.py") as ai:
        assert ai.load(1, "home").ok
        assert move(ai, inside=True).ok


def test_an_unconfined_ai_says_so(home: Path) -> None:
    ai = player("write_outside.py", confine=False)
    assert not ai.confined and ai.unconfined_reason.startswith("runs unconfined: ")
    target = home / "made-by-unconfined-ai.txt"
    assert ai.load(1, "home").ok
    assert move(ai, action="create", target=str(target)).ok  # the user's rights, as reported
    ai.close()
    assert not ai.confined and ai.unconfined_reason.startswith("runs unconfined: ")
    assert target.exists()


def test_without_landlock_the_player_predicts_unconfined(monkeypatch) -> None:
    monkeypatch.setattr(landlock, "abi_version", lambda: 0)
    ai = WorkerPlayer(AI_DIR / "worker.py")
    assert not ai.confined and "no Landlock" in ai.unconfined_reason


@pytest.fixture
def listener():
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.5)
    yield server
    server.close()


@needs_landlock
def test_a_confined_ai_cannot_connect_to_localhost(listener: socket.socket) -> None:
    port = listener.getsockname()[1]
    with player("network.py") as ai:
        assert ai.load(1, "home").ok
        reply = move(ai, port=port)
    assert reply.failure == "exception" and "Error" in reply.error
    with pytest.raises(TimeoutError):
        listener.accept()


@needs_landlock
def test_a_confined_ai_cannot_send_udp() -> None:
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(0.3)
    try:
        with player("udp.py") as ai:
            assert ai.load(1, "home").ok
            reply = move(ai, port=receiver.getsockname()[1])
        assert reply.failure == "exception"
        with pytest.raises(TimeoutError):
            receiver.recv(100)
    finally:
        receiver.close()


def test_the_load_reply_reports_how_the_worker_is_confined() -> None:
    with player("counter.py") as ai:
        assert ai.load(1, "home").ok
        if ai.confined:
            assert "Landlock" in ai.confinement and "netns" in ai.confinement
        else:
            assert ai.unconfined_reason.startswith("runs unconfined: ")


@needs_landlock
def test_landlock_alone_stops_writes_even_for_root(tmp_path: Path) -> None:
    inside, outside = tmp_path / "inside", tmp_path / "outside.txt"
    inside.mkdir()
    outside.write_text("keep me")
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(AI_DIR)!r})
        import landlock
        abi, error = landlock.restrict({str(inside)!r}, ["/"])
        assert not error, error
        open({str(inside / 'ok.txt')!r}, 'w').write('fine')
        try:
            open({str(outside)!r}, 'w')
        except PermissionError:
            print('denied')
    """)
    result = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True,
                            text=True, timeout=30)
    assert result.stdout.strip() == "denied", result.stderr
    assert outside.read_text() == "keep me"
    assert (inside / "ok.txt").read_text() == "fine"


def test_the_worker_environment_is_scrubbed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STUDIO_SECRET_TOKEN", "hunter2")
    source = tmp_path / "env.py"
    source.write_text("import os, sys\n"
                      "def main(state, side):\n"
                      "    return [sorted(os.environ), sys.flags.isolated, sys.flags.no_site]\n")
    with WorkerPlayer(source, time_limit=1.0) as ai:
        assert ai.load(1, "home").ok
        env, isolated, no_site = move(ai).result
    assert "STUDIO_SECRET_TOKEN" not in env
    assert isolated == 1 and no_site == 1


def test_a_confined_ai_can_import_the_standard_library(tmp_path: Path) -> None:
    # The standard library may sit in root's home (pyenv); the worker keeps the right to read it.
    source = tmp_path / "imports.py"
    source.write_text("import decimal, fractions, heapq, statistics, itertools\n"
                      "def main(state, side):\n"
                      "    return [str(fractions.Fraction(1, 3)), str(heapq.nsmallest(1, [3, 1])),\n"
                      "            str(decimal.Decimal('0.1') * 3)]\n")
    with WorkerPlayer(source, time_limit=2.0) as ai:
        assert ai.load(1, "home").ok
        assert move(ai).result == ["1/3", "[1]", "0.3"]
