"""The live feed (issue 30, "Watch it live"): written by tournaments and matches as they play,
followed from anywhere; the feed replayed equals the replays saved; a hostile or broken feed is
skipped line by line, never a crash."""

from __future__ import annotations

import json
import os
import random
import threading
from pathlib import Path

import pytest

from studio.engines.haunted import replay as replays
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.tournament import DOUBLE_ROUND_ROBIN, SINGLE
from studio.sessions.haunted.entrants import MatchPlan
from studio.sessions.haunted.feed import MAX_LINE_BYTES, FeedWriter, match_feed_path
from studio.sessions.haunted.feed_tail import FeedTail
from studio.sessions.haunted.live import LiveMatch
from studio.sessions.haunted.tournament import (TournamentCancelled, TournamentPlan, TournamentRun,
                                                feed_file, replay_file)
from studio.sessions.haunted.watch import Spectator, replay_bodies
from studio.storage.haunted.replay import load_replay

FIVE = ("builtin:lookahead", "builtin:greedy", "builtin:cautious", "builtin:wander", "builtin:idle")
CONFIG = MatchConfig(rounds=3, max_rounds=6, maps=("Default", "WaffleTown"))
HEADER = ("format", "version", "created", "studio_version")


def plan(folder: Path, mode: str = SINGLE, entrants=FIVE, **more) -> TournamentPlan:
    return TournamentPlan(mode, tuple(entrants), CONFIG, builtin_maps(), 11, name="Cup",
                          replays=folder, in_process_builtins=True, third_place=mode == SINGLE,
                          **more)


def body_of(path: Path) -> dict:
    return {k: v for k, v in load_replay(path).items() if k not in HEADER}


def follow(path: Path) -> Spectator:
    spectator = Spectator(path)
    while spectator.poll():
        pass
    return spectator


@pytest.mark.parametrize("mode", [SINGLE, DOUBLE_ROUND_ROBIN])
def test_the_feed_replayed_equals_the_replays_saved(tmp_path: Path, mode: str) -> None:
    document = TournamentRun(plan(tmp_path, mode)).run()
    bodies = replay_bodies(feed_file(tmp_path))
    assert len(bodies) == len(document["matches"]) == document["scheduled"]
    for number, body in enumerate(bodies, 1):
        assert body == body_of(replay_file(tmp_path, number))
        assert replays.verify(replays.build(body, "x")) == []


def test_a_followed_tournament_ends_with_its_results(tmp_path: Path) -> None:
    document = TournamentRun(plan(tmp_path)).run()
    view = follow(feed_file(tmp_path)).view()
    assert view.status == "over" and view.kind == "tournament" and view.skipped == 0
    assert view.tournament["matches"] == document["matches"]
    assert view.tournament["standings"] == document["standings"] and view.tournament["complete"]
    last = document["matches"][-1]
    assert view.names == (last["home"], last["away"]) and view.result is not None
    assert view.next_match == ""


def test_the_next_match_is_named_while_one_is_played(tmp_path: Path) -> None:
    seen: list[tuple[int, str]] = []
    spectator = Spectator(feed_file(tmp_path))

    def look(played) -> None:  # between matches: the next one is known
        spectator.poll()
        seen.append((played.number, spectator.view().next_match))

    TournamentRun(plan(tmp_path, entrants=FIVE[:4]), on_match=look).run()
    # Seeds 1v4 and 2v3, then the final between winners, then third place.
    assert seen[0][1].startswith("semi-final: ")
    assert seen[1][1].startswith("final: ") and "?" not in seen[1][1]
    assert seen[2][1].startswith("third place: ")
    assert seen[3][1] == ""


def test_a_cancelled_run_says_so_and_a_new_run_restarts_the_feed(tmp_path: Path) -> None:
    run = TournamentRun(plan(tmp_path), on_match=lambda played: run.cancel())
    spectator = Spectator(feed_file(tmp_path))
    with pytest.raises(TournamentCancelled):
        run.run()
    while spectator.poll():
        pass
    assert spectator.view().status == "stopped" and "cancelled" in spectator.view().about
    TournamentRun(plan(tmp_path, entrants=FIVE[:2])).run()
    spectator.poll()
    view = spectator.view()
    assert view.status == "over" and view.tournament["entrants"] == list(FIVE[:2])
    assert len(view.tournament["matches"]) == 1


def test_a_resumed_run_lists_the_matches_it_reuses(tmp_path: Path) -> None:
    first = TournamentRun(plan(tmp_path), on_match=lambda played: first.cancel())
    with pytest.raises(TournamentCancelled):
        first.run()
    document = TournamentRun(plan(tmp_path), resume=True).run()
    view = follow(feed_file(tmp_path)).view()
    assert view.tournament["matches"] == document["matches"]
    # The match reused is listed, not replayed: the feed holds the replays of the others.
    assert len(replay_bodies(feed_file(tmp_path))) == len(document["matches"]) - 1


