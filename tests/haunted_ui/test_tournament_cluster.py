"""The tournament screen's "where to run" (issue 31): c sets it, enter runs on a real local
Dask cluster, and the results are those of the run here."""

from __future__ import annotations

import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from textual.widgets import Input

from studio.screens.dialogs import NameDialog
from studio.sessions.haunted.cluster import INSTALL
from tests.haunted_ui.tournament_helpers import (THREE, comparable, finish, headless, open_screen,
                                                 set_up)
from tests.ui_helpers import studio_app


async def answer(pilot, app, text: str) -> None:
    await pilot.press("c")
    await pilot.pause()
    assert isinstance(app.screen, NameDialog)
    app.screen.query_one("#name", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.skipif(find_spec("distributed") is None,
                    reason="Dask distributed is not installed (the cluster extra)")
async def test_a_run_on_local_2_gives_the_results_of_a_run_here(ht_project: Path) -> None:
    set_up(ht_project, rounds=3, entrants=THREE, mode="round-robin", seed=9)
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_screen(app, pilot)
        await answer(pilot, app, "local:2")
        assert screen.where == "local:2"
        assert "runs on local:2" in str(screen.query_one("#status").render())
        await pilot.press("enter")
        await finish(pilot, screen, seconds=90)
        assert screen.results is not None and screen.results.complete
        assert comparable(screen.results.document) == headless(ht_project)


async def test_where_to_run_refuses_what_cannot_be_used(ht_project: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_screen(app, pilot)
        await answer(pilot, app, "nowhere")
        problem = str(app.screen.query_one("#problem").render())
        assert "give local, local:N or a scheduler address" in problem
        app.screen.query_one("#name", Input).value = "local:2"
        await pilot.press("enter")
        await pilot.pause()
        assert INSTALL in str(app.screen.query_one("#problem").render())
        await pilot.press("escape")
        await pilot.pause()
        assert screen.where == ""
