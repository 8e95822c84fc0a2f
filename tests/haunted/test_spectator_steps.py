"""A spectator shows every turn (issue 30): turns found together in one poll, written just now,
are taken one poll each; a spectator behind takes them together and catches up."""

from __future__ import annotations

import json
import time
from pathlib import Path

from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.tournament import ROUND_ROBIN
from studio.sessions.haunted.entrants import MatchPlan
from studio.sessions.haunted.feed_tail import CHUNK
from studio.sessions.haunted.live import LiveMatch
from studio.sessions.haunted.tournament import TournamentPlan, TournamentRun, feed_file
from studio.sessions.haunted.watch import MAX_HELD, STEP_WITHIN, Spectator, replay_bodies

WRITTEN = 1_800_000_000.0


def feed(tmp_path: Path) -> Path:
    """A whole match's feed, every event stamped as written at WRITTEN."""
    path = tmp_path / "m.live.jsonl"
    LiveMatch(MatchPlan("builtin:greedy", "builtin:lookahead", MatchConfig(rounds=1, max_rounds=1,
                                                                         maps=("Default",)),
                        3, builtin_maps(), in_process_builtins=True, pace=0.0), feed=path).run()
    events = [json.loads(line) for line in path.read_text().splitlines()]
    path.write_text("".join(json.dumps({**e, "t": WRITTEN}) + "\n" for e in events))
    return path


def turns_drawn(spectator: Spectator) -> list[int]:
    """The turn in view after each poll, as a screen drawing after each poll shows them."""
    shown = []
    while spectator.poll() or spectator.more:
        record = spectator.view().record
        if record and (not shown or shown[-1] != record["turn"]):
            shown.append(record["turn"])
    return shown


def test_turns_written_just_now_are_taken_one_poll_each(tmp_path: Path) -> None:
    path = feed(tmp_path)
    written = sum('"event": "turn"' in line for line in path.read_text().splitlines())
    spectator = Spectator(path, clock=lambda: WRITTEN + 0.05, one_turn_at_a_time=True)
    assert turns_drawn(spectator) == list(range(1, written + 1))
    assert spectator.view().status == "over" and not spectator.more


def test_a_spectator_behind_takes_them_together(tmp_path: Path) -> None:
    path = feed(tmp_path)
    spectator = Spectator(path, clock=lambda: WRITTEN + STEP_WITHIN + 1,
                          one_turn_at_a_time=True)
    assert spectator.poll() and not spectator.more  # all read in one poll
    assert spectator.view().status == "over" and len(turns_drawn(spectator)) == 0


def test_by_default_a_poll_reads_all_it_finds(tmp_path: Path) -> None:
    path = feed(tmp_path)
    spectator = Spectator(path, clock=lambda: WRITTEN + 0.05)
    assert spectator.poll() and not spectator.more and spectator.view().status == "over"
    assert len(replay_bodies(path)) == 1


def test_a_spectator_behind_still_draws_each_match_end(tmp_path: Path) -> None:
    run = TournamentRun(TournamentPlan(ROUND_ROBIN, ("builtin:greedy", "builtin:idle",
                                                     "builtin:wander"),
                                       MatchConfig(rounds=1, max_rounds=1, maps=("Default",)),
                                       builtin_maps(), 5, name="Cup", replays=tmp_path,
                                       in_process_builtins=True))
    run.run()
    spectator = Spectator(feed_file(tmp_path), clock=lambda: time.time() + 3600,
                          one_turn_at_a_time=True)
    ended = []
    while spectator.poll() or spectator.more:
        ended.append(len((spectator.view().tournament or {}).get("matches", [])))
    assert ended[:3] == [1, 2, 3]  # one poll for each end, though far behind
    assert spectator.view().status == "over"


def test_a_flood_of_turns_stamped_now_is_taken_at_once_not_held(tmp_path: Path) -> None:
    """A writer's times are its word: turns that all claim to be fresh, more than MAX_HELD of
    them, are read together, so nothing piles up between polls."""
    path = feed(tmp_path)
    lines = path.read_text().splitlines()
    turn = next(line for line in lines if '"event": "turn"' in line)
    flood = lines[:next(k for k, line in enumerate(lines) if line == turn)]
    flood += [turn] * (MAX_HELD * 50)
    path.write_text("".join(line + "\n" for line in flood))
    spectator = Spectator(path, clock=lambda: WRITTEN, one_turn_at_a_time=True)
    polls = 0
    while spectator.poll() or spectator.more:
        polls += 1
        assert len(spectator._held) <= MAX_HELD
    chunks = path.stat().st_size // CHUNK + 1
    assert polls <= chunks * (MAX_HELD + 2) < len(flood) / 4  # not a line a poll
    held = Spectator(path, clock=lambda: WRITTEN, one_turn_at_a_time=True)
    path.write_text("".join(line + "\n" for line in flood[:len(flood) - MAX_HELD * 50 + 3]))
    held.poll()
    assert held.more and len(held._held) <= MAX_HELD  # a few: stepped through
