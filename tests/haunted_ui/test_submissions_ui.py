"""Submitting from the AI editor and the teacher's view of submissions in Teams & AIs (issue 30)."""

from __future__ import annotations

import hashlib
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from textual.widgets import Input

from studio.screens.haunted import team_submissions
from studio.screens.haunted.ai_editor import AIEditorScreen
from studio.screens.haunted.team_dialogs import FormDialog
from studio.screens.haunted.teams import TeamsScreen
from studio.storage.haunted.submissions import list_submissions, store_submission
from tests.haunted_ui.teams_helpers import GOOD_AI, add_file_team, app_on, open_teams, write_ai
from tests.ui_helpers import studio_app

SIZE = (100, 30)
SMALL = (80, 24)
DEADLINE = "2026-11-13T17:00:00-07:00"
BEFORE = datetime(2026, 11, 13, 22, 59, 2, tzinfo=timezone.utc)  # 3:59 pm MST
AFTER = datetime(2026, 11, 14, 0, 0, 1, tzinfo=timezone.utc)


def with_deadline(project: Path, deadline: str = DEADLINE) -> None:
    """Put ``[submissions] deadline`` in the project file, before the app opens it."""
    text = project.read_text()
    at = text.index("[[map]]")
    project.write_text(text[:at] + f'[submissions]\ndeadline = "{deadline}"\n\n' + text[at:])


@pytest.fixture
def good(ht_project: Path) -> Path:
    path = write_ai(ht_project.parent, "good.py", GOOD_AI)
    add_file_team(ht_project, "Good Bot", "ais/good.py")
    return path


async def open_editor(pilot, team: str = "Good Bot", now: datetime = BEFORE) -> AIEditorScreen:
    await open_teams(pilot, select=team)
    await pilot.press("e")
    editor = pilot.app.screen
    assert isinstance(editor, AIEditorScreen)
    editor.clock = lambda: now
    editor.refresh_bindings()
    await pilot.pause()
    return editor


async def submitted(pilot) -> None:
    busy = [worker for worker in pilot.app.workers if worker.group == "run"]
    if busy:
        await pilot.app.workers.wait_for_complete(busy)
    await pilot.pause()


def toasts(app) -> list[str]:
    return [str(note.message) for note in app._notifications]


