"""The match setup says where AIs would run unconfined and refuses a project that requires
confinement (issue 28). Landlock's absence is simulated (``STUDIO_SIMULATE_MISSING``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.engines.haunted.ai import landlock
from studio.screens.haunted.setup import MatchSetupScreen
from studio.storage import load_project, save_project
from tests.ui_helpers import studio_app


def _require(project_path: Path) -> None:
    project = load_project(project_path)
    project.body.setdefault("match", {})["require_confinement"] = True
    save_project(project)


@pytest.mark.parametrize("required", [False, True])
async def test_setup_warns_without_landlock_and_refuses_when_required(
        ht_project: Path, monkeypatch, required: bool) -> None:
    monkeypatch.setenv(landlock.SIMULATE_MISSING, "landlock")
    if required:
        _require(ht_project)
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        setup = app.screen
        assert isinstance(setup, MatchSetupScreen)
        note = setup.query_one("#confinement")
        assert note.display and "no Landlock" in str(note.render())
        if required:
            await pilot.press("f5")
            assert app.screen is setup
            problem = str(setup.query_one("#problem").render())
            assert "requires confinement" in problem and "no Landlock" in problem


async def test_setup_says_nothing_where_ais_are_confined(ht_project: Path) -> None:
    if landlock.abi_version() < 1:
        pytest.skip("the kernel has no Landlock")
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        assert not app.screen.query_one("#confinement").display


async def test_a_tournament_that_requires_confinement_is_refused_without_landlock(
        ht_project: Path, monkeypatch) -> None:
    from studio.screens.dialogs import ErrorDialog
    from tests.haunted_ui.tournament_helpers import open_screen, set_up

    monkeypatch.setenv(landlock.SIMULATE_MISSING, "landlock")
    set_up(ht_project, rounds=1, require_confinement=True)
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        for _ in range(200):
            await pilot.pause(0.05)
            if isinstance(app.screen, ErrorDialog):
                break
        assert isinstance(app.screen, ErrorDialog)
        message = app.screen.error.message
        assert "requires confinement" in message and "no Landlock" in message
        assert not screen.running and screen.active_run is None
