"""Play, the debugger and the solver, driven with keys; the UI agrees with ``studio trace``."""

from __future__ import annotations

from pathlib import Path

from textual import events

from studio.engines.btree.session import ChoiceWait, GameOver
from studio.engines.btree.trace import run_trace
from studio.screens.btree.debugger import DebuggerScreen
from studio.screens.btree.play import BtreePlayScreen
from studio.screens.btree.solver import SolverScreen
from studio.storage import load_project
from studio.storage.btree_project import compile_model, project_model
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


async def _done(pilot, solver: SolverScreen) -> None:
    """Wait until the search (in a worker thread) ends: seconds, on the plain path while the
    kernel gets ready, and far more on a slow or loaded machine."""
    await pilot.pause(0.05)
    await wait_until(pilot, lambda: solver.done, "the search did not end", timeout=120)


async def _stopped(pilot, job) -> None:
    """Wait until a search the screen no longer shows (replaced, its thread told to stop) ends."""
    await wait_until(pilot, lambda: job.result is not None, "the replaced search did not stop")


async def test_the_solver_finds_sokobans_line_and_it_can_be_followed(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        await pilot.press("s")
        solver = app.screen
        assert isinstance(solver, SolverScreen)
        await _done(pilot, solver)
        assert "found" in solver.outcome
        line = play.session.solution.line
        await pilot.press("enter")
        await settle(pilot, play)
        assert play.following and play.previewed() == line[0]
        await pilot.press("enter")
        await settle(pilot, play)
        assert play.session.choices_made == [line[0]]
        for _ in line[1:]:  # to the win: the status says the line was played, not left
            await pilot.press("enter")
            await settle(pilot, play)
        assert isinstance(play.wait, GameOver)
        status = " ".join(play.query_one("#status").text.split())
        assert "the solver's line, played to its end" in status and "off the" not in status


async def test_the_solver_shows_the_depth_its_search_reached(bt_folder: Path) -> None:
    # As `studio solve` says it: the screen kept the last progress report's depth (0 for the
    # eight puzzle, whose search ends before a second report).
    app = studio_app(bt_folder / "eight-puzzle.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot, app)
        await pilot.press("s")
        solver = app.screen
        await _done(pilot, solver)
        assert "found" in solver.outcome
        assert solver.depth == solver.job.result.depth > 0


async def test_the_method_key_searches_again_by_a_star_at_two_weights_then_best_first(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "peg-solitaire.toml")  # breadth first is far from done soon
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        await pilot.press("s")
        solver = app.screen
        await pilot.pause(0.3)
        first = solver.job
        await pilot.press("m")
        assert first.strategy == "bfs" and solver.job is not first
        assert (solver.job.strategy, solver.job.weight) == ("astar", 3)
        assert "A* weight 3" in solver.query_one("#report").text
        await pilot.press("escape")
        await _done(pilot, solver)
        assert solver.outcome == "cancelled"
        await _stopped(pilot, first)  # its own thread: it may end after the one that replaced it
        assert first.result is not None and first.result.cancelled  # the replaced search stopped
        await pilot.press("m")
        assert (solver.job.strategy, solver.job.weight) == ("astar", 2)
        assert "A* weight 2" in solver.query_one("#report").text
        await pilot.press("escape")
        await _done(pilot, solver)
        await pilot.press("m")
        assert solver.job.strategy == "best"
        await _done(pilot, solver)  # greedy finds a line of the solitaire at once
        assert solver.outcome.startswith("found")
        await pilot.press("m")
        assert solver.job.strategy == "bfs"  # round again
        await pilot.press("escape")
        await _done(pilot, solver)
        await pilot.press("escape")
        await settle(pilot, play)
        assert app.screen is play


async def test_a_search_begun_while_the_kernel_compiles_moves_to_it_once_ready(bt_folder: Path,
                                                                               monkeypatch) -> None:
    import studio.screens.btree.solver as solver_module

    ready = [False]
    monkeypatch.setattr(solver_module.warmup, "ready", lambda module: ready[0])
    app = studio_app(bt_folder / "peg-solitaire.toml")  # breadth first is far from done soon
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot, app)
        await pilot.press("s")
        solver = app.screen
        await pilot.pause(0.3)
        first = solver.job
        assert first.path == "plain" and not solver.done
        assert "while the kernel gets ready" in solver.query_one("#report").text
        ready[0] = True  # the warm-up process has finished
        # At the plain search's next progress report (due every so often, later when loaded).
        await wait_until(pilot, lambda: solver.job is not first,
                         "the search did not move to the kernel once it was ready")
        assert solver.job is not first and solver.job.path != "plain"
        assert (solver.job.strategy, solver.job.weight) == (first.strategy, first.weight)
        await pilot.press("escape")
        await _done(pilot, solver)
        await _stopped(pilot, first)
        assert first.result is not None and first.result.cancelled  # the plain search stopped


async def test_a_guided_line_is_found_and_said_not_to_be_known_shortest(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        await pilot.press("s", "m")
        solver = app.screen
        await _done(pilot, solver)
        assert solver.outcome.startswith("found") and "not known to be the shortest" in solver.outcome
        line = play.session.solution.line
        assert len(line) == len(solver.job.result.choices) and solver.job.strategy == "astar"
        def clock() -> list[str]:
            return [ln for ln in solver.query_one("#report").text.splitlines()
                    if ln.startswith(("time", "states per second"))]

        shown = clock()
        await pilot.pause(0.2)
        solver.refresh_view()
        assert clock() == shown and len(shown) == 2  # a finished search's time stands
        await pilot.resize_terminal(70, 30)
        await pilot.pause()
        narrow = len(solver.query_one("#report").text.splitlines())
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        assert len(solver.query_one("#report").text.splitlines()) < narrow  # notes rewrapped


async def test_breadth_first_at_its_limit_offers_the_next_method(bt_folder: Path, monkeypatch) -> None:
    import studio.screens.btree.solver as solver_module

    monkeypatch.setattr(solver_module, "METHODS", tuple(
        m._replace(max_states=300) if m.strategy == "bfs" else m for m in solver_module.METHODS))
    app = studio_app(bt_folder / "peg-solitaire.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot, app)
        await pilot.press("s")
        solver = app.screen
        await _done(pilot, solver)
        assert solver.outcome == "no win within 300 states"
        assert "m: search again by A* weight 3" in solver.query_one("#report").text


async def test_the_solver_cancels_cleanly(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "peg-solitaire.toml")  # far too many states to finish soon
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        await pilot.press("s")
        solver = app.screen
        # States are counted at the search's progress reports, from its thread: wait for one.
        await wait_until(pilot, lambda: solver.states > 0 or solver.done,
                         "the search reported no states")
        assert not solver.done and solver.states > 0
        assert solver.check_action("play_line", ()) is None  # dimmed: nothing to play yet
        await pilot.press("escape")
        await _done(pilot, solver)
        assert solver.done and solver.outcome == "cancelled"
        assert "cancelled" in solver.query_one("#report").text
        assert solver.check_action("play_line", ()) is None
        await pilot.press("enter")  # no line to play: it stays, and says why
        assert app.screen is solver
        assert any("no line to play" in n.message for n in app._notifications)
        await pilot.press("escape")
        await settle(pilot, play)
        assert app.screen is play


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
