"""The replays table at 80 columns keeps the maps readable: long team names and a coin toss in
the result left them "C" or "Def…"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.widgets import DataTable

from studio.screens.haunted.replay_browser import maps_cell
from tests.haunted_ui.test_replay_screens import open_browser, record
from tests.ui_helpers import studio_app, workers_done

LONG = ("Tile Counters (Year 9)", "Lookahead Ghouls of the North")


def test_cut_maps_say_the_first_and_how_many_more() -> None:
    rotation = ("Default", "I(n) The Middle", "WaffleTown")
    assert maps_cell(rotation, 40) == "Default, I(n) The Middle, WaffleTown"
    assert maps_cell(rotation, 10) == "Default +2"
    assert maps_cell(rotation, 7) == "3 maps"
    assert maps_cell(("Crossroads",), 10) == "Crossroads"


def long_names(browser) -> None:
    browser.infos = [replace(info, teams=LONG, maps=("Default", "WaffleTown"),
                             result=f"{LONG[1]} wins 2–2–1, coin toss")
                     for info in browser.infos]
    browser._fill()


async def test_long_names_leave_the_maps_readable(ht_project: Path) -> None:
    record(ht_project.parent, name="a.json.gz")
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await open_browser(pilot)
        long_names(browser)
        await pilot.pause()
        row = [str(cell) for cell in browser.query_one(DataTable).get_row_at(0)]
        assert row[2] == "Lookahea… wins 2–2–1, toss"  # names cut below 12 only here
        assert row[3] == "Default +1"
        assert str(browser.query_one("#status").render()).startswith("1 replay in")


def test_replay_browser_long_names_snapshot(snap_compare, ht_project: Path) -> None:
    record(ht_project.parent, name="a.json.gz")

    async def run(pilot) -> None:
        browser = await open_browser(pilot)
        await workers_done(pilot, "load", "verify", "dialog")
        long_names(browser)
        await pilot.pause()

    assert snap_compare(studio_app(ht_project), terminal_size=(80, 24), run_before=run)
