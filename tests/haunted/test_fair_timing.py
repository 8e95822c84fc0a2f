"""Each AI is timed on its own clock (spec haunted.md §7.3): a hung or slow opponent never makes an
honest answer late, whichever team it plays (issue 10).

The referee requests both moves, then collects home, then away. An answer must count when it
arrived within its own limit, even when the referee only gets round to it after the other AI's
full limit and its kill; and an answer that arrived after its limit must not count just because it
is already waiting when collected.
"""

from __future__ import annotations

import threading
import time

import pytest

from studio.engines.haunted.ai import WorkerPlayer, spawn
from studio.engines.haunted.builtin_ais import BUILTINS
from studio.engines.haunted.match import AI_FAILURE, play_round
from tests.haunted.helpers import open_map
from tests.haunted.hostile import HAS_JS, NO_JS_REASON, STATE, fixture, gone, move, player

LIMIT = 0.5
"""Per-move limit: short, so every hung round costs about half a second."""
LOAD_LIMIT = 0.5
JS_LOAD_LIMIT = 2.0
"""A JavaScript worker starts V8 before it loads the AI: on a loaded 2-core machine (the suite on
both cores) the honest side's start alone passed 0.5 s. The hostile side loops for ever, so a
longer limit proves the same."""
IDLE = "builtin:idle"
needs_js = pytest.mark.skipif(not HAS_JS, reason=NO_JS_REASON)


def _worker(name: str, **limits: float) -> WorkerPlayer:
    limits = {"time_limit": LIMIT, "load_limit": 5.0, **limits}
    if name == IDLE:
        return WorkerPlayer(BUILTINS["idle"], name=IDLE, **limits)  # type: ignore[arg-type]
    return WorkerPlayer(fixture(name), js=name.endswith(".js"), **limits)  # type: ignore[arg-type]


def _round(bad: str, good: str, bad_team: str, **limits: float):
    """Play one round on an open map, ``bad`` for team ``bad_team``, A at home; checks clean-up."""
    good_team = "B" if bad_team == "A" else "A"
    players = {bad_team: _worker(bad, **limits), good_team: _worker(good, **limits)}
    before = set(threading.enumerate())
    result = play_round(1, open_map(), "A", players, {"A": 1, "B": 2}, {"A": "a", "B": "b"})
    pids = [p.pid for p in players.values()]
    assert pids == [None, None], "play_round closes both players"
    leftover = [t for t in threading.enumerate()  # the spawner lives as long as the process
                if t not in before and t.name != spawn.THREAD_NAME]
    assert leftover == [], f"threads left behind: {leftover}"
    return result, good_team


def _pair(bad: str, good: str, *, js: bool = False) -> list:
    marks = [needs_js] if js else []
    return [pytest.param(bad, good, team, marks=marks, id=f"{bad}-as-{team}-vs-{good}")
            for team in ("A", "B")]


MOVE_CASES = [
    *_pair("infinite_loop.py", IDLE),
    *_pair("sleeper.py", IDLE),  # time.sleep(30) in main
    *_pair("js_infinite.js", "js_counter.js", js=True),  # a busy loop
    *_pair("js_slow_promise.js", "js_counter.js", js=True),  # a Promise settling after 3 s
    *_pair("infinite_loop.py", "js_counter.js", js=True),
    *_pair("js_infinite.js", IDLE, js=True),
]


@pytest.mark.parametrize(("bad", "good", "bad_team"), MOVE_CASES)
def test_a_hung_move_loses_alone_whichever_team_it_plays(bad: str, good: str, bad_team: str) -> None:
    result, good_team = _round(bad, good, bad_team)
    assert result.reason == AI_FAILURE, result.failures
    assert result.winner_team == good_team
    assert list(result.failures) == [bad_team]
    assert result.failures[bad_team]["failure"] == "timeout"
    first = result.record["turns"][0]
    good_side = "home" if good_team == "A" else "away"
    honest = first[good_side]
    assert "failure" not in honest and honest["moves"] is not None, honest
    assert honest["ms"] < LIMIT * 1000


LOAD_CASES = [
    *_pair("slow_import.py", IDLE),  # time.sleep(30) at the top level
    *_pair("slow_load.py", IDLE),  # an endless loop at the top level
    *_pair("js_slow_load.js", "js_counter.js", js=True),
]


@pytest.mark.parametrize(("bad", "good", "bad_team"), LOAD_CASES)
def test_a_slow_load_loses_alone_whichever_team_it_plays(bad: str, good: str, bad_team: str) -> None:
    load_limit = JS_LOAD_LIMIT if bad.endswith(".js") else LOAD_LIMIT
    started = time.perf_counter()
    result, good_team = _round(bad, good, bad_team, load_limit=load_limit)
    assert time.perf_counter() - started < load_limit + 3.0
    assert result.reason == AI_FAILURE, result.failures
    assert result.winner_team == good_team
    assert list(result.failures) == [bad_team]
    assert result.failures[bad_team]["failure"] == "timeout"
    assert result.record["load"][good_team]["ok"]
    assert result.record["load"][good_team]["ms"] < load_limit * 1000


@pytest.mark.parametrize("name", ["counter.py", pytest.param("js_counter.js", marks=needs_js)])
def test_an_answer_within_the_limit_counts_however_late_it_is_collected(name: str) -> None:
    with player(name, time_limit=LIMIT) as ai:
        assert ai.load(1, "home").ok
        pid = ai.pid
        ai.request(1, STATE, "home")
        time.sleep(LIMIT + 0.3)  # the referee is busy with the other AI meanwhile
        reply = ai.collect()
        assert reply.ok, reply
        assert reply.ms < LIMIT * 1000, "ms is when the answer arrived, not when it was collected"
        assert ai.pid == pid, "an answer in time keeps the worker"
        assert move(ai, 2).ok
    assert gone(pid)


def test_an_answer_after_the_limit_is_late_even_when_it_is_already_waiting() -> None:
    with player("sleeper.py", time_limit=LIMIT) as ai:
        assert ai.load(1, "home").ok
        pid = ai.pid
        ai.request(1, {**STATE, "sleep": LIMIT + 0.2}, "home")
        time.sleep(LIMIT + 0.6)  # the late answer is in the pipe by now
        reply = ai.collect()
        assert reply.failure == "timeout", reply
        assert ai.pid is None
    assert gone(pid)


def test_an_answer_in_time_is_not_delayed_to_the_limit() -> None:
    with player("counter.py", time_limit=LIMIT) as ai:
        assert ai.load(1, "home").ok
        started = time.perf_counter()
        assert move(ai).ok
        assert time.perf_counter() - started < LIMIT / 2
