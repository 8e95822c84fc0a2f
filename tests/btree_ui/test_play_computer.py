"""The computer seat in play (issue 32): it thinks in a worker while keys work, undo takes back
its reply with your move, and a proven result shows on the status line."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.engines.btree.play.session import ChoiceWait, GameOver, Thinking
from studio.screens.btree.play import BtreePlayScreen
from studio.screens.btree.play_computer import ComputerTurns
from tests.btree_ui.test_play import settle
from tests.ui_helpers import studio_app, wait_until

SIZE = (100, 30)


def seat(path: Path, pid: str, kind: str) -> Path:
    """The project with player ``pid``'s seat set to ``kind``."""
    text = path.read_text(encoding="utf-8")
    old = f'{pid} = "human"'
    assert old in text
    path.write_text(text.replace(old, f'{pid} = "{kind}"'), encoding="utf-8")
    return path


async def human_turn(pilot, play: BtreePlayScreen) -> None:
    """Wait through the computer's thinking to the human's turn (or the end)."""
    await wait_until(pilot, lambda: not play.busy and isinstance(play.wait, (ChoiceWait, GameOver)),
                     "the computer did not move", timeout=30)


@pytest.fixture
def budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A playout budget instead of a time: the computer's moves are the same on any machine."""
    monkeypatch.setattr(ComputerTurns, "computer_playouts", 300)


