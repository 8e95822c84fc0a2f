"""The tournament screen in submissions mode and with a pace (issue 30): teams without a
submission are shown skipped with the reason, before and during the run; the pace is a setting
saved with the tournament and played by the run."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from pathlib import Path

import pytest

from studio.screens.haunted.tournament_dialogs import ValueDialog
from studio.storage import load_project
from studio.storage.haunted.submissions import store_submission
from tests.haunted_ui.teams_helpers import GOOD_AI, add_file_team, write_ai
from tests.haunted_ui.tournament_helpers import finish, open_screen, set_up
from tests.ui_helpers import studio_app

HANDED_IN = datetime(2026, 11, 13, 22, 59, 2, tzinfo=timezone.utc)
ENTRANTS = ["Greedy Ghosts", "Rival", "Late Larks", "Idle Imps"]


@pytest.fixture
def competition(ht_project: Path) -> Path:
    """The cup with two file teams: Rival has submitted, Late Larks has not."""
    folder = ht_project.parent
    for name, file in (("Rival", "rival.py"), ("Late Larks", "larks.py")):
        write_ai(folder, file, GOOD_AI)
        add_file_team(ht_project, name, f"ais/{file}")
    set_up(ht_project, rounds=1, entrants=ENTRANTS, pace=0.2)
    store_submission(folder, "Rival", GOOD_AI.encode(), ".py", HANDED_IN)
    return ht_project


def entrants_text(screen) -> str:
    pane = screen.query_one("#entrants")
    return f"{pane.border_title}\n{pane.text}"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_skipped_teams_and_the_pace_before_the_run(snap_compare, competition: Path,
                                                   size) -> None:
    async def before(pilot) -> None:
        await open_screen(pilot.app, pilot)
        await pilot.press("tab")  # the entrants pane, where the skipped team says why
        await pilot.pause(0.3)

    assert snap_compare(studio_app(competition), terminal_size=size, run_before=before)


async def test_the_skipped_team_shows_during_the_run_which_plays_at_the_pace(
        competition: Path) -> None:
    app = studio_app(competition)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_screen(app, pilot)
        assert screen.skipped == {"Late Larks": "no submission"}
        assert "Entrants · 1 skipped" in entrants_text(screen)
        assert " 3 Late Larks  skipped: no submission" in entrants_text(screen)
        handed = hashlib.sha256(GOOD_AI.encode()).hexdigest()[:8]
        assert f" 2 Rival  submission {handed}" in entrants_text(screen)  # not its file
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert screen.running and screen.active_run.plan.pace == 0.2
        assert "skipped: no submission" in entrants_text(screen)
        await pilot.press("escape")  # cancel: at 0.2 s a turn the cup takes minutes
        await finish(pilot, screen)


async def test_the_pace_is_changed_typed_checked_and_saved(competition: Path) -> None:
    app = studio_app(competition)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("tab", "tab", "down", "down", "down", "down")  # settings: pace
        assert "pace       0.2 s per turn" in screen.query_one("#settings").text
        await pilot.press("right")
        assert screen.model.tournament_tables[0]["pace"] == 0.5
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, ValueDialog)
        dialog.query_one("Input").value = "61"
        await pilot.press("enter")
        assert app.screen is dialog  # refused, with the range
        assert "from 0 (full speed) to 60" in str(dialog.query_one("#problem").render())
        dialog.query_one("Input").value = "0"
        await pilot.press("enter", "ctrl+s")
        await pilot.pause()
        assert "pace       full speed" in screen.query_one("#settings").text
    assert load_project(competition).body["tournament"][0]["pace"] == 0.0


def test_storage_refuses_a_pace_out_of_range(competition: Path) -> None:
    text = competition.read_text().replace("pace = 0.2", "pace = -1")
    competition.write_text(text)
    from studio.storage import ProjectError

    with pytest.raises(ProjectError, match=r"tournament\[0\]\.pace.*from 0 \(full speed\) to 60"):
        load_project(competition)
