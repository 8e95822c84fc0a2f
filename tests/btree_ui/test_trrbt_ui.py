"""trrbt game files from the UI: opened by importing, listed and imported on the home screen,
exported from the tree editor."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input, Static

from studio.screens.btree.editor import TreeEditorScreen
from studio.screens.dialogs import NameDialog
from studio.screens.home import HomeScreen
from studio.screens.import_dialog import ImportDialog
from studio.storage import load_project
from studio.storage.btree.trrbt import load_game
from tests.btree.trrbt_texts import TTT_JSON, TTT_YAML
from tests.conftest import fix_times
from studio.widgets.dialogs import ErrorDialog
from tests.ui_helpers import studio_app, wait_until

SIZE = (100, 30)


@pytest.fixture
def trrbt_folder(bt_folder: Path) -> Path:
    (bt_folder / "ttt.yaml").write_text(TTT_YAML)
    (bt_folder / "other.json").write_text(TTT_JSON)
    fix_times(bt_folder)
    return bt_folder


async def test_studio_game_yaml_imports_it_and_opens_the_project(trrbt_folder: Path) -> None:
    (trrbt_folder / "tiny-tic-tac-toe.toml").write_text("taken")  # never overwritten
    app = studio_app(trrbt_folder / "ttt.yaml")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TreeEditorScreen),
                         "the imported game did not open")
        path = app.screen.document.path
        assert path.name == "tiny-tic-tac-toe-ttt.toml"
        assert load_project(path).name == "tiny tic-tac-toe (ttt)"
        assert any("Imported ttt.yaml into a new project" in n.message and path.name in n.message
                   for n in app._notifications)
    assert (trrbt_folder / "tiny-tic-tac-toe.toml").read_text() == "taken"
    assert (trrbt_folder / "ttt.yaml").read_text() == TTT_YAML


async def test_home_lists_trrbt_files_and_enter_imports_one(trrbt_folder: Path) -> None:
    app = studio_app(trrbt_folder)
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        rows = {entry.name: entry for entry in home.entries}
        assert rows["tiny tic-tac-toe"].trrbt is not None
        assert rows["json game"].trrbt is not None
        row = [entry.name for entry in home.entries].index("tiny tic-tac-toe")
        table = home.query_one(DataTable)
        assert str(table.get_row_at(row)[1]) == "trrbt file"
        table.move_cursor(row=row)
        await pilot.pause()
        details = str(home.query_one("#details", Static).render())
        assert "enter imports it" in details and "“tiny tic-tac-toe”" in details
        assert str(table.get_row_at(row)[0]) == "ttt.yaml"  # the file: its game is named below
        await pilot.press("enter")
        assert isinstance(app.screen, ImportDialog)
        assert app.screen.query_one(Input).value == "tiny tic-tac-toe"
        await pilot.press("enter")  # the game's own name: the project's row is not the file's
        await wait_until(pilot, lambda: isinstance(app.screen, TreeEditorScreen),
                         "the imported game did not open")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and len(
            [e for e in app.screen.entries if e.name == "tiny tic-tac-toe"]) == 2,
            "the new project is not listed")
        shown = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert shown.count("tiny tic-tac-toe") == 1 and "ttt.yaml" in shown  # two rows, told apart
        table.move_cursor(row=shown.index("ttt.yaml"))
        await pilot.press("enter")
        assert isinstance(app.screen, ImportDialog)
        app.screen.query_one(Input).value = "Noughts"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TreeEditorScreen),
                         "the imported game did not open")
        assert app.screen.document.path == trrbt_folder / "noughts.toml"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and
                         "Noughts" in [e.name for e in app.screen.entries],
                         "the new project is not listed")


async def test_after_an_import_the_game_and_its_project_are_two_rows_that_read_apart(
        trrbt_folder: Path) -> None:
    # A game named as its file (dungeon.yaml, "dungeon"): its project is named the same, and
    # the two rows read "dungeon" twice, as if one project were listed twice.
    (trrbt_folder / "ttt.yaml").rename(trrbt_folder / "tiny tic-tac-toe.yaml")
    app = studio_app(trrbt_folder)
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        table = home.query_one(DataTable)
        table.move_cursor(row=[e.path.suffix for e in home.entries].index(".yaml"))
        await pilot.press("enter", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TreeEditorScreen),
                         "the imported game did not open")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and any(
            e.path.suffix == ".toml" and e.name == "tiny tic-tac-toe" for e in home.entries),
            "the new project is not listed")
        names = [str(table.get_row_at(row)[0]) for row in range(table.row_count)]
        assert len(set(names)) == len(names), names
        assert "tiny tic-tac-toe" in names and "tiny tic-tac-toe.yaml" in names, names
        # side by side, the source after what was made of it
        assert names.index("tiny tic-tac-toe.yaml") == names.index("tiny tic-tac-toe") + 1


LINKED = "name: linked\ntree:\n  type: order\n  children:\n  - {type: x-link, target: gone}\n"
"""A game whose only node links to a node it does not have."""


async def test_the_import_dialog_offers_what_missing_links_do(trrbt_folder: Path) -> None:
    # The CLI had --missing-links empty; the home screen imported with errors only, and said
    # nothing of it.
    (trrbt_folder / "linked.yaml").write_text(LINKED)
    app = studio_app(trrbt_folder)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        row = [entry.name for entry in home.entries].index("linked")
        home.query_one(DataTable).move_cursor(row=row)
        await pilot.press("enter")
        dialog = app.screen
        assert isinstance(dialog, ImportDialog) and dialog.missing_links == "error"
        meaning = dialog.query_one("#meaning", Static)
        assert "stops the import with an error" in str(meaning.render())
        await pilot.press("enter")  # as it is: the missing link is an error, and nothing is made
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorDialog), "no error shown")
        assert "gone" in str(app.screen.error)
        assert "import it again and choose Missing links: empty" in app.screen.error.hint
        assert not (trrbt_folder / "linked.toml").exists()
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is home, "not back home")
        await pilot.press("enter")
        dialog = app.screen
        await pilot.press("down")  # empty, from the name field
        assert dialog.missing_links == "empty"
        await pilot.press("tab", "up")  # from the next field too (tab once went into the set,
        assert dialog.missing_links == "error"  # where up/down only moved a highlight)
        assert isinstance(app.focused, Button)
        await pilot.press("down", "shift+tab")
        assert "expands to nothing" in str(dialog.query_one("#meaning", Static).render())
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TreeEditorScreen),
                         "the imported game did not open")
    project = load_project(trrbt_folder / "linked.toml")
    assert project.body["btree"]["missing_links"] == "empty"


async def test_the_import_runs_off_the_event_loop(trrbt_folder: Path, monkeypatch) -> None:
    import threading

    from studio.storage.btree import trrbt

    real = trrbt.import_into_folder
    threads: list[threading.Thread] = []
    go_on = threading.Event()

    def held(*args, **kwargs):  # the real import, held until the test has pressed a key
        threads.append(threading.current_thread())
        go_on.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(trrbt, "import_into_folder", held)
    app = studio_app(trrbt_folder)
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        table = home.query_one(DataTable)
        row = [entry.name for entry in home.entries].index("tiny tic-tac-toe")
        table.move_cursor(row=row)
        await pilot.press("enter", "enter")
        await wait_until(pilot, lambda: threads, "the import did not start")
        assert threads[0] is not threading.main_thread()
        await pilot.press("up")  # the home screen still answers while the import runs
        assert table.cursor_row == row - 1 and app.screen is home
        go_on.set()
        await wait_until(pilot, lambda: isinstance(app.screen, TreeEditorScreen),
                         "the imported game did not open")
        await pilot.pause(0.2)  # the editor's panes settle before the app closes


async def test_the_tree_editor_exports_yaml_and_json(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        assert isinstance(app.screen, NameDialog)
        assert app.screen.query_one(Input).value == "tic-tac-toe.yaml"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TreeEditorScreen), "no editor")
        await pilot.press("x")
        await pilot.press("enter")  # the same name again: refused in the dialog, which stays
        assert isinstance(app.screen, NameDialog)
        assert "exists" in str(app.screen.query_one("#problem", Static).render())
        app.screen.query_one(Input).value = "ttt.json"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TreeEditorScreen), "no editor")
    authored = load_game(bt_folder / "tic-tac-toe.toml").tree
    assert load_game(bt_folder / "tic-tac-toe.yaml").tree == authored
    assert load_game(bt_folder / "ttt.json").tree == authored
