"""PlaySession (the play screen's headless twin) and ReplayRun (the replay viewer's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines.tilecode.engine import TilecodeGame, dump_state, load
from studio.engines.tilecode.errors import TilecodeError
from studio.engines.tilecode.events import Commit, Firing
from studio.engines.tilecode.replay import Replay
from studio.engines.tilecode.session import PlaySession, ReplayRun
from studio.storage import load_project
from studio.storage.tilecode.kind import project_to_game

from .build import game, rec, rule

GAMES = Path(__file__).resolve().parents[2] / "games"
LETTERS = {"L": "left", "U": "up", "R": "right", "D": "down", "A": "A"}

# (game file, seed, one token per round after round 0: letters joined by '+', '.' = none,
# "5R" = five rounds of R). Multi-button rounds and no-button rounds are both exercised.
CASES = {
    "hello-world": ("hello-world", 3, "U U+A U R D 5R 3D 5R L+R 2D ."),
    "boulder-dash": ("boulder-dash", 11, "D D R R R R D R R 3. 4R D+A D R R R U U U R D D L D D 12L ."),
}


def per_round(tokens: str) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for token in tokens.split():
        count = int(token[:-1]) if token[:-1].isdigit() else 1
        letters = token[-1] if count > 1 else token
        buttons = () if letters == "." else tuple(LETTERS[x] for x in letters.split("+"))
        out += [buttons] * count
    return out


def cli_tokens(rounds: list[tuple[str, ...]]) -> str:
    return " ".join("+".join(b) if b else "-" for b in rounds)


def load_game(stem: str):
    return project_to_game(load_project(GAMES / f"{stem}.toml"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_session_matches_the_engine_and_studio_run_round_by_round(name, capsys) -> None:
    stem, seed, tokens = CASES[name]
    inputs = per_round(tokens)
    g = load_game(stem)

    # The engine driven by hand: the independent reference.
    engine = load(g)
    state = engine.initial_state(seed)
    expected = []
    for buttons in [(), *inputs]:
        if state.over:
            break
        state, _ = engine.step(state, sorted(buttons))
        expected.append(dump_state(state))

    session = PlaySession(g, seed)
    got = [dump_state(session.state)]
    for buttons in inputs:
        if session.over:
            break
        for button in reversed(buttons):  # press order does not matter: a set
            session.press(button)
        session.step()
        got.append(dump_state(session.state))
    assert got == expected and len(got) > 20

    assert main(["run", str(GAMES / f"{stem}.toml"), "--seed", str(seed), "--inputs",
                 cli_tokens(inputs), "--json", "--every"]) == 0
    data = json.loads(capsys.readouterr().out)
    from_cli = [r for r in data["every"]]
    assert len(from_cli) == len(expected)
    for record, dump in zip(from_cli, expected):
        head = dump.splitlines()[0].split()
        assert (record["round"], record["status"], record["score"]) == (
            int(head[1]), head[3], int(head[5]))
        rows = dump.split("background\n", 1)[1].split("sprites\n", 1)
        assert record["background"] == rows[0].split()
        assert [" ".join(map(str, s)) for s in record["sprites"]] == [
            line.replace(" s", " ", 1) for line in rows[1].splitlines()]
    assert data["result"] == session.result and data["score"] == session.state.score


def test_round_0_runs_at_once_with_no_buttons() -> None:
    g = load_game("hello-world")
    session = PlaySession(g, 5)
    assert session.seed == 5 and session.previous.round == 0 and session.state.round == 1
    assert session.inputs == [()] and session.pending == ()
    assert session.result == "stopped" and not session.over
    assert any(isinstance(e, Commit) for e in session.events)
    assert session.previous == session.engine.initial_state(5)


def test_pending_buttons_are_a_set_consumed_by_one_round() -> None:
    session = PlaySession(load_game("hello-world"), 0)
    for button in ("right", "A", "right", "up", "A"):
        session.press(button)
    assert session.pending == ("up", "right", "A")
    session.step()
    assert session.inputs[-1] == ("up", "right", "A") and session.pending == ()
    session.step()
    assert session.inputs == [(), ("up", "right", "A"), ()]
    with pytest.raises(TilecodeError, match="unknown button"):
        session.press("B")
    assert session.pending == ()


def test_restart_reproduces_the_run_and_can_change_the_seed() -> None:
    g = load_game("boulder-dash")
    inputs = per_round(CASES["boulder-dash"][2])[:15]
    session = PlaySession(g, 11)

    def play() -> list[str]:
        dumps = [dump_state(session.state)]
        for buttons in inputs:
            for button in buttons:
                session.press(button)
            session.step()
            dumps.append(dump_state(session.state))
        return dumps

    first = play()
    session.press("left")  # pending input does not survive a restart
    session.restart()
    assert session.state.round == 1 and session.inputs == [()] and session.pending == ()
    assert play() == first
    session.restart(seed=12)
    assert session.seed == 12 and session.previous == session.engine.initial_state(12)
    with pytest.raises(TilecodeError):
        session.restart(seed=-1)
    assert session.seed == 12  # a refused restart changes nothing


def test_step_after_the_end_is_refused_and_result_is_the_end() -> None:
    # A never rule with no sprite of its kind fires at once: won in round 0.
    g = game(sprites=["0......."] + ["........"] * 7,
             rules=[rule(0, "never", rec(2, 2, include=["s1"], do=["game win"])),
                    rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]),
                         button="right")])
    session = PlaySession(g, 0)
    assert session.over and session.result == "won"
    with pytest.raises(TilecodeError, match="over"):
        session.step()
    replay = session.replay("t.toml", "")
    assert (replay.rounds, replay.result, replay.inputs) == (1, "won", ())


def record_session(stem: str, seed: int, tokens: str):
    g = load_game(stem)
    session = PlaySession(g, seed)
    states, events = [session.previous, session.state], [[], session.events]
    for buttons in per_round(tokens):
        if session.over:
            break
        for button in buttons:
            session.press(button)
        events.append(session.step())
        states.append(session.state)
    return g, session, states, events


@pytest.mark.parametrize("name", sorted(CASES))
def test_replay_run_reaches_the_recorded_states_and_verifies(name) -> None:
    g, session, states, events = record_session(*CASES[name])
    replay = session.replay(f"{name}.toml", "")
    run = ReplayRun(g, replay)
    assert run.last == replay.rounds == len(states) - 1
    for position in (0, 1, 2, run.last, 3, run.last - 1, 0):  # forwards and back
        assert run.state_at(position) == states[position]
        assert run.state_at(position).round == position
        assert run.events_at(position) == events[position]
    assert run.events_at(0) == []
    assert run.buttons_at(0) == run.buttons_at(1) == ()
    assert run.buttons_at(3) == session.inputs[2]
    verdict = run.verify()
    assert verdict.ok and verdict.result == session.result and verdict.score == session.state.score
    with pytest.raises(TilecodeError, match="ends at"):
        run.state_at(run.last + 1)
    with pytest.raises(TilecodeError):
        run.events_at(-1)


def test_replay_run_reports_a_changed_project() -> None:
    g, session, _, _ = record_session("hello-world", 0, "U U U R D 5R 3D 5R 2D .")
    replay = session.replay("hello-world.toml", "")
    assert replay.result == "won" and ReplayRun(g, replay).verify().ok
    # Without the scoring smash rule the same inputs no longer score.
    changed = type(g)(**{**g.__dict__, "rules": tuple(
        r for r in g.rules if not (r.type == "smash" and any(
            c.text == "game score" for t in r.tiles for c in t.do)))})
    verdict = ReplayRun(changed, replay).verify()
    assert not verdict.ok and verdict.expected_score == replay.score != verdict.score
    assert "mismatch" in verdict.message and "changed" in verdict.message


def test_replay_run_stops_where_the_game_ended_and_is_lazy() -> None:
    g, session, states, _ = record_session("hello-world", 0, "U U U R D 5R 3D 5R 2D .")
    ended = states[-1].round
    longer = Replay(**{**session.replay("p", "").__dict__, "rounds": ended + 10})
    steps = []

    class Counting(TilecodeGame):
        def step(self, state, buttons=(), record=True):
            steps.append(state.round)
            return super().step(state, buttons, record)

    run = ReplayRun(g, longer, engine=Counting(g))
    assert steps == [0]  # round 0 only, until a position is asked for
    assert run.state_at(3).round == 3 and len(steps) == 3
    run.state_at(2)
    run.state_at(3)
    assert len(steps) == 3  # positions are kept
    assert run.last == ended and len(steps) == ended
    verdict = run.verify()
    assert not verdict.ok and verdict.rounds == ended and verdict.expected_rounds == ended + 10
    zero = ReplayRun(g, Replay("p", "", 0, 0, "stopped", 0))
    assert zero.last == 0 and zero.state_at(0).round == 0 and zero.verify().ok


def test_sessions_without_recording_have_no_events() -> None:
    session = PlaySession(load_game("hello-world"), 0, record=False)
    session.press("up")
    assert session.step() == [] and session.events == []
    recorded = PlaySession(load_game("hello-world"), 0)
    recorded.press("up")
    assert any(isinstance(e, Firing) for e in recorded.step())
    assert recorded.state == session.state
