"""Snapshots of the tournament screen: setup (three sizes and themes), a finished bracket with
byes, round-robin standings. Runs are finished before the picture: nothing animates."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.haunted_ui.tournament_helpers import THREE, finish, open_screen, set_up
from tests.ui_helpers import studio_app

SIZE = (100, 30)
SMALL = (80, 24)


def opened(*keys: str, run: bool = False):
    async def before(pilot) -> None:
        screen = await open_screen(pilot.app, pilot)
        if run:
            await pilot.press("enter")
            await finish(pilot, screen)
        await pilot.press(*keys)
        await pilot.pause(0.3)

    return before


@pytest.mark.parametrize(("size", "theme"), [(SIZE, None), (SMALL, None), (SMALL, "ansi")])
def test_setup(snap_compare, ht_project: Path, size, theme) -> None:
    assert snap_compare(studio_app(ht_project, theme), terminal_size=size,
                        run_before=opened("tab", "tab", "down"))


def test_finished_bracket(snap_compare, ht_project: Path) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=SIZE,
                        run_before=opened("shift+tab", "right", run=True))


def test_round_robin_standings(snap_compare, ht_project: Path) -> None:
    set_up(ht_project, rounds=3, entrants=THREE, mode="round-robin", seed=9)
    assert snap_compare(studio_app(ht_project), terminal_size=SIZE,
                        run_before=opened("shift+tab", "down", run=True))


def test_where_to_run_asked_whole_at_80_columns(snap_compare, ht_project: Path) -> None:
    """``c``: the question wraps inside the dialog (it was cut at "for this ma")."""
    assert snap_compare(studio_app(ht_project), terminal_size=SMALL, run_before=opened("c"))
