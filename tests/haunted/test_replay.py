"""Replays (spec haunted.md §4.5, §14.8-9): save, load, re-simulate, detect tampering."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from studio.engines.haunted import replay as replays
from studio.engines.haunted.ai.factory import make_player
from studio.engines.haunted.inprocess import InProcessPlayer
from studio.engines.haunted.match import Entrant, MatchConfig, run_match
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.players import AIReply
from studio.storage import ProjectError
from studio.storage.haunted.replay import load_replay, save_replay
from tests.haunted.helpers import ScriptedPlayer, open_map


def builtin(name: str) -> Entrant:
    return Entrant(name, lambda: InProcessPlayer(name), source=f"builtin:{name}")


def match(a="greedy", b="lookahead", seed=5, **config):
    return run_match(builtin(a), builtin(b), builtin_maps(), MatchConfig(**config), seed)


@pytest.fixture(scope="module")
def document():
    return replays.build(match(), "test")


def test_build_has_the_format_header(document) -> None:
    assert document["format"] == "studio-haunted-replay" and document["version"] == 1
    assert document["created"].endswith("Z") and document["studio_version"] == "test"
    assert set(document["maps"]) == {"Default", "I(n) The Middle", "WaffleTown", "Hourglass"}
    first = document["rounds"][0]
    assert first["turns"][0]["events"][0].startswith("H")
    assert len(first["result"]["board_sha256"]) == 64


@pytest.mark.parametrize("name", ["r.json", "r.json.gz"])
def test_save_load_verify_round_trip(document, tmp_path: Path, name: str) -> None:
    path = save_replay(document, tmp_path / "sub" / name)
    if name.endswith(".gz"):
        assert path.read_bytes()[:2] == b"\x1f\x8b"
        json.loads(gzip.decompress(path.read_bytes()))
    loaded = load_replay(path)
    assert loaded == json.loads(json.dumps(document))
    assert replays.verify(loaded) == []


def test_a_tampered_move_is_detected(document) -> None:
    bad = copy.deepcopy(document)
    turn = bad["rounds"][1]["turns"][2]
    living = [i for i, m in enumerate(turn["home"]["moves"]) if m is not None]
    turn["home"]["moves"][living[0]] = "north" if turn["home"]["moves"][living[0]] != "north" else "south"
    problems = replays.verify(bad)
    assert problems and any("round 2" in p for p in problems)


def test_a_tampered_result_or_tally_is_detected(document) -> None:
    bad = copy.deepcopy(document)
    bad["rounds"][0]["result"]["board_sha256"] = "0" * 64
    assert any("board_sha256" in p for p in replays.verify(bad))
    bad = copy.deepcopy(document)
    bad["result"]["wins"]["A"] += 1
    assert any("tally" in p for p in replays.verify(bad))


def test_frames_replay_every_turn(document) -> None:
    frames = list(replays.frames(document, 1))
    record = document["rounds"][0]
    assert frames[0].turn == 0 and frames[0].record is None
    assert len(frames) == len(record["turns"]) + 1
    assert frames[-1].state.board_sha256() == record["result"]["board_sha256"]


def test_same_seed_same_replay_except_timings() -> None:
    first = replays.without_timings(replays.build(match("wander", "cautious", 77), "x"))
    second = replays.without_timings(replays.build(match("wander", "cautious", 77), "x"))
    assert first == second
    other = replays.without_timings(replays.build(match("wander", "cautious", 78), "x"))
    assert other["rounds"] != first["rounds"]


def test_failed_rounds_verify_too() -> None:
    def late_failure(turn, state, side):
        return AIReply(ok=False, failure="timeout", error="slow") if turn == 3 else ["none"] * 3

    a = Entrant("a", lambda: ScriptedPlayer(lambda t, s, side: ["south"] * 3 if t < 3 else late_failure(t, s, side)))
    b = Entrant("b", lambda: ScriptedPlayer(lambda t, s, side: ["north", "none", "none"]))
    result = run_match(a, b, {"Default": open_map()}, MatchConfig(rounds=1, max_rounds=1, maps=("Default",)))
    document = replays.build(result, "x")
    assert document["rounds"][0]["result"]["reason"] == "ai_failure"
    assert replays.verify(document) == []


def test_not_a_replay(tmp_path: Path) -> None:
    assert replays.verify({"format": "other"})
    with pytest.raises(replays.ReplayError):
        replays.check({"format": "studio-haunted-replay", "version": 2})
    (tmp_path / "x.json").write_text("{nope")
    with pytest.raises(ProjectError):
        load_replay(tmp_path / "x.json")
    (tmp_path / "y.json").write_text('{"format": "zip"}')
    with pytest.raises(ProjectError, match="not a Haunted Tiles replay"):
        load_replay(tmp_path / "y.json")
    with pytest.raises(ProjectError):
        load_replay(tmp_path / "missing.json")


def test_worker_and_in_process_builtins_play_identical_matches() -> None:
    # The randomness contract: a worker seeds the process's `random` with the AI seed, the
    # in-process player hands the module a random.Random(seed); same seed, same moves.
    def worker(name: str) -> Entrant:
        return Entrant(name, lambda: make_player(f"builtin:{name}"), source=f"builtin:{name}")

    config = MatchConfig(rounds=3, max_rounds=3)
    in_process = run_match(builtin("wander"), builtin("cautious"), builtin_maps(), config, 21)
    workers = run_match(worker("wander"), worker("cautious"), builtin_maps(), config, 21)
    assert replays.without_timings(workers.replay)["rounds"] == \
        replays.without_timings(in_process.replay)["rounds"]
