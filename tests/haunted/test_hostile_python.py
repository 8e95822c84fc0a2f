"""Hostile Python AIs: each fails with the right failure kind, and nothing is left running."""

from __future__ import annotations

import time

import pytest

from tests.haunted.hostile import FAST, gone, move, player, session_members, wait_gone


def _assert_clean(ai, pid: int | None) -> None:
    ai.close()
    assert wait_gone(pid), f"worker {pid} survived"
    if pid is not None:
        assert session_members(pid) == [], "processes of the worker's session survived"


def _after_one_move(name: str, failure: str, time_limit: float = FAST, **state) -> object:
    ai = player(name, time_limit=time_limit)
    try:
        assert ai.load(1, "home").ok
        pid = ai.pid
        started = time.perf_counter()
        reply = move(ai, **state)
        elapsed = time.perf_counter() - started
    finally:
        ai.close()
    assert not reply.ok and reply.failure == failure, reply
    _assert_clean(ai, pid)
    return reply, elapsed


def test_infinite_loop_times_out_and_the_worker_is_killed() -> None:
    reply, elapsed = _after_one_move("infinite_loop.py", "timeout")
    assert FAST <= elapsed < FAST + 0.5
    assert "killed" in reply.error


def test_sleeping_past_the_limit_times_out() -> None:
    _reply, elapsed = _after_one_move("sleeper.py", "timeout", sleep=30)
    assert elapsed < FAST + 0.5


def test_a_hanging_top_level_times_out_at_the_load_limit() -> None:
    ai = player("slow_load.py", load_limit=0.5)
    started = time.perf_counter()
    reply = ai.load(1, "home")
    assert time.perf_counter() - started < 1.5
    assert reply.failure == "timeout"
    assert ai.pid is None  # killed already
    ai.close()


def test_after_a_timeout_the_player_reports_a_crash_not_a_hang() -> None:
    with player("infinite_loop.py") as ai:
        ai.load(1, "home")
        assert move(ai).failure == "timeout"
        started = time.perf_counter()
        assert move(ai).failure == "crash"
        assert time.perf_counter() - started < 0.1


def test_memory_bomb_is_a_crash() -> None:
    ai = player("memory_bomb.py", memory_mb=256, time_limit=5.0)
    ai.load(1, "home")
    pid = ai.pid
    reply = move(ai)
    assert reply.failure == "crash" and "memory" in reply.error.lower()
    _assert_clean(ai, pid)


def test_memory_bomb_at_load_is_a_crash() -> None:
    ai = player("memory_at_load.py", memory_mb=256)
    reply = ai.load(1, "home")
    assert not reply.ok and reply.failure == "crash"
    ai.close()


def test_fork_bomb_is_bounded_by_the_process_limit() -> None:
    reply, _ = _after_one_move("fork_bomb.py", "exception")
    assert "BlockingIOError" in reply.error or "Resource temporarily unavailable" in reply.error


def test_starting_a_subprocess_fails_and_leaves_nothing_behind() -> None:
    reply, _ = _after_one_move("subprocess_spawn.py", "exception")
    assert "Error" in reply.error


def test_raising_is_an_exception_with_the_traceback() -> None:
    reply, _ = _after_one_move("raising.py", "exception")
    assert "RuntimeError: boom from the AI" in reply.error
    assert "raising.py" in reply.error and "worker.py" not in reply.error


def test_the_worker_survives_an_exception_for_the_next_turn() -> None:
    with player("raising.py") as ai:
        ai.load(1, "home")
        pid = ai.pid
        assert move(ai).failure == "exception"
        assert move(ai).failure == "exception"
        assert ai.pid == pid


def test_sys_exit_is_an_exception_and_os_exit_a_crash() -> None:
    _after_one_move("exits.py", "exception")
    reply, _ = _after_one_move("exits.py", "crash", hard=True)
    assert "exit code 3" in reply.error


@pytest.mark.parametrize("shape", ["none", "dict", "str", "int", "float", "bool", "nested",
                                   "set", "object", "bytes", "cycle", "huge", "four"])
def test_garbage_answers_are_bad_shape(shape: str) -> None:
    reply, _ = _after_one_move("garbage.py", "bad_shape", time_limit=3.0, shape=shape)
    assert reply.error


def test_printing_megabytes_is_bounded() -> None:
    with player("printer.py", time_limit=5.0) as ai:
        ai.load(1, "home")
        reply = move(ai)
    assert reply.ok
    assert reply.stdout.endswith("…truncated") and len(reply.stdout) < 10_000
    assert reply.stderr.endswith("…truncated") and len(reply.stderr) < 10_000


def test_output_per_round_is_bounded() -> None:
    with player("printer.py", time_limit=5.0) as ai:
        ai.load(1, "home")
        total = sum(len(move(ai, turn).stdout) for turn in range(30))
    assert total <= 65536 + 30 * len("…truncated")


@pytest.mark.parametrize(("name", "needle"), [
    ("syntax_error.py", "SyntaxError"),
    ("top_level_error.py", "ImportError: no module named numpy_for_ghosts"),
    ("no_main.py", "main"),
    ("main_not_callable.py", "main"),
])
def test_failing_at_load_is_an_exception(name: str, needle: str) -> None:
    ai = player(name)
    reply = ai.load(1, "home")
    pid = ai.pid
    assert not reply.ok and reply.failure == "exception"
    assert needle in reply.error
    assert gone(pid)
    ai.close()


def test_flooding_the_reply_pipe_loses_as_too_large_not_an_error_in_the_studio() -> None:
    # It once made collect() raise TimeoutExpired: the host waited for a worker that lived on.
    reply, elapsed = _after_one_move("protocol_flood.py", "bad_shape", time_limit=5.0)
    assert "answer too large" in reply.error and "killed" in reply.error
    assert elapsed < 1.0


def test_closing_the_reply_pipe_is_a_crash_not_an_error_in_the_studio() -> None:
    reply, elapsed = _after_one_move("closes_reply.py", "crash", time_limit=5.0)
    assert "closed its reply pipe" in reply.error
    assert elapsed < 1.5


def test_top_level_print_is_returned_with_the_load_failure() -> None:
    with player("top_level_error.py") as ai:
        assert ai.load(1, "home").stdout == "loading...\n"


def test_the_test_process_is_unaffected_and_a_fresh_ai_still_runs() -> None:
    _after_one_move("infinite_loop.py", "timeout")
    with player("counter.py") as ai:
        assert ai.load(1, "home").ok
        assert move(ai).ok
