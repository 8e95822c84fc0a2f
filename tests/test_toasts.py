"""Notes (toasts) do not cover what comes next: a screen or dialog shown over the last one clears
the notes about that one (at 80×24 they hid the help, a dialog's question, a new editor)."""

from __future__ import annotations

from pathlib import Path

from studio.screens.help import HelpScreen
from tests.ui_helpers import studio_app


async def test_a_screen_shown_clears_the_notes_but_not_the_errors(games: Path) -> None:
    app = studio_app(games)
    async with app.run_test(size=(80, 24)) as pilot:
        app.notify("Saved the project")
        app.notify("The file could not be read", severity="error")
        app.notify("The file changed on disk", severity="warning")
        await pilot.pause()
        assert len(app._notifications) == 3
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert [note.message for note in app._notifications] == [
            "The file could not be read", "The file changed on disk"]


async def test_a_note_posted_with_the_screen_it_is_about_stays(games: Path) -> None:
    app = studio_app(games)
    async with app.run_test(size=(80, 24)) as pilot:
        app.notify("Imported: the game is now a project")  # then the screen it talks of
        app.push_screen(HelpScreen("help", []))
        await pilot.pause()
        assert [note.message for note in app._notifications] == [
            "Imported: the game is now a project"]


async def test_a_short_note_takes_one_line_at_the_top_off_the_status_lines(games: Path) -> None:
    # At the bottom (Textual's place) a save note sat on the map editor's cursor line.
    from textual.widgets._toast import Toast

    app = studio_app(games / "boulder-sketch.toml")
    async with app.run_test(size=(60, 20), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        status = app.screen.query_one("#status")
        app.notify("Saved boulder-sketch.toml")
        for _ in range(50):
            await pilot.pause(0.02)
            if app.screen.query(Toast):
                break
        (toast,) = app.screen.query(Toast)
        assert toast.region.y == 0 and toast.region.height == 1, toast.region
        assert not toast.region.overlaps(status.region)