def test_a_paced_run_holds_each_turn_and_a_cancel_ends_the_wait(tmp_path: Path) -> None:
    run = TournamentRun(plan(tmp_path, entrants=FIVE[:2], pace=30.0))
    thread = threading.Thread(target=lambda: pytest.raises(TournamentCancelled, run.run))
    thread.start()
    spectator = Spectator(feed_file(tmp_path))
    for _ in range(200):
        spectator.poll()
        if spectator.view().record is not None:
            break
        threading.Event().wait(0.01)
    assert spectator.view().record["turn"] == 1  # held after its first turn, for 30 s
    run.cancel()
    thread.join(5)
    assert not thread.is_alive()


def test_a_live_match_writes_its_feed_and_the_replay_matches(tmp_path: Path) -> None:
    feed = match_feed_path(tmp_path / "m.json.gz")
    assert feed.name == "m.live.jsonl"
    live = LiveMatch(MatchPlan("builtin:greedy", "builtin:lookahead", CONFIG, 7, builtin_maps(),
                               in_process_builtins=True, pace=0.0), feed=feed)
    result = live.run()
    [body] = replay_bodies(feed)
    assert body == result.replay
    view = follow(feed).view()
    assert view.status == "over" and view.kind == "match" and view.log[-1] == live.view().log[-1]


# ---------------------------------------------------------------------------- the tail


