"""LiveMatch: a match paced, paused, stepped, sped up and aborted from another thread, giving the
same result as the headless referee."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from studio.engines.haunted import replay as replays
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig, run_match
from studio.sessions.haunted.entrants import MatchPlan, resolve_entrant
from studio.sessions.haunted.live import LiveMatch
from studio.sessions.haunted.watch import replay_bodies
from studio.storage.errors import ProjectError

MAPS = builtin_maps()
THREE = MatchConfig(rounds=3, max_rounds=5, maps=("Default", "WaffleTown"))


def plan(**changes) -> MatchPlan:
    fields = {"home": "builtin:greedy", "away": "builtin:lookahead", "config": THREE, "seed": 7,
              "maps": MAPS, "in_process_builtins": True, "pace": 0.0}
    fields.update(changes)
    return MatchPlan(**fields)


def start(live: LiveMatch) -> threading.Thread:
    thread = threading.Thread(target=live.run, daemon=True)
    thread.start()
    return thread


def wait_for(condition, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def test_a_live_match_gives_the_referee_s_result() -> None:
    live = LiveMatch(plan())
    result = live.run()
    a = resolve_entrant("builtin:greedy", THREE, in_process=True, name="greedy")
    b = resolve_entrant("builtin:lookahead", THREE, in_process=True, name="lookahead")
    headless = run_match(a, b, MAPS, THREE, 7)
    assert replays.without_timings(result.replay) == replays.without_timings(headless.replay)
    view = live.view()
    assert view.result is result and view.wins == result.wins and len(view.rounds) == len(result.rounds)
    winner = "greedy" if result.winner == "A" else "lookahead"
    assert view.names == ("greedy", "lookahead") and view.log[-1].startswith(f"{winner} wins")


def test_paused_from_the_start_it_plays_one_turn_per_step() -> None:
    live = LiveMatch(plan(start_paused=True))
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    time.sleep(0.05)
    assert live.view().record is None  # held before turn 1
    for turn in (1, 2, 3):
        live.step()
        wait_for(lambda: (live.view().record or {}).get("turn") == turn)
    time.sleep(0.05)
    assert live.view().record["turn"] == 3  # and no further
    live.toggle_pause()
    live.finish_match()
    thread.join(10)
    assert live.view().result is not None and not live.view().result.aborted


def _step_until(live: LiveMatch, done) -> None:
    """Step a paused match a turn at a time until ``done()``."""
    for _ in range(5000):
        if done():
            return
        record = live.view().record
        live.step()
        wait_for(lambda: live.view().record is not record or done())
    raise AssertionError("never got there")


def test_paused_at_the_end_of_its_last_round_the_match_still_ends() -> None:
    one = MatchConfig(rounds=1, max_rounds=1, maps=("Default",))
    live = LiveMatch(plan(start_paused=True, config=one))
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    _step_until(live, lambda: live.view().rounds)
    wait_for(lambda: live.view().result is not None)  # no resume: nothing is left to play
    thread.join(10)
    assert live.view().paused and not live.view().result.aborted


def test_paused_between_rounds_the_next_waits_for_a_step() -> None:
    live = LiveMatch(plan(start_paused=True))
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    _step_until(live, lambda: live.view().rounds)
    time.sleep(0.05)
    assert live.view().round_index == 1  # the round's result stays in view
    live.step()
    wait_for(lambda: live.view().round_index == 2)
    live.abort()
    thread.join(10)


def test_abort_keeps_the_rounds_played_and_the_one_in_progress() -> None:
    live = LiveMatch(plan(start_paused=True))
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    live.step()
    live.step()
    wait_for(lambda: (live.view().record or {}).get("turn") == 2)
    so_far = live.replay_so_far()
    assert so_far["rounds"][-1]["aborted"] and len(so_far["rounds"][-1]["turns"]) == 2
    assert replays.verify(replays.build(so_far, "test")) == []
    live.abort()
    thread.join(10)
    result = live.view().result
    assert result.aborted and result.winner is None
    assert len(result.replay["rounds"][-1]["turns"]) == 2
    assert replays.verify(replays.build(result, "test")) == []


def test_the_replay_so_far_between_rounds_is_an_aborted_match_s(tmp_path: Path) -> None:
    # A hang-up while the next round's AIs loaded saved the decided rounds as a whole match
    # (no "aborted" anywhere), where the match thread's own abort marks it (CI, issue 30).
    feed = tmp_path / "m.live.jsonl"
    live = LiveMatch(plan(start_paused=True), feed=feed)
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    _step_until(live, lambda: live.view().rounds)
    so_far = live.replay_so_far()
    assert so_far["result"]["aborted"] is True and so_far["result"]["winner"] is None
    assert [r.get("aborted", False) for r in so_far["rounds"]] == [False, True]
    assert so_far["rounds"][-1]["turns"] == [] and so_far["result"]["rounds_played"] == 1
    assert replays.verify(replays.build(so_far, "test")) == []
    [from_feed] = replay_bodies(feed)  # as a killed studio's feed is recovered
    assert replays.without_timings({"r": from_feed["rounds"]}) == replays.without_timings(
        {"r": so_far["rounds"]})
    live.abort()
    thread.join(10)
    assert live.view().result.replay["result"]["aborted"] is True


def test_the_replay_so_far_before_a_round_begins_marks_it_cut_off(tmp_path: Path) -> None:
    class Held(LiveMatch):
        def _round_started(self, *args) -> None:
            reached.set()
            go.wait(10)
            super()._round_started(*args)

    reached, go = threading.Event(), threading.Event()
    feed = tmp_path / "m.live.jsonl"
    live = Held(plan(), feed=feed)
    thread = start(live)
    assert reached.wait(10)
    so_far = live.replay_so_far()  # the teams are known; round 1 has not begun
    [from_feed] = replay_bodies(feed)  # as the feed of a studio killed here is recovered
    go.set()
    live.abort()
    thread.join(10)
    assert so_far["rounds"] == [{"index": 1, "aborted": True, "turns": []}]
    assert so_far["result"]["aborted"] is True
    assert replays.verify(replays.build(so_far, "test")) == []
    assert from_feed["rounds"] == so_far["rounds"] and from_feed["result"]["aborted"] is True


def test_an_abort_after_a_round_s_last_turn_counts_the_round() -> None:
    # The abort question came up, the round ended behind it, and the answer threw it away.
    live = LiveMatch(plan(start_paused=True))
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    _step_until(live, lambda: live.view().state is not None and live.view().state.over)
    assert not live.view().rounds  # the last turn is played; the round is not counted yet
    live.abort()
    thread.join(10)
    result = live.view().result
    assert result.aborted and result.rounds_played == 1
    assert not result.replay["rounds"][0].get("aborted")
    assert replays.verify(replays.build(result, "test")) == []


def test_held_while_the_ui_asks_no_turn_is_played() -> None:
    live = LiveMatch(plan(start_paused=True, pace=0.3))
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    live.hold(True)
    live.toggle_pause()  # running, but held
    time.sleep(0.1)
    assert live.view().record is None
    live.hold(False)
    wait_for(lambda: live.view().record is not None)
    live.abort()
    thread.join(10)
    assert live.view().result.aborted


def test_abort_ends_a_move_that_has_no_time_limit(tmp_path: Path) -> None:
    # An AI in an endless loop with the time limit off: abort waited for the turn to end, and
    # so did quitting the studio (its match thread never returned).
    endless = tmp_path / "endless.py"
    endless.write_text("def main(game_state, side):\n    while True:\n        pass\n")
    live = LiveMatch(plan(home=str(endless), no_time_limit=True))
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    time.sleep(0.5)  # well into its first move
    assert thread.is_alive() and live.view().record is None
    live.abort()
    thread.join(10)
    assert not thread.is_alive()
    result = live.view().result
    assert result.aborted and result.winner is None


def test_finish_round_plays_the_round_at_full_speed_then_the_pace_again() -> None:
    live = LiveMatch(plan(pace=30.0))
    thread = start(live)
    wait_for(lambda: live.view().round_index == 1)
    live.finish_round()
    wait_for(lambda: live.view().round_index == 2)
    assert live.view().fast is None and len(live.view().rounds) == 1
    time.sleep(0.1)
    assert len(live.view().rounds) == 1  # round 2 goes at 30 s a turn
    live.finish_match()
    thread.join(10)
    assert live.view().result is not None


def test_an_ai_that_cannot_play_is_reported_not_raised(tmp_path: Path) -> None:
    live = LiveMatch(plan(home=str(tmp_path / "missing.py")))
    assert live.run() is None
    assert "no such AI file" in live.view().error
    with pytest.raises(ProjectError):
        plan(home="builtin:nobody").entrants()


def test_pace_steps() -> None:
    live = LiveMatch(plan(pace=0.5))
    live.faster()
    assert live.view().pace == 0.25
    live.slower()
    live.slower()
    assert live.view().pace == 1.0
    live.set_pace(0)
    live.faster()
    assert live.view().pace == 0.0


def test_a_failure_s_line_says_where_in_the_ai_it_went_wrong() -> None:
    from studio.sessions.haunted.live import last_line

    traceback = ('Traceback (most recent call last):\n  File "/tmp/x/ai/test.py", line 12, in main\n'
                 "    x = 1/0\nZeroDivisionError: division by zero")
    assert last_line(traceback) == "ZeroDivisionError: division by zero (test.py:12)"
    assert last_line("the AI took too long") == "the AI took too long"


def test_a_one_round_tie_says_a_coin_toss_decided_it_in_one_round() -> None:
    # The AI editor's quick test said "greedy wins 0–0–1 after a coin toss": one round, tied.
    one = MatchConfig(rounds=1, max_rounds=1, maps=("Default",))
    live = LiveMatch(plan(home="builtin:idle", away="builtin:idle", config=one))
    result = live.run()
    assert result.coin_toss and result.rounds_played == 1
    assert live.view().log[-1] == "idle wins on a coin toss (0–0–1 in 1 round, tied)" or \
        live.view().log[-1].endswith("wins on a coin toss (0–0–1 in 1 round, tied)")
