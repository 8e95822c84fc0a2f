"""Play and the debugger, driven with keys; the UI agrees with ``studio trace``."""

from __future__ import annotations

from pathlib import Path

from textual import events

from studio.engines.btree.play.session import ChoiceWait, GameOver
from studio.engines.btree.runtime.trace import run_trace
from studio.screens.btree.debugger import DebuggerScreen
from studio.screens.btree.play import BtreePlayScreen
from studio.storage import load_project
from studio.storage.btree.project import compile_model, project_model
from studio.widgets.board import Board
from studio.widgets.footer import KeysFooter
from tests.ui_helpers import studio_app, wait_until


async def settle(pilot, play: BtreePlayScreen) -> None:
    """Wait until the engine (in a worker thread) has run on to the next wait."""
    await pilot.pause(0.01)
    await wait_until(pilot, lambda: not play.busy and play.wait is not None,
                     "the game did not reach a wait", timeout=20)


async def idle(pilot, debugger: DebuggerScreen) -> None:
    """Wait until the debugger's stepping job (run in a worker) is done."""
    await pilot.pause(0.01)
    await wait_until(pilot, lambda: not debugger.busy, "the debugger did not finish", timeout=20)


async def start(pilot, app) -> BtreePlayScreen:
    await pilot.press("g")
    play = app.screen
    assert isinstance(play, BtreePlayScreen)
    await settle(pilot, play)
    return play


def digit_for(index: int) -> str:
    return "0" if index == 9 else str(index + 1)


async def test_keys_in_the_ui_give_the_trace_of_studio_trace(bt_folder: Path) -> None:
    path = bt_folder / "tic-tac-toe.toml"
    compiled = compile_model(project_model(load_project(path)))
    expected = [line for line in run_trace(compiled.to_json(), engine_seed=5, chooser="a")
                if line["type"] in ("choice", "end")]
    app = studio_app(path)
    seen = []
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        play.session.restart(5)
        play.advance()
        await settle(pilot, play)
        t = 0
        while isinstance(play.wait, ChoiceWait):
            engine = play.session.engine
            seen.append({"type": "choice", "t": t, "loop_check": engine.step_count,
                         "board": engine.board_dict(),
                         "choices": [c.to_json() for c in engine.choices]})
            index = (7 * t + 3) % len(engine.choices)
            await pilot.press(digit_for(index))
            await settle(pilot, play)
            t += 1
        assert isinstance(play.wait, GameOver)
        engine = play.session.engine
        seen.append({"type": "end", "result": engine.result, "board": engine.board_dict()})
    for mine, theirs in zip(seen, expected, strict=True):
        for key in mine:
            assert mine[key] == theirs[key], (mine["type"], key)


