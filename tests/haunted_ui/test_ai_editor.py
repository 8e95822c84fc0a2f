"""The AI editor: typing and saving a file, syntax checks, the test run, export and leaving."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.screen import Screen

from studio.engines.haunted.builtin_ais import NAMES
from studio.engines.haunted.match import MatchConfig
from studio.screens.haunted import ai_editor
from studio.screens.haunted.ai_editor import AIEditorScreen
from studio.screens.haunted.match_view import MatchViewScreen
from studio.screens.haunted.team_dialogs import FormDialog, PickDialog
from studio.screens.haunted.teams import TeamsScreen
from studio.widgets.save import ChoiceDialog
from tests.haunted.hostile import HAS_JS, NO_JS_REASON
from tests.haunted_ui.teams_helpers import (
    GOOD_AI, add_file_team, app_on, fill, finish, open_teams, write_ai,
)
from tests.haunted_ui.test_match_screens import read, until


@pytest.fixture
def good(ht_project: Path) -> Path:
    """A project with one Python AI file registered as "Good Bot" (the sixth team)."""
    path = write_ai(ht_project.parent, "good.py", GOOD_AI)
    add_file_team(ht_project, "Good Bot", "ais/good.py")
    return path


async def open_editor(pilot, team: str = "Good Bot") -> AIEditorScreen:
    await open_teams(pilot, select=team)
    await pilot.press("e")
    editor = pilot.app.screen
    assert isinstance(editor, AIEditorScreen)
    return editor


async def test_typed_code_is_saved_to_the_file_with_a_backup(ht_project: Path, good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        assert not editor.modified
        await pilot.press(*"# v2", "enter")
        assert editor.modified and "● modified" in editor.sub_title
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not editor.modified and "modified" not in editor.sub_title
    assert good.read_text() == "# v2\n" + GOOD_AI
    assert good.with_name("good.py.bak").read_text() == GOOD_AI


async def test_a_syntax_error_is_shown_with_its_place_and_the_cursor_goes_there(
        ht_project: Path, good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("down", "end", "backspace")  # "…'north']" loses its closing bracket
        await pilot.press("ctrl+home", "f6")
        await finish(pilot)
        problem = editor.problem
        assert problem is not None and problem.line == 2
        status = str(editor.query_one("#status").render())
        assert f"line 2, column {problem.column}" in status and "SyntaxError" in status
        assert editor.area.cursor_location == (1, problem.column - 1)
        await pilot.press("end", "]", "f6")
        await finish(pilot)
        assert editor.problem is None
        assert "No syntax errors" in str(editor.query_one("#status").render())
    assert good.read_text() == GOOD_AI  # checking never saves


@pytest.mark.skipif(not HAS_JS, reason=NO_JS_REASON)
async def test_javascript_is_checked_by_v8_in_a_worker(ht_project: Path) -> None:
    write_ai(ht_project.parent, "bot.js", "function main(s, side) {\n  return [1, 2;\n}\n")
    add_file_team(ht_project, "JS Bot", "ais/bot.js", runtime="js")
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "JS Bot")
        assert editor.js and editor.area.language == "javascript"
        await pilot.press("f6")
        await finish(pilot)
        assert (editor.problem.line, editor.problem.column) == (2, 15)
        assert editor.area.cursor_location == (1, 14)


class FakeMatch(Screen[None]):
    def __init__(self, document, plan) -> None:
        super().__init__()
        self.plan = plan


@pytest.fixture
def fake_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """The match view is the lead's; here ``make("match")`` gives a screen holding the plan."""
    real = ai_editor.make

    def make(what: str, document, **options):
        return FakeMatch(document, **options) if what == "match" else real(what, document, **options)

    monkeypatch.setattr(ai_editor, "make", make)


async def test_f5_saves_and_pushes_a_one_round_test_against_the_chosen_opponent(
        ht_project: Path, good: Path, fake_match) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("f4")
        assert isinstance(app.screen, PickDialog)
        await pilot.press("home")
        for _ in range(len(NAMES) + 1):  # past the built-ins to the registry's second team
            await pilot.press("down")
        await pilot.press("enter")
        assert editor.opponent == "Greedy Ghosts"
        assert "Test vs Greedy Ghosts" in str(editor.query_one("#info").render())
        await pilot.press("ctrl+end", *"#", "f5")  # a comment line added: still valid code
        await until(pilot, lambda: isinstance(app.screen, FakeMatch))  # after its syntax check
        match = app.screen
    assert good.read_text() == GOOD_AI + "#"  # the run plays the file: saved first
    plan = match.plan
    assert (plan.home, plan.away, plan.home_name) == (str(good.resolve()), "Greedy Ghosts", "Test")
    assert plan.config == MatchConfig(rounds=1, max_rounds=1, time_limit=2.0, load_limit=5.0,
                                      maps=("Default",))
    assert plan.folder == ht_project.parent.resolve() and "Default" in plan.maps
    assert isinstance(plan.seed, int) and [t.name for t in plan.teams][-1] == "Good Bot"


