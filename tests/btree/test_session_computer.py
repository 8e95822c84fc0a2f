"""The ``computer`` seat (issue 32) in a play session, in ``[seats]`` and in ``studio run``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio import cli
from studio.commands.btree.formats import load_compiled
from studio.engines.btree.play.seats import COMPUTER_SECONDS, is_seat, parse_seat
from studio.engines.btree.play.session import AutoMove, ChoiceWait, GameOver, PlaySession, Thinking
from studio.engines.btree.runtime.engine import Program
from studio.storage import ProjectError
from studio.storage.btree.settings import SettingsForm, apply_form

GAMES = Path(__file__).resolve().parents[2] / "games"


def program(name: str) -> Program:
    return Program(load_compiled(GAMES / f"{name}.toml"))


def test_seat_words() -> None:
    assert parse_seat("computer") == ("computer", COMPUTER_SECONDS)
    assert parse_seat("computer:0.5") == ("computer", 0.5)
    assert parse_seat(" random ") == ("random", None)
    for bad in ("computer:", "computer:0", "computer:-1", "computer:nan", "computer:x",
                "computer:601", "random:1", "robot", ""):
        assert not is_seat(bad), bad
        with pytest.raises(ValueError):
            parse_seat(bad)
    assert not is_seat(3)


def test_settings_accept_a_computer_seat_and_explain_a_bad_one() -> None:
    form = SettingsForm("0", False, {"X": "computer:0.5", "O": "human"}, "", "0", False, False)
    assert apply_form({}, form)["seats"] == {"X": "computer:0.5", "O": "human"}
    with pytest.raises(ProjectError, match=r"computer\[:SECONDS\]"):
        apply_form({}, SettingsForm("0", False, {"X": "computer:soon"}, "", "0", False, False))


def test_a_computer_game_is_the_same_for_the_same_seed_and_budget() -> None:
    prog = program("tic-tac-toe")
    games = []
    for _ in range(2):
        session = PlaySession(prog, 4, {"X": "computer", "O": "computer"}, computer_playouts=200)
        waits = []
        while not isinstance(wait := session.advance(show_displays=False), GameOver):
            assert isinstance(wait, AutoMove) and wait.seat == "computer"
            waits.append(wait.note)
        games.append((session.choices_made, waits, wait.result))
    assert games[0] == games[1]
    assert any(note.startswith("draw in") for note in games[0][1])  # proven before the end


def test_thinking_elsewhere_and_undo_with_the_computer() -> None:
    session = PlaySession(program("tic-tac-toe"), 0, {"O": "computer"}, computer_playouts=300)
    assert isinstance(session.advance(), ChoiceWait)
    session.choose(4)
    wait = session.advance(think=False)
    assert isinstance(wait, Thinking) and wait.player == "O"
    wait.job.run()
    assert session.play_computer(wait.job)
    assert not session.play_computer(wait.job), "a job is played once, where it was made"
    assert isinstance(session.advance(think=False), ChoiceWait)
    assert len(session.choices_made) == 2
    assert session.undo() and session.choices_made == []  # the reply goes with the move
    # a search finished after the game left its position is dropped
    session.choose(0)
    stale = session.advance(think=False)
    assert isinstance(stale, Thinking)
    session.undo()
    stale.job.run()
    assert not session.play_computer(stale.job)
    assert session.choices_made == []


def test_a_bad_computer_seat_is_refused_by_the_session() -> None:
    with pytest.raises(ValueError, match="computer"):
        PlaySession(program("tic-tac-toe"), 0, {"X": "computer:never"})


def test_studio_run_with_computer_seats(capsys: pytest.CaptureFixture[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "studio", "run", str(GAMES / "tic-tac-toe.toml"),
         "--player", "X=computer:0.05", "--player", "O=computer:0.05"],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "player X (computer): place a mark" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("Game over")
    assert cli.main(["run", str(GAMES / "tic-tac-toe.toml"), "--player", "X=computer:x"]) == 1
    assert "computer[:SECONDS]" in capsys.readouterr().err


def test_a_seat_changes_mid_game() -> None:
    session = PlaySession(program("tic-tac-toe"), 0, {}, computer_playouts=200)
    assert isinstance(session.advance(), ChoiceWait)
    session.set_seat("X", "computer:0.5")
    assert session.seat_of("X") == "computer" and session.seconds["X"] == 0.5
    wait = session.advance(think=False)
    assert isinstance(wait, Thinking)
    wait.job.run()
    assert session.play_computer(wait.job)
    assert isinstance(session.advance(), ChoiceWait)
    assert not session.can_undo  # X's turn became the computer's: no human turn to go back to
    session.set_seat("X", "human")
    assert session.seat_of("X") == "human" and "X" not in session.seconds
    with pytest.raises(ValueError):
        session.set_seat("X", "robot")
