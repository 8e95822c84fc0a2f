"""Snapshots of Teams & AIs and the AI editor (fixed sizes; load-test times fixed for the SVG)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from studio.screens.haunted import teams
from studio.sessions.haunted.ai_files import write_starter
from tests.haunted_ui.teams_helpers import BROKEN_AI, add_file_team, finish, write_ai
from tests.ui_helpers import studio_app

SIZE = (100, 30)
SMALL = (80, 24)


def keys(*pressed: str, wait: bool = False):
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.press(*pressed)
        if wait:
            await finish(pilot)
        await pilot.pause(0.3)

    return run


@pytest.fixture
def fixed_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real load tests, shown with fixed times (a snapshot cannot hold a measured one)."""
    real = teams.run_load_test

    def run(*args, **kwargs):
        return dataclasses.replace(real(*args, **kwargs), load_ms=41.0, move_ms=3.2)

    monkeypatch.setattr(teams, "run_load_test", run)


@pytest.mark.parametrize(("size", "theme"), [(SIZE, None), (SMALL, None), (SMALL, "ansi")])
def test_teams_list(snap_compare, ht_project: Path, size, theme) -> None:
    write_ai(ht_project.parent, "night_owls.py", "def main(s, side):\n    return []\n")
    add_file_team(ht_project, "Night Owls", "ais/night_owls.py")
    assert snap_compare(studio_app(ht_project, theme), terminal_size=size,
                        run_before=keys("a", "down"))


def test_teams_load_test_results(snap_compare, ht_project: Path, fixed_times) -> None:
    write_ai(ht_project.parent, "broken.py", BROKEN_AI)
    add_file_team(ht_project, "Broken Bot", "ais/broken.py")
    assert snap_compare(studio_app(ht_project), terminal_size=SIZE,
                        run_before=keys("a", "t", *(["down"] * 5), "t", wait=True))


def test_teams_load_test_results_at_60x20(snap_compare, ht_project: Path, fixed_times) -> None:
    # Built-ins only: no Team or School column; "Last test" whole, the results cut with "…".
    write_ai(ht_project.parent, "broken.py", BROKEN_AI)
    add_file_team(ht_project, "Broken Bot", "ais/broken.py")
    assert snap_compare(studio_app(ht_project), terminal_size=(60, 20),
                        run_before=keys("a", "t", *(["down"] * 5), "t", wait=True))


def test_team_fields_form(snap_compare, ht_project: Path) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=SMALL,
                        run_before=keys("a", "down", "enter", "tab", "tab", "tab", *"many",
                                        "enter"))


def test_add_team_choices(snap_compare, ht_project: Path) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=SMALL, run_before=keys("a", "a"))


def _starter_team(project: Path) -> None:
    source = write_starter(project.parent, "Night Owls")
    add_file_team(project, "Night Owls", source.as_posix())


@pytest.mark.parametrize(("size", "theme"), [(SIZE, None), (SMALL, None), (SMALL, "ansi")])
def test_ai_editor_with_python(snap_compare, ht_project: Path, size, theme) -> None:
    _starter_team(ht_project)
    assert snap_compare(studio_app(ht_project, theme), terminal_size=size,
                        run_before=keys("a", *(["down"] * 5), "e", *(["down"] * 36), "end"))


def test_ai_editor_with_a_syntax_error(snap_compare, ht_project: Path) -> None:
    _starter_team(ht_project)
    assert snap_compare(studio_app(ht_project), terminal_size=SIZE,
                        run_before=keys("a", *(["down"] * 5), "e", *(["down"] * 38), "end", "colon",
                                        "ctrl+home", "f6", wait=True))
