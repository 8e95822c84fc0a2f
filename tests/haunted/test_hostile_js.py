"""JavaScript AIs in V8 workers: well-behaved scripts, then hostile ones (spec §8.2, §14.4)."""

from __future__ import annotations

import time

import pytest

from tests.haunted.hostile import FAST, HAS_JS, NO_JS_REASON, move, player, wait_gone

pytestmark = pytest.mark.skipif(not HAS_JS, reason=NO_JS_REASON)


def _one_move(name: str, time_limit: float = FAST, **state):
    ai = player(name, time_limit=time_limit)
    try:
        load = ai.load(7, "home")
        assert load.ok, load
        pid = ai.pid
        started = time.perf_counter()
        reply = move(ai, **state)
        elapsed = time.perf_counter() - started
    finally:
        ai.close()
    assert wait_gone(pid)
    return reply, elapsed


def test_js_state_persists_within_a_round_and_resets_between_rounds() -> None:
    with player("js_counter.js") as ai:
        assert ai.load(3, "home").ok
        first = [move(ai, turn).result[2] for turn in (1, 2, 3)]
        assert [entry.split(":")[0] for entry in first] == ["1", "2", "3"]
        assert ai.load(3, "home").ok
        assert move(ai).result[2] == first[0]
        assert ai.load(4, "home").ok
        assert move(ai).result[2] != first[0]


def test_js_console_is_captured() -> None:
    with player("js_counter.js") as ai:
        ai.load(1, "away")
        ai.request(1, {}, "away")
        assert ai.collect().stdout == "turn 1 away\n"


def test_js_is_reported_as_confined_as_python_is() -> None:
    with player("js_counter.js") as ai:
        assert ai.load(1, "home").ok
        if ai.confined:
            assert "Landlock" in ai.confinement and "netns" in ai.confinement
        else:
            assert ai.unconfined_reason.startswith("runs unconfined: ")


@pytest.mark.parametrize(("name", "expected"), [
    ("js_promise.js", ["south", "east", "west"]),
    ("js_async.js", ["north", "north", "north"]),
    ("js_sloppy.js", ["west", "none", "south"]),
    ("js_escape.js", ["none", "none", "none"]),
])
def test_js_answers(name: str, expected: list[str]) -> None:
    reply, _ = _one_move(name)
    assert reply.ok, reply
    assert reply.result == expected


def test_js_timers_wait_at_least_their_delay() -> None:
    reply, elapsed = _one_move("js_async.js")
    assert reply.ok and elapsed >= 0.02


def test_js_throw_is_an_exception() -> None:
    reply, _ = _one_move("js_throw.js")
    assert reply.failure == "exception" and "boom from JS" in reply.error


@pytest.mark.parametrize("name", ["js_syntax.js", "js_no_main.js"])
def test_js_load_failures_are_exceptions(name: str) -> None:
    ai = player(name)
    reply = ai.load(1, "home")
    ai.close()
    assert not reply.ok and reply.failure == "exception" and reply.error


@pytest.mark.parametrize("name", ["js_infinite.js", "js_infinite_async.js", "js_never.js",
                                  "js_slow_promise.js", "js_timer_busy.js"])
def test_js_hangs_time_out(name: str) -> None:
    reply, elapsed = _one_move(name)
    assert reply.failure == "timeout", reply
    assert elapsed < FAST + 0.5


def test_js_memory_hog_is_a_crash() -> None:
    ai = player("js_memory.js", time_limit=5.0)
    assert ai.load(1, "home").ok
    pid = ai.pid
    reply = move(ai)
    ai.close()
    assert reply.failure == "crash", reply
    assert wait_gone(pid)


@pytest.mark.parametrize("shape", ["undefined", "null", "object", "string", "number", "function",
                                   "bigint", "cycle", "huge"])
def test_js_garbage_is_bad_shape(shape: str) -> None:
    reply, _ = _one_move("js_garbage.js", time_limit=3.0, shape=shape)  # no race with the clock
    assert reply.failure == "bad_shape", reply


def test_js_console_flood_is_bounded() -> None:
    ai = player("js_printer.js", time_limit=5.0)
    ai.load(1, "home")
    reply = move(ai)
    ai.close()
    assert reply.ok
    assert reply.stdout.endswith("…truncated") and len(reply.stdout) < 10_000
    assert reply.stderr.endswith("…truncated") and len(reply.stderr) < 10_000
