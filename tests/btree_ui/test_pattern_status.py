"""The tree editor's panes as the terminal draws them: the pattern status line, the diagnostics."""

from __future__ import annotations

from pathlib import Path

from tests.ui_helpers import studio_app


async def test_the_pattern_status_line_fits_wide_tiles(bt_folder: Path) -> None:
    """The status line is as wide as its text is on screen: an emoji takes two columns, and
    counting characters cut the end of the line off."""
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        app.screen.select((0,))  # set-board
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        pattern_screen = app.screen
        await pilot.press("tab")
        pattern_screen.query_one("TextArea").text = "🧱🧱🧱 B\nC D"
        await pilot.press("tab")
        await pilot.pause()
        status = pattern_screen.query_one("#status").text.splitlines()[0]
        assert "'🧱🧱🧱'" in status and status.rstrip().endswith("_ = empty"), status


async def test_a_compile_that_ends_after_the_editor_was_taken_down_is_dropped(
        bt_folder: Path) -> None:
    """The compile thread may finish after the tree editor left (or the studio closed): its
    report found no diagnostics pane and the worker failed with NoMatches (seen in CI)."""
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await pilot.pause()
        result = editor.compiled
        await editor.query_one("#diagnostics").remove()
        editor._compiled(editor.model, result)  # no pane to report to: nothing happens
