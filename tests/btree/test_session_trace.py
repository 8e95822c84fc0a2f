"""A PlaySession driven as the play screen drives it gives the lines of `studio trace` and of
the corpus traces; its seats and undo are the ones `studio run` always had."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from studio.engines.btree.runtime.engine import Program
from studio.engines.btree.play.session import (
    ChoiceWait,
    DisplayWait,
    GameOver,
    PlaySession,
    seat_rng,
)
from studio.engines.btree.runtime.trace import chooser_a, chooser_b, run_trace
from tests.btree.corpus import corpus_dir, load_json, normalise, read_jsonl
from tests.btree.test_session import BTREE_GAMES, program


def session_trace(
    session: PlaySession, pick: Callable[[int, int], int], max_waits: int, max_displays: int,
    display_boards: bool,
) -> list[dict]:
    """The corpus trace lines (after the header) of a session driven as the play screen does."""
    lines: list[dict] = []
    t = d = 0
    engine = session.engine
    while True:
        wait = session.advance()
        board = engine.board_dict()
        if isinstance(wait, DisplayWait):
            line = {"type": "display", "d": d, "loop_check": engine.step_count, "delay": engine.display_delay}
            if display_boards:
                line["board"] = board
            lines.append(line)
            if d == max_displays:
                break
            session.clear_display()
            d += 1
        elif isinstance(wait, ChoiceWait):
            capped = t == max_waits
            chosen = None if capped else pick(t, len(wait.choices))
            lines.append({"type": "choice", "t": t, "loop_check": engine.step_count, "board": board,
                          "choices": [c.to_json() for c in wait.choices], "chosen": chosen})
            if capped:
                break
            session.choose(chosen)
            t += 1
        else:
            assert isinstance(wait, GameOver)
            break
    end = {"type": "end", "reason": "result" if session.result else "cap_waits" if lines[-1]["type"] == "choice"
           else "cap_displays", "result": session.result, "loop_check": engine.step_count,
           "choices_made": t, "displays_cleared": d}
    if session.result:
        end["board"] = engine.board_dict()
    return [*lines, end]


@pytest.mark.parametrize("name", BTREE_GAMES)
@pytest.mark.parametrize("seed,rule", [(5, "a"), (12345, "b")])
def test_session_gives_the_trace_of_studio_trace(name: str, seed: int, rule: str) -> None:
    prog = program(name)
    expected = list(run_trace(prog, engine_seed=seed, chooser=rule, max_waits=40, max_displays=300))[1:]
    pick = chooser_a() if rule == "a" else chooser_b()
    got = session_trace(PlaySession(prog, seed), pick, 40, 300, True)
    assert got == expected


CORPUS_TRACES = ["games_yaml__checkers.a.jsonl", "games_json__connect4-emoji.a.jsonl",
                 "games_json__sweeper.b.jsonl", "games_json__trogue.b.jsonl", "games_yaml__loop.a.jsonl"]


@pytest.mark.parametrize("name", CORPUS_TRACES)
def test_session_reproduces_corpus_traces(name: str) -> None:
    expected = read_jsonl(corpus_dir() / "traces" / name)
    header = expected[0]
    chosen = iter([line["chosen"] for line in expected if line["type"] == "choice"])
    session = PlaySession(Program(load_json(header["expanded"])), header["engine_seed"])
    got = session_trace(session, lambda t, n: next(chosen), header["max_waits"], header["max_displays"],
                        header["display_boards"])
    assert [normalise(line) for line in got] == [normalise(line) for line in expected[1:]]


def test_a_random_seat_game_replays_in_run_trace_terms() -> None:
    """A game played by random seats, replayed by hand, passes through the same choice lists."""
    prog = program("tic-tac-toe")
    session = PlaySession(prog, 2, {"X": "random", "O": "random"})
    offers = []
    while not isinstance(wait := session.advance(show_displays=False), GameOver):
        offers.append([c.to_json() for c in session.engine.choices])
    made = iter(session.choices_made)
    replayed = session_trace(PlaySession(prog, 2), lambda t, n: next(made), 100, 100, True)
    assert [line["choices"] for line in replayed if line["type"] == "choice"] == offers
    assert replayed[-1]["result"] == wait.result


def test_the_seat_rng_definition_is_the_one_studio_run_always_used() -> None:
    # pinned from `studio run` before the move to the session: replays of old runs stay valid
    first = seat_rng(3, "R")
    assert [first.below(7) for _ in range(6)] == [2, 2, 1, 0, 5, 3]
    second = seat_rng(0, "1")
    assert [second.below(100) for _ in range(4)] == [98, 76, 66, 2]


def test_studio_run_undo_returns_to_the_human_choice_past_automatic_replies() -> None:
    import io

    from studio.commands.btree.play import play

    out = io.StringIO()
    session = PlaySession(program("tic-tac-toe"), 5, {"O": "random"}, display_reset=False)
    assert play(session, io.StringIO("5\nu\n5\nq\n"), out) is None
    text = out.getvalue()
    replies = [line.split("> ")[-1] for line in text.splitlines() if "player O (random)" in line]
    assert len(replies) == 2 and replies[0] == replies[1]  # the same reply to the same move
    assert text.count("player X to move:") == 4 and "nothing to undo" not in text
    assert session.choices_made[0] == 4