async def test_submit_checks_then_stores_with_time_and_hash(ht_project: Path, good: Path) -> None:
    with_deadline(ht_project)
    app = app_on(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        assert editor.check_action("submit", ()) is True
        await pilot.press("f8")
        await submitted(pilot)
        digest = hashlib.sha256(GOOD_AI.encode()).hexdigest()
        stored = list_submissions(ht_project.parent, "Good Bot")
        assert [s.sha256 for s in stored] == [digest]
        assert stored[0].path.name == "2026-11-13T22-59-02Z.py"
        said = f"Submitted for Good Bot at 2026-11-13 22:59:02 UTC · {digest[:8]}"
        assert said in toasts(app)
        assert str(editor.query_one("#status").render()) == "✓ " + said


async def test_typed_code_is_saved_before_it_is_submitted(ht_project: Path, good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await pilot.press(*"# v2", "enter", "ctrl+t")
        await submitted(pilot)
    stored = list_submissions(ht_project.parent, "Good Bot")
    assert good.read_text() == "# v2\n" + GOOD_AI
    assert [s.path.read_text() for s in stored] == ["# v2\n" + GOOD_AI]


async def test_after_the_deadline_the_key_is_dimmed_and_says_why(ht_project: Path,
                                                                 good: Path) -> None:
    with_deadline(ht_project)
    app = app_on(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, now=AFTER)
        assert editor.check_action("submit", ()) is None  # dimmed
        await pilot.press("ctrl+t")
        await submitted(pilot)
        await pilot.press("f8")
        await submitted(pilot)
        reason = ("Submissions closed at 2026-11-13 17:00 -0700 (2026-11-14 00:00 UTC); "
                  "nothing can be submitted")
        assert toasts(app) == [reason, reason]
    assert list_submissions(ht_project.parent, "Good Bot") == []


async def test_a_syntax_error_is_not_submitted_and_the_cursor_goes_there(ht_project: Path,
                                                                        good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("down", "end", "backspace", "ctrl+home", "f8")
        await submitted(pilot)
        assert editor.problem is not None and editor.area.cursor_location[0] == 1
        status = str(editor.query_one("#status").render())
        assert "SyntaxError" in status and status.endswith("nothing was stored")
    assert list_submissions(ht_project.parent, "Good Bot") == []


async def test_a_built_in_is_not_submitted(ht_project: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, team="Greedy Ghosts")
        assert editor.check_action("submit", ()) is None
        await pilot.press("f8")
        await pilot.pause()
        assert toasts(app) == ["A built-in AI is not submitted: it plays as it is"]


async def test_the_teacher_sets_and_removes_the_deadline(ht_project: Path, good: Path) -> None:
    app = app_on(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_teams(pilot)
        assert screen.submitted is None  # no deadline, no submission: no column
        await pilot.press("D")
        form = pilot.app.screen
        assert isinstance(form, FormDialog)
        form.query_one(Input).value = "2026-11-13 17:00"
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen is form  # refused, the form stays with the reason
        assert "no time zone" in str(form.query_one("#problem").render())
        form.query_one(Input).value = DEADLINE
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, TeamsScreen)
        assert set(screen.submitted) == {"Good Bot"}
        assert "deadline 2026-11-13 17:00 -0700" in screen.submissions_note
        assert "none yet: Good Bot" in screen.submissions_note
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert tomllib.loads(ht_project.read_text())["submissions"] == {"deadline": DEADLINE}
        await pilot.press("ctrl+z")  # undoable, like every registry edit
        await pilot.pause()
        assert screen.submitted is None


async def test_the_list_follows_a_submission_made_in_the_editor(ht_project: Path,
                                                                good: Path) -> None:
    with_deadline(ht_project)
    app = app_on(ht_project)
    async with app.run_test(size=SIZE) as pilot:
        await open_editor(pilot)
        await pilot.press("f8")
        await submitted(pilot)
        await pilot.press("escape")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, TeamsScreen)
        assert screen.submitted["Good Bot"].playing is not None
        assert "1 of 1 teams in" in screen.submissions_note


# ------------------------------------------------------------------------------- snapshots


def keys(*pressed: str):
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.press(*pressed)
        await pilot.pause(0.3)

    return run


@pytest.fixture
def handed_in(ht_project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two teams of their own: Good Bot submitted twice (once late), Night Owls never."""
    monkeypatch.setattr(team_submissions, "utc_now", lambda: BEFORE)
    with_deadline(ht_project)
    write_ai(ht_project.parent, "good.py", GOOD_AI)
    add_file_team(ht_project, "Good Bot", "ais/good.py")
    write_ai(ht_project.parent, "owls.py", GOOD_AI)
    add_file_team(ht_project, "Night Owls", "ais/owls.py")
    store_submission(ht_project.parent, "Good Bot", GOOD_AI.encode(), ".py",
                     BEFORE - timedelta(hours=1))
    store_submission(ht_project.parent, "Good Bot", b"# late\n" + GOOD_AI.encode(), ".py", AFTER)
    return ht_project


@pytest.mark.parametrize("size", [SIZE, SMALL])
def test_teams_list_with_submissions(snap_compare, handed_in: Path, size) -> None:
    assert snap_compare(studio_app(handed_in), terminal_size=size,
                        run_before=keys("a", *(["down"] * 5)))


def test_ai_editor_after_a_submit(snap_compare, ht_project: Path, good: Path) -> None:
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.press("a", *(["down"] * 5), "e")
        pilot.app.screen.clock = lambda: BEFORE
        await pilot.press("f8")
        await submitted(pilot)
        await pilot.pause(0.3)

    assert snap_compare(studio_app(ht_project), terminal_size=SIZE, run_before=run)


def test_ai_editor_after_the_deadline(snap_compare, ht_project: Path, good: Path) -> None:
    with_deadline(ht_project)

    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.press("a", *(["down"] * 5), "e")
        pilot.app.screen.clock = lambda: AFTER
        pilot.app.screen.refresh_bindings()
        await pilot.press("f8")
        await pilot.pause(0.3)

    assert snap_compare(studio_app(ht_project), terminal_size=SIZE, run_before=run)