async def test_the_computer_replies_and_undo_takes_back_both_moves(bt_folder: Path, budget) -> None:
    app = studio_app(seat(bt_folder / "tic-tac-toe.toml", "O", "computer"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        play = app.screen
        assert isinstance(play, BtreePlayScreen)
        await settle(pilot, play)
        assert isinstance(play.wait, ChoiceWait) and play.wait.player == "X"
        await pilot.press("5")  # X takes the centre
        await human_turn(pilot, play)
        assert isinstance(play.wait, ChoiceWait) and play.wait.player == "X"
        made = play.session.choices_made
        assert len(made) == 2 and play.playouts == 300
        reply = made[1]
        await pilot.press("u")
        await settle(pilot, play)
        assert play.session.choices_made == [] and isinstance(play.wait, ChoiceWait)
        await pilot.press("5")  # the same move, the same seed and budget: the same reply
        await human_turn(pilot, play)
        assert play.session.choices_made == [4, reply]


async def test_keys_work_while_the_computer_thinks(bt_folder: Path) -> None:
    app = studio_app(seat(bt_folder / "connect-four.toml", "Y", "computer:30"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        play = app.screen
        await wait_until(pilot, lambda: isinstance(play.wait, ChoiceWait), "no first turn", timeout=20)
        await pilot.press("4")
        await wait_until(pilot, lambda: isinstance(play.wait, Thinking) and play.playouts > 0,
                         "the computer did not start thinking", timeout=20)
        assert "thinking" in play.thinking_status(play.wait)
        await pilot.press("3")  # a move key while it thinks waits for the human's turn
        assert len(play.session.choices_made) == 1
        await pilot.press("u")  # takes back the human's move; the search is dropped
        await wait_until(pilot, lambda: isinstance(play.wait, ChoiceWait) and not play.busy,
                         "undo did not stop the computer", timeout=10)
        assert play.session.choices_made == [] and play.thinking is None


async def test_a_proven_result_is_named(bt_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ComputerTurns, "computer_playouts", 4000)
    app = studio_app(seat(seat(bt_folder / "tic-tac-toe.toml", "X", "first"), "O", "computer"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        play = app.screen
        seen: list[str] = []

        def over() -> bool:
            proof = play.proven_status()
            if proof:
                seen.append(proof)
            return isinstance(play.wait, GameOver)

        await wait_until(pilot, over, "the game did not end", timeout=60)
        # O's first reply proves the draw with best play (7 moves left); 'first' then blunders
        assert seen and seen[0] == " · computer: draw in 7"
        assert play.wait.result == {"result": "win", "player": "O"}


def test_play_after_the_computer_moved(snap_compare, bt_folder: Path, budget) -> None:
    async def run(pilot) -> None:
        await pilot.press("g")
        play = pilot.app.screen
        await settle(pilot, play)
        await pilot.press("5")
        await human_turn(pilot, play)
        await pilot.pause(0.2)

    app = studio_app(seat(bt_folder / "tic-tac-toe.toml", "O", "computer"))
    assert snap_compare(app, terminal_size=SIZE, run_before=run)


def test_play_while_the_computer_thinks(snap_compare, bt_folder: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.engines.btree.play.computer import ComputerJob

    def thinking(self, progress=None, cancel=None):
        """A search that has done 1234 playouts and goes on until it is cancelled (on leaving)."""
        progress(1234)
        cancel.wait(20)

    monkeypatch.setattr(ComputerJob, "run", thinking)

    async def run(pilot) -> None:
        await pilot.press("g")
        play = pilot.app.screen
        await settle(pilot, play)
        await pilot.press("5")
        await wait_until(pilot, lambda: play.playouts == 1234, "no progress shown", timeout=20)
        await pilot.pause(0.2)

    app = studio_app(seat(bt_folder / "tic-tac-toe.toml", "O", "computer"))
    assert snap_compare(app, terminal_size=SIZE, run_before=run)


async def test_balance_from_play(bt_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.screens.btree.balance import BalanceScreen

    monkeypatch.setattr(BalanceScreen, "games", 2)
    monkeypatch.setattr(BalanceScreen, "playouts", 100)
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        play = app.screen
        await settle(pilot, play)
        await pilot.press("B")
        screen = app.screen
        assert isinstance(screen, BalanceScreen)
        await wait_until(pilot, lambda: screen.took is not None, "balance did not finish", timeout=60)
        assert screen.report.games == 2 and set(screen.report.seats) == {"X", "O"}
        await pilot.press("escape")
        await settle(pilot, play)
        assert app.screen is play and isinstance(play.wait, ChoiceWait)


async def test_balance_plays_out_on_the_plain_engine_until_the_kernel_is_compiled(
        bt_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first compile in the balance's thread took over a minute on a loaded CI machine."""
    from studio.screens.btree import balance as balance_screen
    from studio.sessions import warmup

    asked: list[bool] = []
    real = balance_screen.balance

    def spy(*args, kernel=True, **more):
        asked.append(kernel)
        # Played out on the plain engine either way: the kernel's first compile on a fresh
        # clone is what this guards against (over a minute on a loaded CI machine).
        return real(*args, kernel=False, **more)

    monkeypatch.setattr(balance_screen, "balance", spy)
    monkeypatch.setattr(balance_screen.BalanceScreen, "games", 1)
    monkeypatch.setattr(balance_screen.BalanceScreen, "playouts", 20)
    for ready in (False, True):
        monkeypatch.setattr(warmup, "ready", lambda what, ready=ready: ready)
        app = studio_app(bt_folder / "tic-tac-toe.toml")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("g")
            await settle(pilot, app.screen)
            await pilot.press("B")
            screen = app.screen
            await wait_until(pilot, lambda: screen.took is not None, "balance did not finish",
                             timeout=60)
    assert asked == [False, True]


async def test_c_hands_the_seat_to_move_to_the_computer_and_back(bt_folder: Path, budget) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        play = app.screen
        await settle(pilot, play)
        await pilot.press("c")  # the computer plays X from here
        await human_turn(pilot, play)
        assert play.session.seat_of("X") == "computer"
        assert isinstance(play.wait, ChoiceWait) and play.wait.player == "O"
        assert len(play.session.choices_made) == 1
        await pilot.press("1")  # O moves; the computer answers for X
        await human_turn(pilot, play)
        assert len(play.session.choices_made) == 3 and play.wait.player == "O"
        await pilot.press("u")  # O's move and X's reply go back together
        await settle(pilot, play)
        assert len(play.session.choices_made) == 1
        await pilot.press("1")
        await wait_until(pilot, lambda: isinstance(play.wait, Thinking) or len(
            play.session.choices_made) == 3, "X did not move", timeout=20)
        await human_turn(pilot, play)
        await pilot.press("c")  # O's seat: the computer's now too
        await wait_until(pilot, lambda: play.session.seat_of("O") == "computer", "no seat change")
        await wait_until(pilot, lambda: isinstance(play.wait, GameOver), "the game did not end",
                         timeout=60)
