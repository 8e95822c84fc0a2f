"""Python AIs in worker processes: state, seeding, output capture, clean-up, the move limit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from studio.engines.haunted.ai import WorkerPlayer, make_player, runner, spawn
from studio.engines.haunted.builtin_ais import BUILTINS
from tests.haunted.hostile import STATE, gone, move, player, wait_gone


def test_state_persists_within_a_round_and_resets_between_rounds() -> None:
    ai = player("counter.py")
    try:
        assert ai.load(seed=5, side="home").ok
        first = [move(ai, turn).result[2] for turn in (1, 2, 3)]
        assert [entry.split(":")[0] for entry in first] == ["1", "2", "3"]
        assert ai.load(seed=5, side="home").ok  # a new round: a new worker
        again = move(ai).result[2]
    finally:
        ai.close()
    assert again == first[0]


def test_seeding_is_deterministic_and_depends_on_the_seed() -> None:
    def first_answers(seed: int) -> list[str]:
        with player("counter.py") as ai:
            assert ai.load(seed, "home").ok
            return [move(ai, turn).result[2] for turn in (1, 2)]

    assert first_answers(11) == first_answers(11)
    assert first_answers(11) != first_answers(12)


def test_print_output_is_captured_per_call() -> None:
    with player("counter.py") as ai:
        ai.load(1, "away")
        ai.request(1, STATE, "away")
        first = ai.collect()
        second = move(ai)
    assert first.stdout == "turn 1 away\n"
    assert second.stdout == "turn 2 home\n"


def test_awaitable_answers_are_awaited_and_tuples_become_lists() -> None:
    with player("awaiting.py") as ai:
        assert ai.load(1, "home").ok
        reply = move(ai)
    assert reply.ok and reply.result == ["north", "south", "none"]


def test_every_builtin_answers_in_a_worker() -> None:
    for name in BUILTINS:
        with make_player(f"builtin:{name}", time_limit=2.0) as ai:
            assert ai.load(3, "away").ok, name
            reply = move(ai)
            assert reply.ok and isinstance(reply.result, list) and len(reply.result) == 3, name


def test_close_reaps_the_worker_and_removes_its_folder_and_is_idempotent() -> None:
    ai = player("counter.py")
    assert ai.load(1, "home").ok
    pid, workdir = ai.pid, ai._workdir
    assert pid is not None and os.path.isdir(workdir)
    ai.close()
    ai.close()
    assert gone(pid)
    assert not os.path.exists(workdir)


@pytest.mark.parametrize("name", ["counter.py", "infinite_loop.py", "exits.py"])
def test_close_leaves_no_thread_or_descriptor_behind(name: str) -> None:
    before, fds = set(threading.enumerate()), sorted(os.listdir("/proc/self/fd"))
    ai = player(name)
    assert ai.load(1, "home").ok
    move(ai, hard=True)  # answers, times out, or dies (exits.py with ``hard``)
    ai.close()
    assert [t for t in threading.enumerate()  # the spawner lives as long as the process
            if t not in before and t.name != spawn.THREAD_NAME] == []
    assert sorted(os.listdir("/proc/self/fd")) == fds


def test_a_worker_that_cannot_start_is_a_crash_and_leaks_no_descriptor(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise OSError("no more processes")

    monkeypatch.setattr(runner.subprocess, "Popen", refuse)
    fds = sorted(os.listdir("/proc/self/fd"))
    ai = player("counter.py")
    reply = ai.load(1, "home")
    assert reply.failure == "crash" and "no more processes" in reply.error
    assert sorted(os.listdir("/proc/self/fd")) == fds


def test_reply_timing_is_measured_by_the_host() -> None:
    with player("counter.py") as ai:
        load = ai.load(1, "home")
        reply = move(ai)
    assert load.ms > 0 and 0 < reply.ms < 300


def test_collect_without_request_and_moves_without_load_fail_cleanly() -> None:
    ai = WorkerPlayer(BUILTINS["idle"], time_limit=0.3)
    assert ai.collect().failure == "crash"
    ai.request(1, STATE, "home")
    reply = ai.collect()
    assert not reply.ok and reply.failure == "crash"
    ai.close()


@pytest.mark.parametrize("side", ["home", "away"])
def test_the_worker_sees_the_state_and_side_it_was_sent(side: str, tmp_path) -> None:
    source = tmp_path / "echo.py"
    source.write_text("def main(state, side):\n    return [side, state['boardSize'][0], None]\n")
    with WorkerPlayer(source, time_limit=1.0) as ai:
        assert ai.load(1, side).ok
        ai.request(1, STATE, side)
        assert ai.collect().result == [side, 7, None]


LIMIT = 1.0
"""Per-move limit of the tests that pin it (seconds)."""
SLACK = 0.5
"""What scheduling may add to a moment the host measures, on a loaded two-core machine.

