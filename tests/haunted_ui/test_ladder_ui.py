"""The Ladder screen (issue 30): standings and matches, replays as each role may see them, and
the teacher's keys (catch up, on/off, reset)."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest
from textual.widgets import DataTable

from studio.screens.haunted.ladder import LadderScreen
from studio.screens.haunted.replay_viewer import ReplayViewerScreen
from studio.sessions import access
from studio.sessions.haunted import ladder as session
from studio.sessions.haunted.ladder import catch_up, load_ladder
from studio.storage import load_project
from studio.storage.haunted.project import project_model
from tests.haunted.ladder_helpers import ai_text, builtin_entrant, hand_in
from tests.haunted_ui.teams_helpers import add_file_team, write_ai
from tests.haunted_ui.test_submissions_ui import (  # noqa: F401  (good is a fixture)
    good, open_editor, submitted, toasts,
)
from tests.ui_helpers import studio_app

TEAMS = ("Ghosts", "Ghouls", "Wraiths")


def as_role(monkeypatch: pytest.MonkeyPatch, role: str, team: str = "") -> None:
    monkeypatch.setattr(access, "_granted", [access.Access(role, "Ann", team)])


def competition(project: Path, play: bool = True) -> Path:
    """Three teams with a submission each and the ladder on; its matches played unless not
    ``play`` (the last submission's then wait)."""
    text = project.read_text()
    at = text.index("[[map]]")
    project.write_text(text[:at] + "[ladder]\nenabled = true\nseed = 4\n\n" + text[at:])
    for name in TEAMS:
        write_ai(project.parent, f"{name}.py", ai_text("idle").decode())
        add_file_team(project, name, f"ais/{name}.py")
    model = project_model(load_project(project))
    for minutes, (name, ai) in enumerate(zip(TEAMS, ("greedy", "idle", "wander"))):
        hand_in(model, name, ai, minutes)
    if play:
        catch_up(model, make_entrant=builtin_entrant)
    return project


@pytest.fixture
def ladder_project(ht_project: Path) -> Path:
    return competition(ht_project)


async def open_ladder(pilot) -> LadderScreen:
    await pilot.pause()
    await pilot.press("l")
    screen = pilot.app.screen
    assert isinstance(screen, LadderScreen)
    await pilot.pause()
    return screen


def cells(table: DataTable, column: int) -> list[str]:
    return [str(table.get_row_at(i)[column]) for i in range(table.row_count)]


async def select_match(pilot, screen: LadderScreen, home: str, away: str) -> None:
    table = screen.query_one("#matches", DataTable)
    table.focus()
    rows = list(zip(cells(table, 1), cells(table, 2)))
    table.move_cursor(row=rows.index((home, away)))
    await pilot.pause()


async def test_the_teacher_sees_standings_and_matches_and_opens_a_replay(
        ladder_project: Path) -> None:
    app = studio_app(ladder_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_ladder(pilot)
        standings = screen.query_one("#standings", DataTable)
        ladder = load_ladder(screen.model)
        assert cells(standings, 1) == [row.team for row in ladder.rows]
        assert cells(standings, 3) == ["4", "4", "4"]
        assert screen.query_one("#matches", DataTable).row_count == 6
        await select_match(pilot, screen, "Ghosts", "Wraiths")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayViewerScreen)


async def test_a_student_opens_only_their_own_teams_replays(ladder_project: Path,
                                                            monkeypatch) -> None:
    as_role(monkeypatch, access.STUDENT, "Ghouls")
    app = studio_app(ladder_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_ladder(pilot)
        assert screen.query_one("#standings", DataTable).row_count == 3  # every rank
        await select_match(pilot, screen, "Ghosts", "Wraiths")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert any("Ghosts vs Wraiths is not your team's match (Ghouls)" in t
                   for t in toasts(app))
        for key in ("c", "o", "x"):
            assert screen.why_not({"c": "catch_up", "o": "toggle", "x": "reset"}[key], ()) == \
                "Students cannot change the ladder: the teacher runs it"
        await select_match(pilot, screen, "Ghosts", "Ghouls")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayViewerScreen)


async def test_a_spectator_sees_the_standings_only(ladder_project: Path, monkeypatch) -> None:
    as_role(monkeypatch, access.SPECTATOR)
    app = studio_app(ladder_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_ladder(pilot)
        assert screen.query_one("#standings", DataTable).row_count == 3
        assert not screen.query("#matches")
        assert "watch its matches live" in screen.why_not("open_replay", ())


async def test_the_teacher_catches_up_turns_it_off_and_resets(ht_project: Path,
                                                              monkeypatch) -> None:
    project = competition(ht_project, play=False)
    # The sandbox is not what this test is about: the built-ins stand in for the files.
    monkeypatch.setattr(session, "sandboxed", lambda model: builtin_entrant)
    app = studio_app(project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_ladder(pilot)
        assert cells(screen.query_one("#matches", DataTable), 4) == ["to play"] * 6
        await pilot.press("c")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "to play" not in cells(screen.query_one("#matches", DataTable), 4)
        assert "Ladder up to date: 6 match(es) played" in str(
            screen.query_one("#summary").render())
        await pilot.press("o", "ctrl+s")
        await pilot.pause()
        assert tomllib.loads(project.read_text())["ladder"]["enabled"] is False
        assert "The ladder is off" in screen.why_not("catch_up", ())
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await pilot.pause()
        assert cells(screen.query_one("#matches", DataTable), 4) == ["to play"] * 6
        assert not list((project.parent / "replays" / "ladder").glob("match-*"))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_ladder_screen(snap_compare, ladder_project: Path, size) -> None:
    async def run(pilot) -> None:
        await open_ladder(pilot)

    assert snap_compare(studio_app(ladder_project), terminal_size=size, run_before=run)


def test_ladder_screen_as_a_student(snap_compare, ladder_project: Path, monkeypatch) -> None:
    as_role(monkeypatch, access.STUDENT, "Ghouls")

    async def run(pilot) -> None:
        screen = await open_ladder(pilot)
        await select_match(pilot, screen, "Ghosts", "Wraiths")
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(studio_app(ladder_project), terminal_size=(80, 24), run_before=run)


async def test_every_key_of_the_ladder_is_in_its_help(ladder_project: Path) -> None:
    from studio.screens.help import binding_rows

    app = studio_app(ladder_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_ladder(pilot)
        said = [action.removesuffix(" (not now)") for _, action in binding_rows(screen)]
        for action in ("Replay", "Catch up", "On/off", "Reset", "Watch live", "Reload", "Back"):
            assert action in said, said


async def test_a_submit_in_the_ai_editor_starts_the_ladder(ht_project: Path, good: Path) -> None:
    text = ht_project.read_text()
    at = text.index("[[map]]")
    ht_project.write_text(text[:at] + "[ladder]\nenabled = true\n\n" + text[at:])
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_editor(pilot)
        await pilot.press("f8")
        await submitted(pilot)
        said = next(t for t in toasts(app) if t.startswith("Submitted for Good Bot"))
        found = re.search(r"the ladder plays its new matches in the background \(process (\d+)\)",
                          said)
        assert found, said
        assert os.waitpid(int(found.group(1)), 0)[1] == 0  # one team: nothing to play yet
    assert (ht_project.parent / "replays" / "ladder").is_dir()