def test_a_half_written_line_waits_for_its_end(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    tail = FeedTail(path)
    assert tail.read() == [] and tail.waiting  # no file yet
    with path.open("ab") as out:
        out.write(b'{"a": 1}\n{"b"')
        out.flush()
        assert tail.read() == [b'{"a": 1}'] and not tail.waiting
        assert tail.read() == []
        out.write(b': 2}\n')
        out.flush()
        assert tail.read() == [b'{"b": 2}']


def test_a_line_too_long_is_dropped_without_holding_it(tmp_path: Path) -> None:
    """An attacker's endless line, written a megabyte at a time, never sits in memory whole."""
    path = tmp_path / "f.jsonl"
    tail = FeedTail(path, max_line=1000, chunk=4096)
    with path.open("ab") as out:
        out.write(b"x" * 3000)
        out.flush()
        for _ in range(5):
            assert tail.read() == []
            assert len(tail._partial) <= 1000
        out.write(b"y" * 10_000 + b"\n" + b'{"ok": 1}\n')
        out.flush()
        lines = []
        for _ in range(10):
            lines += tail.read()
        assert lines == [b'{"ok": 1}'] and tail.too_long == 1


def test_a_replaced_or_cut_file_is_read_afresh(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"1\n2\n")
    tail = FeedTail(path)
    assert tail.read() == [b"1", b"2"] and tail.restarted
    replacement = tmp_path / "g.jsonl"
    replacement.write_bytes(b"3\n")
    os.replace(replacement, path)
    assert tail.read() == [b"3"] and tail.restarted and tail.restarts == 1
    path.write_bytes(b"")  # cut in place (the studio replaces a feed; a person may cut it)
    assert tail.read() == [] and tail.restarted and tail.restarts == 2
    with path.open("ab") as out:
        out.write(b"4\n")
    assert tail.read() == [b"4"] and not tail.restarted


def test_a_fifo_is_not_followed(tmp_path: Path) -> None:
    fifo = tmp_path / "f.jsonl"
    os.mkfifo(fifo)
    tail = FeedTail(fifo)
    assert tail.read() == [] and tail.waiting


# ------------------------------------------------------------------------- hostile feeds


@pytest.fixture(scope="module")
def good_lines(tmp_path_factory) -> list[bytes]:
    folder = tmp_path_factory.mktemp("feed")
    TournamentRun(plan(folder, entrants=FIVE[:3])).run()
    return feed_file(folder).read_bytes().splitlines()


def test_hostile_names_reach_the_view_inert(tmp_path: Path, good_lines: list[bytes]) -> None:
    evil = "\x1b]52;c;aGk=\x07\u202eevil"
    text = b"\n".join(good_lines).decode().replace("builtin:lookahead", evil.replace(
        "\x1b", "\\u001b").replace("\x07", "\\u0007").replace("\u202e", "\\u202e"))
    path = tmp_path / "live.jsonl"
    path.write_text(text + "\n")
    view = follow(path).view()
    shown = [*view.names, *view.tournament["entrants"], view.next_match,
             *(m["home"] for m in view.tournament["matches"])]
    assert any("evil" in name for name in shown)
    assert not any(c in name for name in shown for c in "\x1b\x07\u202e")


def test_malformed_lines_are_skipped_and_counted(tmp_path: Path, good_lines: list[bytes]) -> None:
    junk = [b"not json", b"[1, 2]", b'{"event": "nope"}', b'{"event": "turn"}',
            b"[" * 100_000, b'{"event": "round", "index": "x"}', b"\xff\xfe",
            json.dumps({"event": "turn", "record": {"home": {"moves": ["up"] * 9},
                                                   "away": {}}}).encode(),
            b'{"event": "match", "config": 1}', b'{"event": "match_end", "entry": {"home": 3}}']
    lines = good_lines[:5] + junk + good_lines[5:]
    path = tmp_path / "live.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    spectator = follow(path)
    clean = follow(_written(tmp_path / "clean.jsonl", good_lines))
    assert spectator.view().skipped == len(junk)
    assert spectator.view().tournament == clean.view().tournament


def _written(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_a_mangled_feed_never_crashes_the_spectator(tmp_path: Path, good_lines: list[bytes]) -> None:
    rng = random.Random(30)
    for attempt in range(40):
        lines = list(good_lines)
        for _ in range(rng.randint(1, 8)):
            k = rng.randrange(len(lines))
            line = bytearray(lines[k])
            how = rng.randrange(4)
            if how == 0 and line:  # flip bytes
                for _ in range(rng.randint(1, 5)):
                    line[rng.randrange(len(line))] = rng.randrange(256)
            elif how == 1:  # cut
                line = line[:rng.randrange(len(line) + 1)]
            elif how == 2:  # swap with another event
                lines[k], lines[rng.randrange(len(lines))] = lines[rng.randrange(len(lines))], lines[k]
                continue
            else:  # a value of the wrong type
                line = bytearray(line.replace(b'"turn":', b'"turn":"x",' b'"y":', 1))
            lines[k] = bytes(line)
        spectator = follow(_written(tmp_path / f"{attempt}.jsonl", lines))
        spectator.view()  # reached without an exception


def test_a_line_over_the_bound_is_written_as_too_long(tmp_path: Path) -> None:
    writer = FeedWriter(tmp_path / "live.jsonl", "tournament")
    writer.stopped("x" * (MAX_LINE_BYTES + 10))
    writer.close()
    lines = (tmp_path / "live.jsonl").read_bytes().splitlines()
    assert json.loads(lines[-1])["event"] == "too_long"
    assert follow(tmp_path / "live.jsonl").view().skipped == 1


def test_a_feed_that_cannot_be_written_does_not_stop_the_match(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    writer = FeedWriter(blocker / "live.jsonl", "match")
    assert "cannot write the live feed" in writer.broken
    writer.stopped("nothing happens")


def test_waiting_for_a_feed_changes_the_view_once(tmp_path: Path) -> None:
    """A spectator before the run starts: nothing new to draw at every poll."""
    spectator = Spectator(tmp_path / "live.jsonl")
    assert spectator.poll() and spectator.view().status == "waiting"
    assert not spectator.poll() and not spectator.poll()
    TournamentRun(plan(tmp_path, entrants=FIVE[:2])).run()
    assert spectator.poll() and spectator.view().status == "over"
    assert not spectator.poll()


def test_studio_match_writes_its_feed_beside_the_replay_then_removes_it(tmp_path: Path,
                                                                         monkeypatch) -> None:
    from studio import cli
    from studio.sessions.haunted import feed as feeds

    seen: list[Path] = []
    writer = feeds.FeedWriter

    def watched(path, kind, clock=None):
        seen.append(Path(path))
        return writer(path, kind, clock)

    monkeypatch.setattr("studio.commands.haunted.match.FeedWriter", watched)
    replay = tmp_path / "m.json.gz"
    assert cli.main(["match", "builtin:greedy", "builtin:idle", "--rounds", "1", "--seed", "3",
                     "--in-process", "--quiet", "--replay", str(replay)]) == 0
    assert seen == [tmp_path / "m.live.jsonl"] and replay.exists()
    assert not seen[0].exists()  # the replay holds what it said


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_feed_whose_writer_is_a_zombie_is_the_feed_of_a_dead_writer(tmp_path: Path) -> None:
    """A killed studio its parent has not reaped yet still answers signal 0: its feed must be
    recovered all the same (the SSH server reaps a session a moment after it dies)."""
    import subprocess
    import time

    from studio.sessions.haunted.dropped import writer_alive

    child = subprocess.Popen(["sleep", "30"])
    feed = tmp_path / "m.live.jsonl"
    feed.write_text(json.dumps({"event": "feed", "pid": child.pid}) + "\n")
    try:
        assert writer_alive(feed)
        os.kill(child.pid, 9)
        deadline = time.monotonic() + 10
        while "Z" not in Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1][:3]:
            assert time.monotonic() < deadline, "the child never became a zombie"
            time.sleep(0.01)
        assert not writer_alive(feed)  # a zombie, not yet reaped
    finally:
        child.kill()
        child.wait()
    assert not writer_alive(feed)  # reaped: gone