An answer that sleeps 1.5 limits is late however slow the machine is (the sleep alone is past
the limit), so "late" needs no slack. "In time" (an answer after half a limit) and "killed at the
limit" may each be delayed by the machine, by up to half a limit here: a pipe write and a thread
waking take about a millisecond, so 500 ms only runs out on a machine that could not play a match
at all. Both sides stay strictly inside twice the limit (1.5 limits), so a limit enforced at 2×
fails them, and one enforced at half fails the answer in time.
"""


def test_an_answer_after_one_and_a_half_limits_is_late_and_its_worker_killed() -> None:
    with player("sleeper.py", time_limit=LIMIT) as ai:
        assert ai.load(1, "home").ok
        pid = ai.pid
        started = time.perf_counter()
        reply = move(ai, sleep=1.5 * LIMIT)
        waited = time.perf_counter() - started
        assert reply.failure == "timeout", reply
        assert not reply.ok and reply.result is None and ai.pid is None
        assert LIMIT * 1000 <= reply.ms < (LIMIT + SLACK) * 1000
        assert LIMIT <= waited < LIMIT + SLACK  # judged at the limit, not when it answers
    assert wait_gone(pid)


def test_a_hung_move_is_ended_at_the_limit() -> None:
    with player("sleeper.py", time_limit=LIMIT) as ai:
        assert ai.load(1, "home").ok
        started = time.perf_counter()
        reply = move(ai)  # sleeps 30 s
        waited = time.perf_counter() - started
    assert reply.failure == "timeout" and "within 1.00 s" in reply.error
    assert LIMIT <= waited < LIMIT + SLACK


def test_an_answer_after_half_the_limit_counts() -> None:
    with player("sleeper.py", time_limit=LIMIT) as ai:
        assert ai.load(1, "home").ok
        pid = ai.pid
        reply = move(ai, sleep=0.5 * LIMIT)
        assert reply.ok, reply
        assert reply.result == ["none", "none", "none"]
        assert 0.5 * LIMIT * 1000 <= reply.ms < LIMIT * 1000
        assert ai.pid == pid  # the worker stays for the next move
        assert move(ai, 2, sleep=0).ok


def test_no_time_limit_waits_for_a_slow_answer() -> None:
    with player("sleeper.py", time_limit=None) as ai:
        assert ai.load(1, "home").ok
        reply = move(ai, sleep=0.5)
    assert reply.ok and reply.ms >= 500


def test_players_left_open_at_exit_are_closed_cleanly() -> None:
    script = (
        "from tests.haunted.hostile import STATE, player\n"
        "ANSWERED = player('counter.py')\n"
        "ANSWERED.load(1, 'home')\n"
        "ANSWERED.request(1, STATE, 'home')\n"
        "ANSWERED.collect()\n"
        "HUNG = player('infinite_loop.py')\n"
        "HUNG.load(1, 'home')\n"
        "HUNG.request(1, STATE, 'home')\n"
        "print(ANSWERED.pid, HUNG.pid)\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, timeout=30)
    pids = [int(pid) for pid in done.stdout.split()]
    stray = [pid for pid in pids if not wait_gone(pid)]
    for pid in stray:  # a failure here must not leave workers burning CPU
        os.kill(pid, signal.SIGKILL)
    assert done.returncode == 0, done.stderr
    assert "Fatal Python error" not in done.stderr
    assert len(pids) == 2 and stray == []
