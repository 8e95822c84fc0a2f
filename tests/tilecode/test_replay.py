"""Replay files (§4.4): the canonical writer, every reading error with its place, conventions."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.engines.tilecode.errors import TilecodeError
from studio.engines.tilecode.replay import Replay, canonical_buttons, verify_outcome
from studio.storage import ProjectError, load_project, save_project
from studio.storage.tilecode.replay import (
    REPLAY_SUFFIX, dumps_replay, is_replay_name, load_replay, loads_replay, project_changed,
    project_sha256, replay_path_for, replay_project_path, save_replay,
)

GAMES = Path(__file__).resolve().parents[2] / "games"
SHA = "ab" * 32
TEXT = f'''format = "studio-tilecode-replay"
version = 1
project = "MineRocks.tilecode.toml"
project_sha256 = "{SHA}"
seed = 42
rounds = 240
result = "won"
score = 120
inputs = [[3, "right"], [4, "right"], [9, "up A"]]
'''


def test_canonical_buttons_dedups_orders_and_refuses_unknown() -> None:
    assert canonical_buttons(["A", "up", "A", "left"]) == ("left", "up", "A")
    assert canonical_buttons("down  right") == ("right", "down")
    assert canonical_buttons(()) == ()
    for bad in (["B"], ["a"], ["up", "jump"]):
        with pytest.raises(TilecodeError, match="unknown button"):
            canonical_buttons(bad)


def test_replay_text_round_trips_byte_for_byte() -> None:
    replay = loads_replay(TEXT)
    assert replay == Replay("MineRocks.tilecode.toml", SHA, 42, 240, "won", 120,
                            ((3, ("right",)), (4, ("right",)), (9, ("up", "A"))))
    assert dumps_replay(replay) == TEXT
    empty = Replay("x.toml", "", 0, 1, "stopped", 0)
    assert dumps_replay(empty).endswith('score = 0\ninputs = []\n')
    assert loads_replay(dumps_replay(empty)) == empty


def test_reading_canonicalises_button_order() -> None:
    replay = loads_replay(TEXT.replace('"up A"', '"A up up"'))
    assert replay.buttons(9) == ("up", "A")
    assert dumps_replay(replay) == TEXT


def test_buttons_and_input_list() -> None:
    replay = loads_replay(TEXT.replace("rounds = 240", "rounds = 11"))
    assert replay.buttons(0) == () and replay.buttons(3) == ("right",)
    assert replay.buttons(5) == () and replay.buttons(99) == ()
    listed = replay.input_list()
    assert len(listed) == 11 and listed[0] == () and listed[9] == ("up", "A")
    assert [i for i, b in enumerate(listed) if b] == [3, 4, 9]


def test_from_rounds_drops_empty_sets_and_refuses_buttons_in_round_0() -> None:
    replay = Replay.from_rounds("p.toml", "", 7, [(), ("A", "up"), (), ("right",)], "lost", 10)
    assert replay.rounds == 4 and replay.inputs == ((1, ("up", "A")), (3, ("right",)))
    with pytest.raises(TilecodeError, match="round 0"):
        Replay.from_rounds("p.toml", "", 7, [("up",)], "stopped", 0)
    with pytest.raises(TilecodeError):
        Replay("p.toml", "", 7, 3, "stopped", 0, ((3, ("up",)),))  # round 3 of 0..2


def test_verify_outcome_words() -> None:
    replay = Replay("p.toml", "", 1, 5, "won", 20)
    assert verify_outcome(replay, "won", 20, 5).ok
    assert verify_outcome(replay, "won", 20, 5).message.startswith("replay verified")
    bad = verify_outcome(replay, "lost", 10, 4)
    assert not bad.ok and (bad.expected_result, bad.expected_score) == ("won", 20)
    assert "mismatch" in bad.message and "changed" in bad.message
    # "replayed stopped" read oddly: the run was still going when the recorded inputs ended.
    assert "replayed still running, score 10, 4 rounds" in verify_outcome(
        replay, "stopped", 10, 4).message


# Each case: (old text, new text, words of the message, field path, line, words of the hint).
ERRORS = [
    ('format = "studio-tilecode-replay"', 'format = "studio-haunted-replay"',
     "not a TileCode replay", "format", 1, 'format = "studio-tilecode-replay"'),
    ("version = 1", "version = 2", "version 2", "version", 2, "upgrade the studio"),
    ("version = 1", "version = 0", "version must be", "version", 2, "writes version = 1"),
    ("score = 120", "score = 120\nsped = 3", "unknown key 'sped'", "sped", 9, "check the spelling"),
    ("seed = 42", "seed = -1", "seed must be", "seed", 5, "seed the recorded run showed"),
    ("seed = 42", "seed = 9223372036854775808", "seed must be", "seed", 5, "seed"),
    ("rounds = 240", "rounds = -3", "rounds must be", "rounds", 6, "round 0 included"),
    ('result = "won"', 'result = "draw"', "bad result 'draw'", "result", 7, "won, lost, stopped"),
    ("score = 120", "score = -10", "score must be", "score", 8, "final score"),
    ('project = "MineRocks.tilecode.toml"', "project = 3", "project must be a string", "project",
     3, "project file name"),
    (f'"{SHA}"', '"xyz"', "64 lowercase hex", "project_sha256", 4, 'use ""'),
    ('[4, "right"]', '[3, "left"]', "comes after round 3", "inputs[1]", 9, "ascending"),
    ('[9, "up A"]', '[240, "up"]', "outside rounds 1..239", "inputs[2]", 9, "round 0"),
    ('[3, "right"]', '[0, "right"]', "outside rounds 1..239", "inputs[0]", 9, "round 0"),
    ('[9, "up A"]', '[9, "up B"]', "unknown button 'B'", "inputs[2]", 9, "left, up, right, down, A"),
    ('[9, "up A"]', '[9, "  "]', "empty button string", "inputs[2]", 9, "drop the entry"),
    ('[9, "up A"]', '[9, 4]', "not a [round, buttons] pair", "inputs[2]", 9, '[3, "right"]'),
    ('inputs = [[3, "right"], [4, "right"], [9, "up A"]]', 'inputs = "right"',
     "inputs must be a list", "inputs", 9, "inputs = [[3"),
]


@pytest.mark.parametrize("old, new, words, field, line, hint", ERRORS,
                         ids=[f"{e[3]}-{e[2][:20]}" for e in ERRORS])
def test_every_bad_replay_names_file_line_field_and_fix(old, new, words, field, line, hint,
                                                        tmp_path) -> None:
    assert old in TEXT
    path = tmp_path / f"bad{REPLAY_SUFFIX}"
    path.write_text(TEXT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ProjectError) as caught:
        load_replay(path)
    error = caught.value
    assert words in error.message
    assert error.file == path and error.line == line
    assert str(error).startswith(f"{path}:{line}: {field}: ")
    assert hint in error.hint and error.hint


def test_missing_key_and_syntax_errors_name_the_file(tmp_path) -> None:
    with pytest.raises(ProjectError) as caught:
        loads_replay(TEXT.replace("seed = 42\n", ""), file=tmp_path / "r.tcreplay.toml")
    assert "no 'seed'" in caught.value.message and "add seed" in caught.value.hint
    assert caught.value.file == tmp_path / "r.tcreplay.toml"
    with pytest.raises(ProjectError) as caught:
        loads_replay(TEXT.replace("seed = 42", "seed = "), file=Path("x.tcreplay.toml"))
    assert caught.value.line == 5 and "syntax" in caught.value.message
    with pytest.raises(ProjectError, match="no format key"):
        loads_replay("seed = 1\n")
    with pytest.raises(ProjectError, match="no such file"):
        load_replay(tmp_path / "missing.tcreplay.toml")


def test_save_and_load(tmp_path) -> None:
    replay = loads_replay(TEXT)
    path = save_replay(replay, tmp_path / "run.tcreplay.toml")
    assert path.read_text(encoding="utf-8") == TEXT
    assert load_replay(path) == replay
    save_replay(Replay("p.toml", "", 1, 2, "stopped", 0), path)  # replaced in place, no backup
    assert load_replay(path).seed == 1
    assert [p.name for p in tmp_path.iterdir()] == ["run.tcreplay.toml"]
    with pytest.raises(ProjectError, match="cannot write"):
        save_replay(replay, tmp_path / "no-such-folder" / "r.tcreplay.toml")


def test_replay_path_for_gives_a_free_name_beside_the_project(tmp_path) -> None:
    project = tmp_path / "hello-world.toml"
    first = replay_path_for(project)
    assert first == tmp_path / "hello-world.tcreplay.toml" and is_replay_name(first)
    first.write_text("", encoding="utf-8")
    assert replay_path_for(project) == tmp_path / "hello-world-2.tcreplay.toml"
    (tmp_path / "hello-world-2.tcreplay.toml").write_text("", encoding="utf-8")
    assert replay_path_for(project).name == "hello-world-3.tcreplay.toml"
    assert replay_path_for(tmp_path / "MineRocks.tilecode.toml").name == "MineRocks.tcreplay.toml"
    import datetime

    when = datetime.datetime(2026, 1, 23, 15, 30, 0)
    assert replay_path_for(project, when).name == "hello-world-20260123-153000.tcreplay.toml"
    assert not is_replay_name("hello-world.toml")


def test_project_sha256_follows_the_canonical_text(tmp_path) -> None:
    project = load_project(GAMES / "hello-world.toml")
    digest = project_sha256(project)
    assert len(digest) == 64 and int(digest, 16) >= 0
    copy = save_project(project, tmp_path / "copy.toml")
    assert project_sha256(load_project(copy)) == digest  # saving changes nothing
    project.body["game"]["round_ms"] = 151
    project.body["game"]["high_score"] = 990  # play records high scores: replays stay valid
    assert project_sha256(project) == digest
    project.body["map"]["width"] = 33
    assert project_sha256(project) != digest


def test_project_changed_and_the_project_beside_a_replay(tmp_path) -> None:
    project = load_project(GAMES / "hello-world.toml")
    path = save_project(project, tmp_path / "hello-world.toml")
    replay = Replay("hello-world.toml", project_sha256(project), 0, 1, "stopped", 0)
    assert not project_changed(replay, project)
    assert not project_changed(Replay("hello-world.toml", "", 0, 1, "stopped", 0), project)
    project.body["map"]["width"] = project.body["map"]["width"]  # no edit: same text
    assert not project_changed(replay, project)
    project.body["game"]["high_score"] = 999
    assert not project_changed(replay, project)
    project.body["rules"].pop()
    assert project_changed(replay, project)
    beside = save_replay(replay, tmp_path / "hello-world.tcreplay.toml")
    assert replay_project_path(beside, replay) == path
    assert replay_project_path(beside, Replay("other.toml", "", 0, 1, "stopped", 0)) is None
    sneaky = Replay("../../etc/hello-world.toml", "", 0, 1, "stopped", 0)
    assert replay_project_path(beside, sneaky) == path  # only ever beside the replay
