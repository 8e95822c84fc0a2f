"""Pilot tests of every home-screen interaction."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette
from textual.widgets import DataTable, Input

from studio.screens.dialogs import ConfirmDialog, ErrorDialog, NameDialog, NewProjectDialog
from studio.screens.help import HelpScreen
from studio.screens.home import HomeScreen
from studio.screens.haunted.hub import HubScreen
from studio.storage import load_project
from tests.ui_helpers import SIZE, palette_ready, studio_app, wait_until


def _names(app) -> list[str]:
    return [entry.name for entry in app.screen.entries]


async def _select(pilot, name: str) -> None:
    screen = pilot.app.screen
    assert isinstance(screen, HomeScreen)
    row = _names(pilot.app).index(name)
    screen.query_one(DataTable).move_cursor(row=row)
    await pilot.pause()


async def test_lists_projects_with_kinds(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        assert isinstance(pilot.app.screen, HomeScreen)
        assert _names(pilot.app) == ["Boulder Sketch", "Maze Runner", "Spooky Cup"]
        assert [e.kind for e in pilot.app.screen.entries] == ["tilecode", "btree", "haunted"]


async def test_home_and_end_go_to_the_first_and_last_project(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        table = pilot.app.screen.query_one(DataTable)
        await pilot.press("down")
        await pilot.press("end")
        assert table.cursor_row == 2
        await pilot.press("home")  # DataTable's own home scrolled sideways and stayed put
        assert table.cursor_row == 0
        await pilot.press("enter")
        assert pilot.app.screen.document.name == "Boulder Sketch"


async def test_open_shows_the_kind_s_screen_and_escape_returns(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await _select(pilot, "Spooky Cup")
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, HubScreen)
        assert pilot.app.screen.document.name == "Spooky Cup"
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, HomeScreen)


async def test_open_broken_shows_error_and_leaves_file_alone(games_with_broken: Path) -> None:
    broken = games_with_broken / "broken.toml"
    before = broken.read_bytes()
    async with studio_app().run_test(size=SIZE) as pilot:
        await _select(pilot, "broken")
        await pilot.press("enter")
        dialog = pilot.app.screen
        assert isinstance(dialog, ErrorDialog)
        assert dialog.error.file == broken and dialog.error.line == 6
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, HomeScreen)
        assert pilot.app.is_running
    assert broken.read_bytes() == before
    assert sorted(p.name for p in games_with_broken.iterdir())[0] == "boulder-sketch.toml"
    assert not list(games_with_broken.glob("broken.toml.*"))


async def test_starting_on_a_broken_file_shows_the_error(games_with_broken: Path) -> None:
    async with studio_app(games_with_broken / "broken.toml").run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, ErrorDialog)
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, HomeScreen)


async def test_starting_on_a_file_opens_it(games: Path) -> None:
    async with studio_app(games / "spooky-cup.toml").run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, HubScreen)


async def test_new_project_of_a_chosen_kind(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await pilot.press("n")
        assert isinstance(pilot.app.screen, NewProjectDialog)
        await pilot.press("shift+tab", "down", "enter")  # kinds: TileCode, Behaviour tree, ...
        await pilot.press("tab", *"Cave Quest", "enter")
        await pilot.pause()
        # Made to be worked on: it opens at once in its kind's screen (enter again was needed).
        editor = pilot.app.screen
        assert not isinstance(editor, HomeScreen) and editor.document.name == "Cave Quest"
        assert editor.document.project.kind == "btree"
        await pilot.press("escape")
        home = pilot.app.screen
        assert isinstance(home, HomeScreen)
        await wait_until(pilot, lambda: not home.scanning, "the list was not read")
        assert "Cave Quest" in _names(pilot.app)
        assert home.selected.name == "Cave Quest"
    project = load_project(games / "cave-quest.toml")
    assert (project.kind, project.name) == ("btree", "Cave Quest")


async def test_new_project_kind_by_arrows_from_the_name_field(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await pilot.press("n", *"Moat", "down", "down", "down", "up", "up")  # wraps both ways
        dialog = pilot.app.screen
        assert isinstance(dialog, NewProjectDialog) and dialog.focused.id == "name"
        assert [b.value for b in dialog.query("#kind RadioButton")] == [False, True, False]
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen.document.name == "Moat"  # opened
    assert load_project(games / "moat.toml").kind == "btree"


async def test_new_project_needs_a_name_and_can_be_cancelled(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await pilot.press("n", "enter")
        assert isinstance(pilot.app.screen, NewProjectDialog)
        assert "empty" in str(pilot.app.screen.query_one("#problem").render())
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, HomeScreen)
    assert len(list(games.glob("*.toml"))) == 3


async def test_a_name_another_project_has_is_refused_saying_why(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await pilot.press("n", *"maze runner", "enter")  # "Maze Runner" exists (any case)
        dialog = pilot.app.screen
        assert isinstance(dialog, NewProjectDialog)
        assert "already a project called" in str(dialog.query_one("#problem").render())
        await pilot.press("escape")
        await _select(pilot, "Spooky Cup")
        await pilot.press("r")
        pilot.app.screen.query_one(Input).value = ""
        await pilot.press(*"Boulder Sketch", "enter")
        assert isinstance(pilot.app.screen, NameDialog)  # rename onto another's name: refused
        await pilot.press("escape")
        await pilot.press("r", "enter")  # keeping its own name is no clash
        await pilot.pause()
        assert isinstance(pilot.app.screen, HomeScreen)
    assert len(list(games.glob("*.toml"))) == 3


async def test_rename(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await _select(pilot, "Spooky Cup")
        await pilot.press("r")
        dialog = pilot.app.screen
        assert isinstance(dialog, NameDialog)
        dialog.query_one(Input).value = ""
        await pilot.press(*"Haunted Cup", "enter")
        await pilot.pause()
        assert "Haunted Cup" in _names(pilot.app)
    assert not (games / "spooky-cup.toml").exists()
    assert load_project(games / "haunted-cup.toml").name == "Haunted Cup"


async def test_duplicate(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await _select(pilot, "Maze Runner")
        await pilot.press("d")
        assert isinstance(pilot.app.screen, NameDialog)
        assert pilot.app.screen.query_one(Input).value == "Maze Runner copy"
        await pilot.press("enter")
        await pilot.pause()
        assert _names(pilot.app).count("Maze Runner copy") == 1
    copy = load_project(games / "maze-runner-copy.toml")
    assert copy.body == load_project(games / "maze-runner.toml").body


async def test_delete_asks_then_moves_to_trash(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await _select(pilot, "Boulder Sketch")
        await pilot.press("delete")
        assert isinstance(pilot.app.screen, ConfirmDialog)
        await pilot.press("escape")
        assert (games / "boulder-sketch.toml").exists()
        await pilot.press("x", "y")
        await pilot.pause()
        assert "Boulder Sketch" not in _names(pilot.app)
    assert not (games / "boulder-sketch.toml").exists()
    assert (games / ".trash" / "boulder-sketch.toml").exists()


async def test_broken_projects_can_be_deleted_but_not_renamed(games_with_broken: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await _select(pilot, "broken")
        await pilot.press("r", "d")
        assert isinstance(pilot.app.screen, HomeScreen)
        await pilot.press("delete", "y")
        await pilot.pause()
        assert "broken" not in _names(pilot.app)
    assert (games_with_broken / ".trash" / "broken.toml").exists()


async def test_coming_back_from_a_project_shows_what_changed_meanwhile(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        home = pilot.app.screen
        table = home.query_one("DataTable")
        await _select(pilot, "Spooky Cup")
        await pilot.press("enter")
        (games / "maze-runner.toml").unlink()  # as a save or a new replay would, meanwhile
        await pilot.press("escape")
        assert pilot.app.screen is home and _names(pilot.app) == ["Boulder Sketch", "Spooky Cup"]
        rows = table.row_count
        cleared = []
        table.clear = lambda *a, **k: cleared.append(1)  # nothing changed: no redraw
        await pilot.press("enter", "escape")
        assert table.row_count == rows and not cleared


async def test_refresh_picks_up_changes(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        (games / "maze-runner.toml").unlink()
        await pilot.press("f5")
        assert _names(pilot.app) == ["Boulder Sketch", "Spooky Cup"]


async def test_empty_folder_offers_only_what_applies(empty_games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await pilot.press("enter", "d", "r", "delete")
        assert isinstance(pilot.app.screen, HomeScreen)
        titles = [title for title, _, _ in pilot.app.screen.palette_commands()]
        assert titles == ["New project", "Refresh"]


async def test_palette_offers_actions_that_apply(games_with_broken: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await _select(pilot, "broken")
        titles = [title for title, _, _ in pilot.app.screen.palette_commands()]
        assert "Rename project" not in titles and "Delete project" in titles
        await _select(pilot, "Maze Runner")
        await pilot.press("ctrl+p")
        assert isinstance(pilot.app.screen, CommandPalette)
        await pilot.press(*"Duplicate proj")
        await palette_ready(pilot, "Duplicate proj")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, NameDialog)


async def test_help_lists_the_screen_keys(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        descriptions = [description for _, description in help_screen._rows]
        for word in ("Open", "New", "Duplicate", "Rename", "Delete", "Refresh", "Help", "Quit"):
            assert word in descriptions
        await pilot.press("escape")
        await pilot.press("f1")
        assert isinstance(pilot.app.screen, HelpScreen)


async def test_theme_cycles_through_dark_light_ansi(games: Path) -> None:
    async with studio_app().run_test(size=SIZE) as pilot:
        assert pilot.app.theme == "textual-dark"
        await pilot.press("t")
        assert pilot.app.theme == "textual-light"
        await pilot.press("t")
        assert pilot.app.theme == "ansi-dark" and pilot.app.ansi_color
        await pilot.press("t")
        assert pilot.app.theme == "textual-dark" and not pilot.app.ansi_color


async def test_usable_at_80x24(games: Path) -> None:
    async with studio_app().run_test(size=(80, 24)) as pilot:
        table = pilot.app.screen.query_one(DataTable)
        assert table.region.height >= 5 and table.row_count == 3
        await pilot.press("down", "down", "enter")
        assert isinstance(pilot.app.screen, HubScreen)


def test_every_kind_opens_in_its_own_screens() -> None:
    import studio.app  # noqa: F401  (registers the screens)
    from studio.screens.registry import SCREENS
    from studio.storage import KINDS

    assert set(SCREENS) == set(KINDS)


def test_each_kind_opens_through_the_package_the_registry_names() -> None:
    # Named, not imported: a kind's screens load when its first project opens (issue 27).
    import importlib

    from studio.screens.registry import SCREENS

    for kind, package in SCREENS.items():
        assert package == f"studio.screens.{kind}"
        assert callable(importlib.import_module(package).open_project), kind



async def test_studio_freezes_its_start_up_objects_once_tests_never(games: Path,
                                                                   monkeypatch) -> None:
    import studio.app as app_module

    calls: list[str] = []
    monkeypatch.setattr(app_module.gc, "collect", lambda: calls.append("collect"))
    monkeypatch.setattr(app_module.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(app_module.gc, "enable", lambda: calls.append("enable"))
    for freeze in (False, True):
        app = app_module.StudioApp(games, freeze_startup=freeze)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
    # Collected first, so no garbage is kept for good; then the collector, off while the
    # studio started (studio.cli), is on again.
    assert calls == ["collect", "freeze", "enable"]


async def test_a_question_about_work_under_way_closes_when_the_work_ends(
        tmp_path: Path, monkeypatch) -> None:
    # "Stop the tournament?" stayed up after the tournament finished, and "Abort the match"
    # after the match was over.
    import studio.widgets.typeahead as typeahead

    # The window in which keys count as answers, widened: on a loaded machine the test's own
    # key came after the real 0.7 s and acted (CI, 2026-11-28).
    monkeypatch.setattr(typeahead, "DROP_AFTER_CLOSE", 2.0)
    running = [True]
    answers: list[bool | None] = []
    app = studio_app(tmp_path)
    said: list[str] = []
    notify = app.notify
    # Recorded as said: the toast's 3 s may be over before a loaded machine gets to look.
    app.notify = lambda message, *args, **kwargs: (said.append(str(message)),
                                                   notify(message, *args, **kwargs))[1]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(ConfirmDialog("Stop it?", "It is running.", "Stop",
                                      still=lambda: running[0], ended="It has finished"),
                        answers.append)
        await pilot.pause(0.4)
        assert isinstance(app.screen, ConfirmDialog) and answers == []
        running[0] = False
        await wait_until(pilot, lambda: answers == [False], "the question stayed")
        assert isinstance(app.screen, HomeScreen)
        assert any("It has finished" in message for message in said)
        # Keys typed as it closed were answers to it: they do not reach the screen below
        # (tab and enter after "Stop the tournament?" closed opened a replay).
        await pilot.press("n")
        assert isinstance(app.screen, HomeScreen)
        await pilot.pause(2.1)
        await pilot.press("n")  # later keys act as ever
        assert not isinstance(app.screen, HomeScreen)


async def test_help_starts_with_what_the_screen_is_for(games: Path) -> None:
    # "? lists keys, not ideas": each main screen's help opens with its concepts.
    from studio.screens.btree.editor import TreeEditorScreen
    from studio.screens.btree.play import BtreePlayScreen
    from studio.screens.haunted.match_view import MatchViewScreen
    from studio.screens.haunted.tournament import TournamentScreen
    from studio.screens.tilecode.home import GameHomeScreen
    from studio.screens.tilecode.rule_editor import RuleEditorScreen

    for screen in (HomeScreen, GameHomeScreen, RuleEditorScreen, TreeEditorScreen,
                   BtreePlayScreen, HubScreen, MatchViewScreen, TournamentScreen):
        assert len(screen.HELP_ABOUT) > 100, screen
    assert "include′ ●" in RuleEditorScreen.HELP_ABOUT and "smash" in RuleEditorScreen.HELP_ABOUT
    about = HubScreen.HELP_ABOUT
    assert '"hits" counts every hit' in about and "Home moves first" in about
    async with studio_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        shown = str(help_screen.query_one(".about").render())
        assert shown.startswith("The projects of this folder")


async def test_new_tilecode_project_from_the_movement_template(games: Path) -> None:
    async with studio_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("n", *"Walker", "down")  # behaviour tree: no templates
        dialog = pilot.app.screen
        await pilot.press("ctrl+t")  # only empty is offered: it stays
        assert dialog.template == "empty" and "move" not in text_of(dialog, "#template")
        await pilot.press("up", "ctrl+t")  # TileCode: move
        assert dialog.template == "move"
        assert "● move: the player moves with the arrows and stops at walls" in text_of(
            dialog, "#template")
        assert dialog.query_one("#create").region.bottom <= 24  # the buttons are on screen
        await pilot.press("down")  # a kind without it falls back to empty
        assert dialog.template == "empty"
        await pilot.press("up", "ctrl+t", "enter")
        await pilot.pause()
        assert pilot.app.screen.document.name == "Walker"  # opened
    project = load_project(games / "walker.toml")
    assert project.kind == "tilecode" and len(project.body["rules"]) == 2


def text_of(dialog, selector: str) -> str:
    return str(dialog.query_one(selector).render())