async def test_choosing_by_button_list_cursor_and_undo_redo(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        engine = play.session.engine
        board = lambda: engine.board_dict()["main"]  # noqa: E731
        assert [c.button for c in engine.choices] == ["right", "down"]
        await pilot.press("right")  # the choice bound to the right button
        await settle(pilot, play)
        assert play.session.choices_made == [0] and board()[1][2] == "P"
        await pilot.press("tab", "tab", "enter")  # the second choice in the list
        await settle(pilot, play)
        assert len(play.session.choices_made) == 2
        await pilot.press("u")
        await settle(pilot, play)
        assert play.session.choices_made == [0]
        await pilot.press("U")
        await settle(pilot, play)
        assert len(play.session.choices_made) == 2
        await pilot.press("u", "u")
        await settle(pilot, play)
        assert play.session.choices_made == []
        play.board_cursor = None
        await pilot.press("shift+right", "shift+down")  # the cursor on (1,1): the player
        assert play.board_cursor == (1, 1)
        under = play._under((1, 1))
        assert under and play.previewed() == under[0]
        await pilot.press("enter")
        await settle(pilot, play)
        assert len(play.session.choices_made) == 1


async def test_more_than_ten_choices_accumulate_digits(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        assert len(play.choices) == 9
        await pilot.press("9")  # nine choices: one digit is enough
        await settle(pilot, play)
        assert play.session.choices_made == [8]


async def test_moves_typed_while_the_engine_runs_are_made_in_order(bt_folder: Path) -> None:
    # "right right" in one burst made one move: the second came while the engine ran the first.

    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        for key in ("down", "right", "right"):
            app.post_message(events.Key(key, None))
        await wait_until(pilot, lambda: len(play.session.choices_made) == 3 and not play.busy,
                         "the typed moves were not all made")
        await settle(pilot, play)
        assert not play.queued
        # Undo and redo in a burst too: all but the first were dropped while the engine ran.
        for key in ("u", "u", "u", "U"):
            app.post_message(events.Key(key, key))
        await wait_until(pilot, lambda: len(play.session.choices_made) == 1 and not play.busy
                         and not play.queued, "the typed undos were not all made")
        assert play.session.choices_made == [1]  # down, the first move, is left


async def x_wins(pilot, play) -> None:
    """Tic-tac-toe to its end: X takes the top row."""
    for digit in ("1", "4", "1", "3", "1"):
        await pilot.press(digit)
        await settle(pilot, play)


async def test_game_over_restart_and_replay(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        await x_wins(pilot, play)
        assert isinstance(play.wait, GameOver) and play.wait.result["player"] == "X"
        assert "player X wins" in play.query_one("#status").text
        offered = [key.action for key in play.query_one(KeysFooter).query("FooterKey")]
        assert "apply" not in offered and "select(1)" not in offered  # nothing left to choose
        await pilot.press("ctrl+s")
        replay = bt_folder / "tic-tac-toe.btreplay.json"
        assert replay.exists() and '"choices"' in replay.read_text()
        await pilot.press("R")  # same seed
        await settle(pilot, play)
        assert isinstance(play.wait, ChoiceWait) and play.session.choices_made == []
        offered = [key.action for key in play.query_one(KeysFooter).query("FooterKey")]
        assert "apply" in offered  # a new game: the move keys again


async def test_a_board_wider_than_its_pane_keeps_the_offered_moves_in_view(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await start(pilot, app)
        board = play.query_one(Board)
        await pilot.press(*"+" * 8)  # a few cells across the pane: the room is wider
        cols, rows = board.full_cells
        assert cols <= 4 and board.renderer.width > cols
        for key in ("down", "right", "right", "right", "right"):  # round the wall, to column 5
            await pilot.press(key)
            await settle(pilot, play)
            x, y = play._focus()
            cx, cy = board.camera
            assert cx <= x < cx + cols and cy <= y < cy + rows
        assert x >= cols  # off a camera left at the board's edge


async def test_minus_narrows_cells_below_the_widest_tile_down_to_one_column(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await start(pilot, app)
        natural = play.cell_width()
        await pilot.press(*"-" * (natural + 2))
        assert play.cell_width() == 1
        await pilot.press("+")
        assert play.cell_width() == 2


async def test_the_mouse_over_a_move_does_not_move_what_the_board_follows(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await start(pilot, app)
        board = play.query_one(Board)
        for key in ("down", "right"):  # to where the moves' cells are not all one
            await pilot.press(key)
            await settle(pilot, play)
        followed = play._focus()
        other = next(c for c in play.choices if (c.col, c.row) != followed)
        board.post_message(Board.CellHovered(board, (other.col, other.row)))
        await pilot.pause()
        assert play.hover == (other.col, other.row) and play.previewed() is not None
        assert play._focus() == followed  # else the board would slide away under the pointer


async def test_a_move_typed_right_after_a_restart_is_made_in_the_new_game(bt_folder: Path) -> None:
    # Once over, play stops offering the move keys; the restart offers them again at once, so
    # a move typed while the new game starts is kept for its first choice, not dropped.
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        await x_wins(pilot, play)
        assert isinstance(play.wait, GameOver) and play.check_action("digit", (5,)) is False
        play.action_restart(False)  # the new game is starting, its first choice not yet here
        assert play.busy and play.check_action("digit", (5,)) is not False
        app.post_message(events.Key("5", "5"))
        await wait_until(pilot, lambda: len(play.session.choices_made) == 1 and not play.busy,
                         "the move typed after the restart was not made")
