"""PlaySession (§11.3): seats, choice-level undo/redo, restart, display waits, replays. Its
equivalence with `studio trace` and `studio run` is in test_session_trace.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.commands.btree.formats import load_compiled
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.play.session import (
    NO_SOLVER_LINE,
    AutoMove,
    ChoiceWait,
    DisplayWait,
    GameOver,
    PlaySession,
    Wait,
    seat_rng,
)
from tests.btree.trees import game, node, pat, rewrite, set_board

GAMES = Path(__file__).resolve().parents[2] / "games"
BTREE_GAMES = ["connect-four", "crypt", "eight-puzzle", "peg-solitaire", "sokoban", "tic-tac-toe"]
SOKOBAN_LINE = [0, 2, 2, 0, 2, 2, 1, 0, 0, 0, 0, 2, 2, 0, 2, 3, 0, 0, 0, 3, 0, 0, 0, 2, 3, 1, 1, 2, 3]


def program(name: str) -> Program:
    return Program(load_compiled(GAMES / f"{name}.toml"))


def until_human(session: PlaySession, log: list[Wait] | None = None) -> Wait:
    """Advance as a screen would (displays cleared at once) until a human wait or the end."""
    while True:
        wait = session.advance()
        if log is not None:
            log.append(wait)
        if isinstance(wait, DisplayWait):
            session.clear_display()
        elif not isinstance(wait, AutoMove):
            return wait


def numeric_pid_game() -> dict:
    """Player 1 (a number) fills cells of a 1x4 row; the game is a draw when the row is full."""
    turn = node("player", rewrite("_", "X", desc="fill"), pid=1)
    full = node("draw", node("match-times", pattern=pat("_"), times=0))
    return game(node("order", set_board("_ _ _ _"), node("loop-until-all", turn, full)))


# ------------------------------------------------------------------------------------ seats


def test_random_seats_draw_their_own_sequence_per_seed_and_pid() -> None:
    prog = program("connect-four")
    session = PlaySession(prog, 3, {"R": "random", "Y": "random"})
    expected = {pid: seat_rng(3, pid) for pid in ("R", "Y")}
    moves = 0
    while not isinstance(wait := session.advance(show_displays=False), GameOver):
        assert isinstance(wait, AutoMove) and wait.seat == "random" and wait.note == ""
        assert wait.index == expected[wait.player].below(len(session.engine.choices))
        moves += 1
    assert moves >= 7 and len(session.choices_made) == moves
    again = PlaySession(prog, 3, {"R": "random", "Y": "random"})
    until_human(again)
    assert again.choices_made == session.choices_made
    others = set()
    for seed in (4, 5, 6):
        other = PlaySession(prog, seed, {"R": "random", "Y": "random"})
        until_human(other)
        others.add(tuple(other.choices_made))
    assert any(other != tuple(session.choices_made) for other in others)


def test_seat_pids_are_compared_as_strings_and_random_seats_leave_the_engine_rng_alone() -> None:
    session = PlaySession(numeric_pid_game(), 7, {"1": "random"})
    first = session.advance()
    assert isinstance(first, AutoMove) and first.player == "1"
    rng = seat_rng(7, "1")
    assert first.index == rng.below(4)
    second = session.advance()  # applies the first move, shows the next
    assert isinstance(second, AutoMove) and second.index == rng.below(3)
    human = PlaySession(numeric_pid_game(), 7)  # the same move made by hand: the same engine state
    assert isinstance(human.advance(), ChoiceWait)
    human.choose(first.index)
    assert isinstance(human.advance(), ChoiceWait)
    assert session.engine.key() == human.engine.key()
    assert session.seat_of(1) == "random" and session.seat_of("2") == "human"


def test_first_seat_and_unknown_kind() -> None:
    session = PlaySession(program("tic-tac-toe"), 0, {"X": "first", "O": "first"})
    waits: list[Wait] = []
    over = until_human(session, waits)
    assert isinstance(over, GameOver)
    assert all(w.index == 0 for w in waits if isinstance(w, AutoMove))
    assert session.choices_made == [0] * len(session.choices_made)
    with pytest.raises(ValueError, match="robot"):
        PlaySession(program("tic-tac-toe"), 0, {"X": "robot"})


def test_solver_seat_plays_first_until_a_line_is_found_then_the_line() -> None:
    session = PlaySession(program("sokoban"), 0, {"keeper": "solver"})
    wait = session.advance()
    assert isinstance(wait, AutoMove) and wait.index == 0 and wait.note == NO_SOLVER_LINE
    session.restart()
    found = session.solve_from_here()
    assert found.found and found.choices == SOKOBAN_LINE
    assert session.solution is not None and session.solution_choice() is None  # not at a wait yet
    log: list[Wait] = []
    over = until_human(session, log)
    assert isinstance(over, GameOver) and over.result == {"result": "win", "player": "keeper"}
    assert over.text == "Game over, player keeper wins!" == session.result_text
    assert session.choices_made == SOKOBAN_LINE
    assert all(isinstance(w, AutoMove) and w.note == "" for w in log[:-1])


def test_solver_line_is_followed_by_hand_and_dropped_off_the_line() -> None:
    session = PlaySession(program("eight-puzzle"), 0)
    assert isinstance(session.advance(), ChoiceWait)
    found = session.solve_from_here()
    assert found.found and len(found.choices) == 8
    hint = session.solution_choice()
    assert hint == found.choices[0]
    session.choose(hint)
    assert isinstance(session.advance(), ChoiceWait)
    assert session.solution_choice() == found.choices[1]
    wrong = next(i for i in range(len(session.engine.choices)) if i != found.choices[1])
    session.choose(wrong)
    session.advance()
    assert session.solution_choice() is None  # off the line: the solver seat would play first
    assert session.undo() and session.solution_choice() == found.choices[1]


# ---------------------------------------------------------------------------- undo and redo


def test_undo_and_redo_skip_automatic_moves() -> None:
    session = PlaySession(program("tic-tac-toe"), 5, {"O": "random"})
    assert isinstance(session.advance(), ChoiceWait)
    start = session.engine.key()
    assert not session.undo() and not session.can_undo
    session.choose(4)
    reply = until_human(session)
    assert isinstance(reply, ChoiceWait) and reply.player == "X"
    after_first = (session.engine.key(), session.choices_made)
    o_first = session.choices_made[1]
    session.choose(0)
    until_human(session)
    after_second = (session.engine.key(), session.choices_made)
    assert len(after_second[1]) == 4
    assert session.undo() and (session.engine.key(), session.choices_made) == after_first
    assert session.undo() and session.engine.key() == start and session.choices_made == []
    assert not session.undo()
    assert session.redo() and (session.engine.key(), session.choices_made) == after_first
    assert session.redo() and (session.engine.key(), session.choices_made) == after_second
    assert not session.redo() and not session.can_redo
    # the random seat's RNG is part of the undo: the same human move gets the same reply
    session.undo()
    session.undo()
    session.choose(4)
    until_human(session)
    assert session.choices_made == [4, o_first] and session.can_redo
    # a different move drops the redo line
    session.choose(1)
    until_human(session)
    assert not session.can_redo and session.choices_made[:3] == [4, o_first, 1]


def test_undo_while_an_automatic_move_is_shown_and_from_game_over() -> None:
    session = PlaySession(program("tic-tac-toe"), 1, {"O": "first"})
    session.advance()
    session.choose(0)
    shown = session.advance()
    assert isinstance(shown, AutoMove) and session.engine.waiting == "choice"  # not applied yet
    assert session.undo() and session.choices_made == [] and isinstance(session.advance(), ChoiceWait)
    # X takes the left column: (0,0), then (1,0), then (2,0); O always takes the first free cell
    for index in (0, 1):
        session.choose(index)
        assert isinstance(until_human(session), ChoiceWait)
    session.choose(2)
    over = until_human(session)
    assert isinstance(over, GameOver) and over.result == {"result": "win", "player": "X"}
    board = session.engine.board_key()
    made = session.choices_made
    assert made == [0, 0, 1, 0, 2]
    assert session.undo() and session.result is None and session.choices_made == [0, 0, 1, 0]
    assert session.redo() and session.result == over.result and session.engine.board_key() == board
    assert session.choices_made == made and session.advance() == over


def test_redo_after_an_undo_during_a_display_wait() -> None:
    session = PlaySession(program("connect-four"), 0, {"Y": "first"})
    session.advance()
    session.choose(2)
    wait = session.advance()
    assert isinstance(wait, DisplayWait) and wait.delay == pytest.approx(0.05)
    displayed = session.engine.key()
    assert session.undo() and session.choices_made == [] and session.engine.waiting == "choice"
    assert session.redo() and session.choices_made == [2]
    assert session.advance() == wait and session.engine.key() == displayed


def test_undo_cap_drops_the_oldest_waits() -> None:
    session = PlaySession(program("sokoban"), 0, undo_cap=3)
    for _ in range(5):
        session.advance()
        session.choose(0)
    session.advance()
    undos = 0
    while session.undo():
        undos += 1
    assert undos == 2 and len(session.choices_made) == 3


# ------------------------------------------------------------------- restart, displays, misc


def test_restart_same_and_new_seed() -> None:
    prog = program("connect-four")
    session = PlaySession(prog, 8, {"R": "random", "Y": "random"})
    engine = session.engine
    until_human(session)
    first_run = (session.choices_made, session.engine.board_key(), session.result)
    session.restart()
    assert session.engine is engine and session.choices_made == [] and session.result is None
    assert session.engine.board is None and session.seed == 8 and not session.can_undo
    until_human(session)
    assert (session.choices_made, session.engine.board_key(), session.result) == first_run
    session.restart(9)
    fresh = Engine(prog)
    fresh.seed(9)
    assert session.seed == 9 and session.engine.key() == fresh.key()
    until_human(session)
    assert session.choices_made[0] == seat_rng(9, "R").below(7)
    with pytest.raises(ValueError):
        session.restart(-1)


def test_display_waits_are_surfaced_and_repeat_until_cleared() -> None:
    session = PlaySession(program("connect-four"), 0)
    session.advance()
    session.choose(3)
    wait = session.advance()
    assert isinstance(wait, DisplayWait) and wait.delay == pytest.approx(0.05)
    key = session.engine.key()
    assert session.advance() == wait and session.engine.key() == key  # nothing moved
    assert session.engine.step_count > 0
    session.clear_display()
    assert session.engine.step_count == 0  # interactive clears reset the budget (§7.2)
    headless = PlaySession(program("connect-four"), 0, display_reset=False)
    headless.advance()
    headless.choose(3)
    headless.advance()
    counted = headless.engine.step_count
    headless.clear_display()
    assert headless.engine.step_count == counted
    with pytest.raises(ValueError):
        headless.choose(0)  # not at a choice wait


def test_choose_checks_the_index() -> None:
    session = PlaySession(program("tic-tac-toe"), 0)
    session.advance()
    with pytest.raises(IndexError):
        session.choose(9)
    assert session.choices_made == []


def test_replay_data_replays_to_the_same_end() -> None:
    prog = program("connect-four")
    session = PlaySession(prog, 21, {"R": "random", "Y": "random"})
    over = until_human(session)
    data = session.replay_data("ab" * 32)
    assert data == {
        "format": "studio-btree-replay", "version": 1, "game_sha256": "ab" * 32, "seed": 21,
        "board": None, "choices": session.choices_made, "result": over.result,
    }
    replay = PlaySession(prog, data["seed"])
    for index in data["choices"]:
        assert isinstance(until_human(replay), ChoiceWait)
        replay.choose(index)
    assert until_human(replay) == over and replay.engine.board_key() == session.engine.board_key()


def test_injected_board_is_kept_across_restart_and_in_the_replay() -> None:
    loop = node("loop-until-all", node("player", rewrite("_", "X"), pid="p"))
    board = {"main": [["_", "X"]]}
    session = PlaySession(game(loop), 0, board=board)
    wait = session.advance()
    assert isinstance(wait, ChoiceWait) and len(wait.choices) == 1
    session.choose(0)
    session.restart()
    assert session.engine.board_dict() == board and session.replay_data("")["board"] == board
