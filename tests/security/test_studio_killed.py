"""A studio killed while an AI thinks leaves nothing behind (issue 28, item 2).

The studio is a real ``studio match`` process, killed with SIGKILL (nothing of it runs after)
or SIGTERM while its AI is busy in a move. Its workers must be gone at once, and their temp
folders by the next start of a studio. Waits poll with generous deadlines: other test runs may
share the machine's cores.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.haunted.hostile import HAS_JS, NO_JS_REASON, fixture

ROOT = Path(__file__).resolve().parents[2]
THINKING_CPU = 0.5
"""CPU seconds an AI in an endless loop has spent once it is surely thinking (loading takes a
fraction of this)."""


def _children(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                found.append(int(entry))
    return found


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            fields = file.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _is_worker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return b"worker.py" in file.read()
    except OSError:
        return False


def _poll(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for its parent (a zombie holds no memory or files)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _studio(*ais: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "studio", "match", *ais, "--rounds", "1", "--seed", "1",
         "--timeout", "60"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("ai", ["infinite_loop.py", pytest.param(
    "js_infinite.js", marks=pytest.mark.skipif(not HAS_JS, reason=NO_JS_REASON))])
def test_a_killed_studio_leaves_no_worker_and_its_folders_go_at_the_next_start(
        ai: str, how: signal.Signals) -> None:
    studio = _studio(str(fixture(ai)), "builtin:idle")
    workers: list[int] = []
    folders: list[str] = []
    try:
        def thinking() -> bool:
            workers[:] = [pid for pid in _children(studio.pid) if _is_worker(pid)]
            return any(_cpu_seconds(pid) >= THINKING_CPU for pid in workers)

        assert _poll(thinking, 60.0), "the AI never started thinking"
        folders = [os.readlink(f"/proc/{pid}/cwd") for pid in workers]
        studio.send_signal(how)
        studio.wait(timeout=30)
        assert _poll(lambda: not any(_alive(pid) for pid in workers), 20.0), \
            f"workers outlived the studio: {[pid for pid in workers if _alive(pid)]}"
        # The next studio to start a worker removes the folders of studios that are gone.
        subprocess.run([sys.executable, "-m", "studio", "match", "builtin:idle", "builtin:idle",
                        "--rounds", "1", "--seed", "1"], cwd=ROOT, capture_output=True,
                       timeout=120, check=True)
        left = [folder for folder in folders if os.path.exists(folder)]
        assert not left, f"temp folders left behind: {left}"
    finally:
        if studio.poll() is None:
            studio.kill()
            studio.wait()
        for pid in workers:  # what the old code left running (a pid still a worker's)
            if _alive(pid) and _is_worker(pid):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
        for folder in folders:  # and its folders, which no later studio would remove
            shutil.rmtree(folder, ignore_errors=True)


def test_a_worker_outlives_the_thread_that_started_it() -> None:
    """The kernel's parent-death signal follows the *thread* that forked the worker: a worker
    loaded from a short-lived thread (a match thread of the UI) must still answer after it."""
    import threading

    from tests.haunted.hostile import move, player

    with player("counter.py") as ai:
        loaded = []
        starter = threading.Thread(target=lambda: loaded.append(ai.load(1, "home")))
        starter.start()
        starter.join()
        assert loaded[0].ok
        assert move(ai).ok, "the worker died with the thread that loaded it"
