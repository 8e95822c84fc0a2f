"""The whole job in the UI alone: a small game authored in the tree editor from a new project,
played by choosing moves on the board, debugged, solved, undone, saved and reopened."""

from __future__ import annotations

from pathlib import Path

from studio.engines.btree.play.session import ChoiceWait, GameOver
from studio.screens.btree.editor import TreeEditorScreen
from studio.storage import create_project, load_project
from studio.storage.btree.project import compile_model, project_model
from tests.btree_ui.test_play import idle, settle
from tests.ui_helpers import studio_app, wait_until, workers_done


async def add(pilot, key: str, kind: str) -> None:
    await pilot.press(key, *kind, "enter")
    await pilot.pause()


async def set_field(pilot, app, editor, field: str, value: str) -> None:
    """Focus the properties, tab to ``field``, type ``value``, apply it."""
    await pilot.press("enter")
    for _ in range(8):
        if app.focused is not None and app.focused.id == f"field-{field}":
            break
        await pilot.press("tab")
    assert app.focused.id == f"field-{field}"
    app.focused.value = value
    await pilot.press("enter", "escape")
    await pilot.pause()


async def write_pattern(pilot, app, field: str, text: str) -> None:
    """Open the pattern editor (``e``; ``f9`` on to the rhs) and type ``field``'s text form."""
    await pilot.press("e")
    await pilot.pause()
    if field == "rhs":
        await pilot.press("f9")
    assert app.screen.field == field
    await pilot.press("tab")
    app.screen.query_one("TextArea").text = text
    await pilot.press("tab", "escape")
    await pilot.pause()


async def test_author_play_debug_solve_undo_save_and_reopen(empty_games: Path) -> None:
    create_project(empty_games, "btree", "Line up")  # as the new-project dialog does
    app = studio_app(empty_games)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        editor = app.screen
        assert isinstance(editor, TreeEditorScreen)
        path = editor.document.path
        # The template: order > set-board 3×3, display-board. Replace the display with a loop.
        editor.select((1,))
        await pilot.press("delete")
        editor.select(())
        await add(pilot, "n", "loop-until-all")
        await add(pilot, "n", "player")
        await set_field(pilot, app, editor, "pid", "X")
        await add(pilot, "n", "rewrite")
        await set_field(pilot, app, editor, "desc", "mark")
        await write_pattern(pilot, app, "rhs", "X")
        editor.select((1,))
        await add(pilot, "n", "win")
        await set_field(pilot, app, editor, "pid", "X")
        await add(pilot, "n", "match")
        await write_pattern(pilot, app, "pattern", "X X X")
        await workers_done(pilot, "compile")  # the last edit's compile, in a worker thread
        assert "compiles" in editor.query_one("#diagnostics").text
        tree = editor.model.tree
        assert [c["type"] for c in tree["children"]] == ["set-board", "loop-until-all"]

        # Play: three marks along the top row win.
        await pilot.press("g")
        play = app.screen
        await settle(pilot, play)
        for digit in ("1", "1", "1"):
            assert isinstance(play.wait, ChoiceWait)
            await pilot.press(digit)
            await settle(pilot, play)
        assert isinstance(play.wait, GameOver) and play.wait.result["player"] == "X"
        # Undo the last move, step through it in the debugger, then solve from there.
        await pilot.press("u")
        await settle(pilot, play)
        await pilot.press("b")
        debugger = app.screen
        await pilot.press("1", "c")
        await idle(pilot, debugger)
        assert play.session.engine.result is not None  # the debugger reached the win
        await pilot.press("escape")
        await settle(pilot, play)
        await pilot.press("u")
        await settle(pilot, play)
        await pilot.press("s")
        solver = app.screen
        # as the solver's own tests wait: on a loaded machine the first solve may compile
        await wait_until(pilot, lambda: solver.done, "the search did not end", timeout=120)
        assert "found: a winning line of 1 move" in solver.outcome
        await pilot.press("enter")
        await settle(pilot, play)
        await pilot.press("enter")
        await settle(pilot, play)
        assert isinstance(play.wait, GameOver)
        await pilot.press("escape")

        # Undo every edit back to the template, redo them all, save.
        count = len(editor.document.history)
        for _ in range(count):
            await pilot.press("ctrl+z")
        assert [c["type"] for c in editor.model.tree["children"]] == ["set-board",
                                                                       "display-board"]
        for _ in range(count):
            await pilot.press("ctrl+y")
        await pilot.press("ctrl+s")
        await pilot.pause()
        model = editor.model
        del debugger
    reopened = project_model(load_project(path))
    assert reopened.tree == model.tree
    assert not isinstance(compile_model(reopened), Exception)
