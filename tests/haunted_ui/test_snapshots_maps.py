"""Snapshots of the map editor as people see it: both tile sizes, the ANSI theme, the fairness
result, an invalid map, the maps list and the refused save."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.engines import jit
from tests.ui_helpers import studio_app

SIZE = (100, 30)
SMALL = (80, 24)


def keys(*pressed: str):
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.press("p", *pressed)
        await pilot.pause(0.5)

    return run


@pytest.mark.parametrize("size", [SIZE, SMALL])
def test_editor_with_a_fair_map(snap_compare, ht_project: Path, size) -> None:
    """WaffleTown in 4×2 tiles, the fairness check passed."""
    assert snap_compare(studio_app(ht_project), terminal_size=size,
                        run_before=keys("right_square_bracket", "down", "right", "c"))


def test_editor_with_a_big_map_in_narrow_tiles(snap_compare, ht_project: Path) -> None:
    """Open 15 does not fit 4×2 tiles at 80×24: 2×1 tiles, pen down, symmetry on."""
    assert snap_compare(studio_app(ht_project), terminal_size=SMALL,
                        run_before=keys("left_square_bracket", "y", "y", "y", "1", "p", "down",
                                        "down", "right"))


def test_editor_in_the_ansi_theme_with_an_unfair_map(snap_compare, ht_project: Path) -> None:
    assert snap_compare(studio_app(ht_project, theme="ansi"), terminal_size=SMALL,
                        run_before=keys("down", "right", "2", "down", "1", "c"))


def test_editor_with_an_invalid_map(snap_compare, ht_project: Path) -> None:
    """A hole under H0 and A1 sharing its tile: flagged in words, kept in the map."""
    assert snap_compare(studio_app(ht_project), terminal_size=SIZE,
                        run_before=keys("0", "a", "2"))


def test_saving_an_invalid_map_is_refused(snap_compare, ht_project: Path) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=SMALL,
                        run_before=keys("0", "ctrl+s"))


def test_maps_list(snap_compare, ht_project: Path) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=SMALL,
                        run_before=keys("0", "m", "down"))


@pytest.mark.skipif(not jit.available(), reason=f"the snapshot shows the numba path: {jit.reason()}")
def test_editor_with_the_simulated_fairness(snap_compare, ht_project: Path, monkeypatch) -> None:
    """WaffleTown after f: home's share per policy pair at 80×24 (a fixed clock for the time)."""
    from studio.screens.haunted import map_fairness

    monkeypatch.setattr(map_fairness, "ROUNDS", 2000)
    monkeypatch.setattr(map_fairness, "clock", iter([0.0, 0.4]).__next__)
    monkeypatch.setattr(map_fairness.warmup, "ready", lambda module: True)

    async def run(pilot) -> None:
        await keys("right_square_bracket", "f")(pilot)
        busy = [w for w in pilot.app.workers if w.group == "fairness"]
        if busy:
            await pilot.app.workers.wait_for_complete(busy)
        await pilot.pause(0.3)

    assert snap_compare(studio_app(ht_project), terminal_size=SMALL, run_before=run)
