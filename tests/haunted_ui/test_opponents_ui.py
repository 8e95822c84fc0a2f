"""A student's test opponent in the AI editor (issue 30): other teams as submitted, with the time
and hash; a team without a submission listed and not pickable; the run plays it veiled."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from studio.screens.haunted.team_dialogs import PickDialog
from studio.sessions import access
from studio.storage.haunted.submissions import store_submission
from tests.haunted_ui.teams_helpers import GOOD_AI, add_file_team, app_on, write_ai
from tests.haunted_ui.test_ai_editor import FakeMatch, fake_match  # noqa: F401 - a fixture
from tests.haunted_ui.test_match_screens import until
from tests.haunted_ui.test_submissions_ui import BEFORE, good, open_editor  # noqa: F401


@pytest.fixture
def student(monkeypatch: pytest.MonkeyPatch) -> access.Access:
    """This studio's person is Ann, of team Good Bot (as a served session's would be)."""
    ann = access.Access(access.STUDENT, "Ann", "Good Bot")
    monkeypatch.setattr(access, "_granted", [ann])
    return ann


async def test_a_student_picks_another_team_as_submitted_and_plays_it_veiled(
        ht_project: Path, good: Path, student, fake_match) -> None:  # noqa: F811
    folder = ht_project.parent
    write_ai(folder, "rival.py", GOOD_AI + "# rival's current draft\n")
    write_ai(folder, "idle.py", GOOD_AI)
    add_file_team(ht_project, "Rival", "ais/rival.py")
    add_file_team(ht_project, "Idle", "ais/idle.py")
    handed = store_submission(folder, "Rival", GOOD_AI.encode(), ".py", BEFORE)
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("ctrl+o")
        dialog = app.screen
        assert isinstance(dialog, PickDialog)
        options = dialog.query_one(OptionList)
        listed = {str(options.get_option_at_index(i).prompt): options.get_option_at_index(i)
                  for i in range(options.option_count)}
        assert "team Rival" not in listed and "team Rival (current file)" not in listed
        submitted = f"team Rival — submitted 2026-11-13 22:59:02 UTC · {handed.sha256[:8]}"
        assert submitted in listed and not listed[submitted].disabled
        idle = "team Idle — not available: no submission yet"
        assert idle in listed and listed[idle].disabled
        options.highlighted = list(listed).index(submitted)
        await pilot.press("enter")
        assert editor.opponent == "submitted:Rival"
        info = str(editor.query_one("#info").render())
        assert f"Test vs Rival — submitted 2026-11-13 22:59:02 UTC · {handed.sha256[:8]}" in info
        await pilot.press("f5")
        await until(pilot, lambda: isinstance(app.screen, FakeMatch))
        plan = app.screen.plan
    assert plan.away == "submitted:Rival" and plan.veiled == {"submitted:Rival"}
    rival = next(t for t in plan.teams if t.name == "submitted:Rival")
    assert (folder / rival.source).resolve() == handed.path
    assert plan.digests == {"submitted:Rival": handed.sha256}


async def test_a_students_match_setup_offers_other_teams_only_as_submitted(
        ht_project: Path, good: Path, student) -> None:  # noqa: F811
    from textual.widgets import Select

    from studio.screens.haunted.setup import MatchSetupScreen

    folder = ht_project.parent
    write_ai(folder, "rival.py", GOOD_AI)
    write_ai(folder, "idle.py", GOOD_AI)
    add_file_team(ht_project, "Rival", "ais/rival.py")
    add_file_team(ht_project, "Idle", "ais/idle.py")
    store_submission(folder, "Rival", GOOD_AI.encode(), ".py", BEFORE)
    app = app_on(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        setup = app.screen
        assert isinstance(setup, MatchSetupScreen)
        away = setup.query_one("#away", Select)
        values = [value for _, value in away._options]
        assert "Good Bot" in values and "submitted:Rival" in values
        assert "Rival" not in values and "unavailable:Idle" in values
        setup.query_one("#home", Select).value = "Good Bot"
        away.value = "unavailable:Idle"
        await pilot.press("f5")
        await pilot.pause()
        assert app.screen is setup
        assert "Idle cannot be played: no submission yet" in str(
            setup.query_one("#problem").render())
        away.value = "submitted:Rival"
        plan = setup.plan()
    assert plan.veiled == {"submitted:Rival"} and plan.names()[1] == "Rival (submitted)"
