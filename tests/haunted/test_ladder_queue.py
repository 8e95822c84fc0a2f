"""Submitting starts at most one background ladder runner: one already at work plays the new
submission's matches itself, and one that is finishing looks once more after letting go."""

from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path

import pytest

from studio.sessions.haunted.ladder_files import ladder_folder
from studio.sessions.haunted.ladder_queue import RUNNERS, queue_catch_up, run_settled, runner_active
from tests.haunted.ladder_helpers import competition


@pytest.fixture
def started(monkeypatch) -> list[list[str]]:
    """The runners a submit would start (recorded, not started)."""
    calls: list[list[str]] = []

    class Recorded:
        pid = 4242

        def __init__(self, argv, **_options) -> None:
            calls.append(argv)

    monkeypatch.setattr(subprocess, "Popen", Recorded)
    return calls


def test_a_submit_starts_a_runner_only_when_none_is_at_work(tmp_path: Path, started) -> None:
    model = competition(tmp_path)
    folder = ladder_folder(tmp_path)
    assert "background (process 4242)" in queue_catch_up(model, tmp_path / "cup.toml")
    assert len(started) == 1
    fd = os.open(folder / RUNNERS, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_SH)  # a runner at work
    try:
        assert runner_active(folder)
        for _ in range(20):  # a student submitting in a loop
            assert "at work plays the new matches" in queue_catch_up(model, tmp_path / "cup.toml")
        assert len(started) == 1
    finally:
        os.close(fd)
    assert not runner_active(folder)
    queue_catch_up(model, tmp_path / "cup.toml")
    assert len(started) == 2


def test_a_finishing_runner_lets_go_then_looks_once_more(tmp_path: Path) -> None:
    folder = ladder_folder(tmp_path)
    seen: list[bool] = []
    missing = iter([1, 0])  # a submission stored while the first pass still held the lock

    def play() -> None:
        seen.append(runner_active(folder))

    def pending() -> int:
        assert not runner_active(folder)  # asked only after letting go
        return next(missing)

    run_settled(folder, play, pending)
    assert seen == [True, True]  # played twice, holding the lock each time



def test_the_runner_never_runs_a_studio_package_left_in_the_project_folder(tmp_path: Path) -> None:
    """The runner starts in the project's folder, where students submit: a ``studio`` package
    left there was what ``python -m studio`` ran, as the teacher, at the next submission."""
    import re
    import time

    from tests.test_warmup import _plant_studio

    model = competition(tmp_path)
    _plant_studio(tmp_path)
    said = queue_catch_up(model, tmp_path / "cup.toml")
    pid = int(re.search(r"process (\d+)", said).group(1))
    end = time.monotonic() + 300
    while True:  # the runner is this process's child: its exit status says it ran to its end
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        assert time.monotonic() < end, "the runner did not end"
        time.sleep(0.05)
    # The project was never saved: the studio that ran is ours if it says so in its own words.
    log = (ladder_folder(tmp_path) / "runner.log").read_text()
    assert os.waitstatus_to_exitcode(status) == 1 and "cup.toml: no such file" in log, log
    assert not (tmp_path / "PLANTED-RAN").exists()
