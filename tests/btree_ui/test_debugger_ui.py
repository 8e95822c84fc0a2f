"""The behaviour-tree debugger, opened from play: stepping, breakpoints, its first frame, and
play's own timers kept still while it drives the session."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from studio.engines.btree.play.session import ChoiceWait
from studio.screens.btree.debugger import DebuggerScreen
from studio.screens.btree.tree_lines import visible_lines
from tests.btree_ui.conftest import ROOT
from tests.btree_ui.test_play import idle, settle, start
from tests.ui_helpers import studio_app


async def test_debugger_steps_undoes_and_stops_at_a_breakpoint(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        await pilot.press("right")
        await settle(pilot, play)
        await pilot.press("b")
        debugger = app.screen
        assert isinstance(debugger, DebuggerScreen)
        engine = play.session.engine
        await pilot.press("1")  # choose at the wait (a choice resets the step budget)
        steps = engine.step_count
        await pilot.press("n")
        assert engine.step_count == steps + 1
        # A step's outcome in words: "→ None" said nothing of a node that runs its children.
        assert debugger.message.startswith("ran node") and "None" not in debugger.message
        assert debugger.message.endswith(("→ true", "→ false",
                                          "→ not done yet (a child runs next)"))
        await pilot.press("n", "n", "p")
        assert engine.step_count == steps + 2
        await pilot.press("c")  # to the next wait
        await idle(pilot, debugger)
        assert engine.waiting == "choice"
        await pilot.press("C")  # undo to the last wait
        assert "undid" in debugger.message
        # A breakpoint on the player node stops the run before it.
        player_path = (1, 0)
        await pilot.press("end")  # home and end reach the tree's ends, as in every list
        assert debugger.cursor == visible_lines(debugger.model.tree, set())[-1].path != ()
        await pilot.press("home")
        assert debugger.cursor == ()
        debugger.cursor = player_path
        await pilot.press("full_stop")
        assert debugger.debugger.breakpoints
        assert "breakpoint set on player @1/0" in debugger.message
        await pilot.press("1", "g")  # choose, then run: it stops before the player is called
        await idle(pilot, debugger)
        assert "stopped: breakpoint" in debugger.message
        top = engine.path()[-1]
        assert engine.nodes[top].type == "player" and engine.waiting is None
        await pilot.press("escape")
        await settle(pilot, play)
        assert app.screen is play and isinstance(play.wait, ChoiceWait)


async def test_the_debugger_opened_during_a_display_wait_stops_plays_timer(bt_folder: Path) -> None:
    from studio.engines.btree.play.session import DisplayWait

    path = bt_folder / "connect-four.toml"
    path.write_text(path.read_text().replace("delay = 0.05", "delay = 0.6"))
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        await pilot.press("1")  # a move: the board is shown for 0.6 s before the next turn
        await settle(pilot, play)
        assert isinstance(play.wait, DisplayWait)
        await pilot.press("b")
        debugger = app.screen
        assert isinstance(debugger, DebuggerScreen)
        engine = play.session.engine
        steps = engine.step_count
        await pilot.pause(1.0)  # play's display timer would have run the game on by now
        assert engine.waiting == "display" and engine.step_count == steps
        await pilot.press("space")  # the debugger clears the display itself: no crash after
        await idle(pilot, debugger)
        await pilot.pause(1.0)
        assert app.screen is debugger and app.return_code is None


async def test_the_debugger_draws_whole_labels_and_waits_from_its_first_frame(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, app)
        await pilot.press("b")
        await pilot.pause()
        debugger = app.screen
        assert 'rewrite [→] 1×2 "walk"' in debugger.query_one("#left").text  # was "■ rewrite"
        stack = " ".join(debugger.query_one("#stack").text.split())
        assert "2 choices (1-2 choose)" in stack  # folded, not cut at the pane's edge


async def test_the_debugger_and_solver_undo_no_edit_of_the_tree_they_run(bt_folder: Path) -> None:
    # ctrl+z in the debugger undid the editor's last edit while play went on with the tree it
    # had compiled (even after a restart): what was shown was not what ran.
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        document = editor.document
        document.edit("rename", replace(document.model, name="Sokoban 2"))
        token = document.history.token
        play = await start(pilot, app)
        await pilot.press("b")
        assert isinstance(app.screen, DebuggerScreen)
        await pilot.press("ctrl+z")
        assert document.history.token == token
        await pilot.press("escape")
        await settle(pilot, play)
        await pilot.press("s")
        await pilot.press("ctrl+z", "escape")
        assert document.history.token == token


async def test_tree_labels_cut_to_the_pane_end_in_an_ellipsis_beside_the_scrollbar(
        bt_folder: Path) -> None:
    # Drawn to the pane's whole width, the last two columns of every line went under the
    # vertical scrollbar, a horizontal one came, and a cut label just stopped ("take").
    shutil.copy(ROOT / "games" / "crypt.toml", bt_folder / "crypt.toml")
    app = studio_app(bt_folder / "crypt.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for screen_key in (None, "b"):
            if screen_key:
                await start(pilot, app)
                await pilot.press(screen_key)
                await idle(pilot, app.screen)
            view = app.screen.query_one("#tree" if screen_key is None else "#left")
            assert view.show_vertical_scrollbar and not view.show_horizontal_scrollbar
            texts = [line.text for line in view.lines]
            assert all(len(text) == view.text_width for text in texts)
            walk = next(text for text in texts if '"take' in text)
            assert walk.rstrip().endswith("…"), walk


def test_compiled_ids_are_right_aligned_so_the_nodes_line_up() -> None:
    # "9 ■ rewrite" and "10 ■ rewrite" at one depth put their marks a column apart.
    from studio.screens.btree.tree_lines import draw_compiled
    from studio.widgets.canvas import UIStyles

    nodes = [{"type": "order", "children": []}] + [{"type": "rewrite"}] * 11
    depths = [(0, 0)] + [(i, 1) for i in range(1, 12)]
    from rich.style import Style

    plain = UIStyles(*[Style()] * 11, ansi=False)
    picture = draw_compiled(nodes, depths, 40, plain, None)
    marks = {strip.text.index("■") for strip in picture.strips[1:]}
    assert len(marks) == 1, [strip.text for strip in picture.strips]


async def test_the_debugger_board_is_the_board_as_it_is_not_plays_preview(bt_folder: Path) -> None:
    # With a move selected in play (the solver's next, or one picked), the debugger drew it on
    # its board as if it had been made.
    from studio.widgets.board import Board

    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        play = await start(pilot, app)
        play.selected = 4  # the middle cell, shown in place on play's board
        assert play._renderer().preview is not None
        await pilot.press("b")
        debugger = app.screen
        assert isinstance(debugger, DebuggerScreen)
        assert debugger.query_one(Board).renderer.preview is None


def test_steps_to_a_wait_say_how_many_counted_in_the_budget() -> None:
    from types import SimpleNamespace

    from studio.screens.btree.debugger import _steps

    events = [SimpleNamespace(counted=c) for c in (False, True, True)]
    assert _steps(events, "to the next wait") == "3 steps to the next wait (2 in the step budget)"
    assert _steps(events[1:], "to the next action") == "2 steps to the next action"
