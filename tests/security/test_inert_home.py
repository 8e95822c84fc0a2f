"""Names from the projects folder reach the terminal inert (issue 28, item 7): a file name, a
project's name, an error quoting them, a note, a title, and the line filter behind them all.

Each surface is checked with the app's last guard (the line filter) switched off, so that the
test fails unless the surface itself shows the text as escapes (laid out with them); one test
checks the guard alone. What is checked is what the app would write to the terminal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from studio.screens.dialogs import ErrorDialog
from studio.screens.home import HomeScreen
from studio.storage import create_project
from tests.security.escapes import HOSTILE, SHOWN, assert_inert, written
from tests.ui_helpers import SIZE, studio_app, wait_until


def unguarded(path: Path):
    """The studio without its last guard: what a surface shows is its own doing."""
    app = studio_app(path)
    app._inert.enabled = False
    return app


def screen_text(app) -> str:
    return written(app).replace("\n", " ")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    games = Path("games")
    games.mkdir()
    good = create_project(games, "tilecode", "Good")
    good.path.rename(games / f"{HOSTILE}.toml")
    return games


async def test_a_hostile_file_name_shows_as_escapes_in_the_details(folder: Path) -> None:
    async with unguarded(folder).run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, HomeScreen)
        details = str(pilot.app.screen.query_one("#details", Static).render())
        assert details.startswith(f"{SHOWN}.toml — ")
        out = written(pilot.app)
        assert_inert(out)
        assert "\\x1b]0;PWNED" in out


async def test_a_project_named_with_c1_and_bidi_is_listed_broken_saying_so_as_escapes(
        folder: Path) -> None:
    # A project's name may hold no control or bidi character: the file is refused, and its
    # reason names the character by its escape.
    text = (folder / f"{HOSTILE}.toml").read_text()
    (folder / "named.toml").write_text(text.replace('name = "Good"',
                                                    'name = "Bad\\u009b2J\\u202eX"'))
    async with unguarded(folder).run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = pilot.app.screen.query_one(DataTable)
        rows = {str(table.get_row_at(row)[0]): str(table.get_row_at(row)[1])
                for row in range(table.row_count)}
        assert rows["named"] == "⚠ broken"
        table.move_cursor(row=list(rows).index("named"))
        await pilot.pause()
        out = written(pilot.app)
        assert_inert(out)
        assert "contains a control character (\\x9b)" in screen_text(pilot.app)


async def test_the_error_of_a_broken_file_with_a_hostile_name_shows_as_escapes(
        folder: Path) -> None:
    (folder / f"{HOSTILE}.toml").write_text("[project\n")
    async with unguarded(folder).run_test(size=SIZE) as pilot:
        await pilot.pause()
        out = written(pilot.app)  # the details pane quotes the file in its reason
        assert_inert(out)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ErrorDialog),
                         "the error did not show")
        await pilot.pause()
        out = written(pilot.app)
        assert_inert(out)
        assert "\\x1b]0;PWNED" in out


async def test_a_note_and_a_title_with_a_hostile_name_show_as_escapes(folder: Path) -> None:
    async with unguarded(folder).run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        pilot.app.screen.sub_title = HOSTILE
        pilot.app.notify(f"Renamed to {HOSTILE} [b]not markup[/]")
        await wait_until(pilot, lambda: pilot.app.screen.query("Toast"), "no note showed")
        await pilot.pause()
        out = written(pilot.app)
        assert_inert(out)
        assert "[b]not markup[/]" in out  # a note's text is not read as markup either
        assert "\\x1b]0;PWNED" in out


async def test_opening_a_project_with_a_hostile_file_name_keeps_its_title_inert(
        folder: Path) -> None:
    async with unguarded(folder).run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, HomeScreen),
                         "the project did not open")
        await pilot.pause()
        assert_inert(written(pilot.app))


async def test_the_last_guard_alone_keeps_text_a_screen_forgot_inert(folder: Path) -> None:
    async with studio_app(folder).run_test(size=SIZE) as pilot:
        await pilot.pause()
        # A screen that shows a name raw, as every screen did before.
        pilot.app.screen.query_one("#details", Static).update(f"raw {HOSTILE}")
        await pilot.pause()
        out = written(pilot.app)
        assert_inert(out)
        assert "raw evil\\x1b]0;PWNED" in out


async def test_brackets_in_a_file_name_are_text_not_markup(folder: Path) -> None:
    # Textual's markup can style text and bind a click to an action ("@click=app.quit").
    (folder / f"{HOSTILE}.toml").rename(folder / "[b]bold [@click=app.quit]bad.toml")
    async with unguarded(folder).run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("delete")  # the question quotes the file's name
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, HomeScreen),
                         "no question")
        await pilot.pause()
        shown = [str(static.render()) for static in pilot.app.screen.query(Static)]
        assert any("([b]bold [@click=app.quit]bad.toml) to the trash" in text for text in shown)