async def test_a_built_in_runs_as_itself_and_cannot_be_saved(ht_project: Path, fake_match) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "Greedy Ghosts")
        assert editor.check_action("save", ()) is False
        await pilot.press("f5")
        await pilot.pause()
        assert app.screen.plan.home == "builtin:greedy"


async def test_leaving_with_unsaved_text_asks(ht_project: Path, good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("x", "escape")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("c")
        assert app.screen is editor
        await pilot.press("escape", "d")
        await pilot.pause()
        assert isinstance(app.screen, TeamsScreen)
        assert good.read_text() == GOOD_AI
        await pilot.press("e", "y", "escape", "s")
        await pilot.pause()
        assert isinstance(app.screen, TeamsScreen)
    assert good.read_text() == "y" + GOOD_AI


async def test_quitting_the_studio_asks_about_unsaved_ai_text(ht_project: Path, good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("x", "ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("c")
        await pilot.pause()
        assert app.screen is editor and app.is_running


async def test_a_file_changed_on_disk_is_not_overwritten_silently(ht_project: Path,
                                                                  good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        good.write_text("# changed elsewhere\n")
        await pilot.press("x", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("r")  # reload: the typed version stays one undo away
        await pilot.pause()
        assert editor.area.text == "# changed elsewhere\n" and not editor.modified
        await pilot.press("ctrl+z")
        assert editor.area.text == "x" + GOOD_AI
        good.write_text("# changed again\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
    assert good.read_text() == "x" + GOOD_AI


async def test_export_writes_a_copy_and_never_over_a_file(ht_project: Path, good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("z", "ctrl+e")
        form = app.screen
        assert isinstance(form, FormDialog) and form.values() == {"file": "ais/good-copy.py"}
        await pilot.press("enter")
        assert app.screen is editor
        await pilot.press("ctrl+e")
        await fill(pilot, file="ais/good.py")
        await pilot.press("enter")
        assert "that file exists" in str(app.screen.query_one("#problem").render())
    assert good.with_name("good-copy.py").read_text() == "z" + GOOD_AI
    assert good.read_text() == GOOD_AI


async def test_f5_plays_the_code_in_the_real_match_view(ht_project: Path, good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_editor(pilot)
        await pilot.press("f5")
        await until(pilot, lambda: isinstance(app.screen, MatchViewScreen))
        view = app.screen
        assert view.plan.home == str(good.resolve()) and view.plan.home_name == "Test"
        await pilot.press("F")  # the whole match at full speed
        await until(pilot, lambda: view.replay_path is not None)
        replay = read(view.replay_path)
        assert replay["teams"]["A"]["name"] == "Test" and len(replay["rounds"]) == 1
        assert replay["rounds"][0]["map"] == "Default"


async def test_an_unexpected_error_keeps_unsaved_ai_code_beside_its_file(ht_project: Path,
                                                                         good: Path) -> None:
    app = app_on(ht_project)

    def boom() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        async with app.run_test(size=(100, 30)) as pilot:
            await open_editor(pilot)
            await pilot.press("x")
            app.call_later(boom)
            await pilot.pause()
    kept = good.with_name("good.recovered.py")
    assert [p.resolve() for p in app.recovered] == [kept.resolve()]
    assert kept.read_text() == "x" + GOOD_AI
    assert good.read_text() == GOOD_AI


async def test_f5_on_a_syntax_error_shows_it_instead_of_running(ht_project: Path, good: Path,
                                                               fake_match) -> None:
    # The run lost its round with the error's last line only; f6 shows it where it is.
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("down", "end", "backspace", "f5")
        await until(pilot, lambda: editor.problem is not None)
        assert app.screen is editor and editor.problem.line == 2
        assert "SyntaxError" in str(editor.query_one("#status").render())
    assert good.read_text() != GOOD_AI  # saved all the same: the file holds what was typed


async def test_the_info_line_is_cut_with_an_ellipsis_where_it_does_not_fit(
        ht_project: Path, good: Path) -> None:
    """Narrower than the line (at 80 columns with a longer file name) it stopped mid-word."""
    app = app_on(ht_project)
    async with app.run_test(size=(64, 24)) as pilot:
        editor = await open_editor(pilot)
        await pilot.pause()
        info = editor.query_one("#info")
        shown = "".join(segment.text for segment in info.render_line(0)).rstrip()
        assert shown.endswith("…"), shown
        assert "test: Test vs" in shown
