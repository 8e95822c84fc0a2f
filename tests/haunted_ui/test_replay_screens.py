"""The replay browser and viewer: list, filter, open, step through, verify, delete."""

from __future__ import annotations

import datetime as dt
import types
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import DataTable

from studio.engines.haunted import replay as replays
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig, run_match
from studio.screens.haunted.replay_browser import ReplayBrowserScreen
from studio.screens.haunted.replay_viewer import ReplayViewerScreen
from studio.sessions.haunted.entrants import resolve_entrant
from studio.storage.haunted.replay import save_replay
from tests.ui_helpers import studio_app, wait_until, workers_done

THREE = MatchConfig(rounds=3, max_rounds=5, maps=("Default", "WaffleTown"))
WHEN = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.timezone.utc)


@pytest.fixture
def frozen_timings(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process AIs answer in "0 ms", so pictures of timings do not vary between runs."""
    monkeypatch.setattr("studio.engines.haunted.inprocess.time",
                        types.SimpleNamespace(perf_counter=lambda: 0.0))


def record(folder: Path, a: str = "greedy", b: str = "lookahead", seed: int = 5,
           name: str = "match.json.gz") -> tuple[Path, object]:
    entrants = [resolve_entrant(f"builtin:{x}", THREE, in_process=True) for x in (a, b)]
    result = run_match(*entrants, builtin_maps(), THREE, seed)
    path = save_replay(replays.build(result, "test", WHEN), folder / "replays" / name)
    return path, result


async def open_browser(pilot) -> ReplayBrowserScreen:
    """``r``, then wait until the browser has listed the replays (read in a worker thread)."""
    await pilot.press("r")

    def listed() -> bool:
        screen = pilot.app.screen
        if not isinstance(screen, ReplayBrowserScreen):
            return False
        status = str(screen.query_one("#status").render())
        return bool(status) and not status.startswith("reading")

    await wait_until(pilot, listed, "the replay browser did not list the replays")
    return pilot.app.screen


async def open_viewer(pilot, path: Path) -> ReplayViewerScreen:
    browser = await open_browser(pilot)
    assert isinstance(browser, ReplayBrowserScreen)
    assert [i.path.name for i in browser.shown] == [path.name]
    await pilot.press("enter")
    await pilot.pause()
    return pilot.app.screen


async def test_step_through_a_recorded_match(ht_project: Path, frozen_timings) -> None:
    path, result = record(ht_project.parent)
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await open_viewer(pilot, path)
        assert isinstance(viewer, ReplayViewerScreen) and viewer.path.name == path.name
        assert (viewer.round, viewer.frame) == (1, 0)
        await pilot.press("n", "n")
        assert viewer.frame == 2 and "turn 2" in viewer.query_one("#turn").text
        await pilot.press("p")
        assert viewer.frame == 1
        await pilot.press("right_square_bracket")
        assert (viewer.round, viewer.frame) == (2, 0)
        await pilot.press("end")
        assert viewer.round == len(result.rounds)
        last = result.rounds[-1]
        assert viewer.frame == last.turns
        assert "wins" in viewer.query_one("#banner").text
        await pilot.press("home")
        assert (viewer.round, viewer.frame) == (1, 0)
        await pilot.press("g")
        await pilot.press(*"2.3", "enter")
        await pilot.pause()
        assert (viewer.round, viewer.frame) == (2, 3)
        await pilot.press("g", *"9.9", "enter")  # beyond the match: the last turn, and it says so
        await pilot.pause()
        assert viewer.round == len(result.rounds)
        assert any("there is no turn 9.9" in n.message for n in app._notifications)
        await pilot.press("g", *"2.3", "enter")
        await pilot.pause()
        await pilot.press("left")  # previous turn, and across the round start
        await pilot.press("home", "right_square_bracket", "left")
        assert (viewer.round, viewer.frame) == (1, result.rounds[0].turns)
        await pilot.press("v")
        await workers_done(pilot, "verify")
        assert "✓ verified" in viewer.query_one("#banner").text


async def test_playing_runs_on_a_timer_that_stops(ht_project: Path) -> None:
    path, _ = record(ht_project.parent)
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await open_viewer(pilot, path)
        await pilot.press("plus", "plus", "plus", "plus")
        assert viewer.pace == 0.05
        await pilot.press("space")
        await wait_until(pilot, lambda: viewer.frame > 2 or viewer.round > 1,
                         "the timer did not play on")  # 0.05 s a turn, later when loaded
        assert viewer.frame > 2 or viewer.round > 1
        await pilot.press("space")
        where = (viewer.round, viewer.frame)
        await pilot.pause(0.2)
        assert (viewer.round, viewer.frame) == where and viewer._timer is None


async def test_a_tampered_replay_is_reported(ht_project: Path) -> None:
    path, result = record(ht_project.parent)
    document = replays.build(result, "test", WHEN)
    document["rounds"][0]["turns"][0]["home"]["moves"] = ["west", "west", "west"]
    save_replay(document, path)
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await open_viewer(pilot, path)
        await pilot.press("v")
        await workers_done(pilot, "verify")
        assert "✗ replay does not match this engine version" in viewer.query_one("#banner").text


async def test_browse_filter_and_delete(ht_project: Path) -> None:
    first, _ = record(ht_project.parent, name="a.json.gz")
    second, _ = record(ht_project.parent, "wander", "cautious", name="b.json.gz")
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await open_browser(pilot)
        assert {i.path.name for i in browser.shown} == {"a.json.gz", "b.json.gz"}
        second_name = browser.shown[1].path.name
        await pilot.press("down", "enter")  # enter is the screen's, after the move, not before
        await pilot.pause()
        assert app.screen.path.name == second_name
        await pilot.press("escape")
        await pilot.press("slash", *"qt?", "escape")  # clears the filter, stays (it left)
        assert app.screen is browser and len(browser.shown) == 2
        assert browser.query_one("#filter").value == ""
        await pilot.press("slash", *"wander", "enter")
        assert [i.path.name for i in browser.shown] == ["b.json.gz"]
        await pilot.press("v")
        await workers_done(pilot, "verify")
        assert "✓ b.json.gz: verified" in str(browser.query_one("#status").render())
        await pilot.press("d", "y")
        await pilot.pause()
        assert browser.shown == [] and not second.exists()
        assert (ht_project.parent / "replays" / ".trash" / "b.json.gz").exists()
        assert first.exists()


@pytest.mark.parametrize("size", [(100, 30), (80, 24), (120, 40)])
def test_replay_viewer_snapshot(snap_compare, ht_project: Path, frozen_timings, size) -> None:
    record(ht_project.parent)

    async def run(pilot) -> None:
        await open_browser(pilot)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("n", "n", "n", "n", "l")
        await pilot.pause(0.2)

    assert snap_compare(studio_app(ht_project), terminal_size=size, run_before=run)


async def test_the_browser_shows_the_selected_replay_whole_below_the_table(
        ht_project: Path) -> None:
    record(ht_project.parent, name="a.json.gz", seed=3727553580931688368)
    # A tournament's match: its folder is named (each tournament has a match-001).
    (ht_project.parent / "replays" / "spring-cup").mkdir(parents=True)
    record(ht_project.parent, "wander", "cautious", name="spring-cup/b.json.gz", seed=9)
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await open_browser(pilot)
        for _ in browser.shown:
            info = browser.selected()
            detail = " ".join(str(browser.query_one("#detail").render()).split())
            where = "spring-cup/b.json.gz" if info.path.name == "b.json.gz" else "a.json.gz"
            assert detail.startswith(where) and f"seed {info.seed}" in detail
            assert " vs ".join(info.teams) in detail and info.result in detail
            await pilot.press("down")
            await pilot.pause()
        names = {i.path.name for i in browser.shown}
        assert names == {"a.json.gz", "b.json.gz"}


def test_replay_browser_snapshot(snap_compare, ht_project: Path) -> None:
    record(ht_project.parent, name="a.json.gz")
    record(ht_project.parent, "wander", "cautious", name="b.json.gz")

    async def run(pilot) -> None:
        await open_browser(pilot)
        # the list is read on a worker thread: the frame waits for it to end
        await workers_done(pilot, "load", "verify", "dialog")
        await pilot.pause()

    assert snap_compare(studio_app(ht_project, theme="ansi"), terminal_size=(80, 24), run_before=run)


async def test_the_log_folds_to_its_width_and_pages_without_jumping_back(ht_project: Path) -> None:
    path, _ = record(ht_project.parent, seed=3727553580931688368)  # a seed as long as they come
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(pilot, path)
        score = viewer.query_one("#score").text
        assert "3727553580931688368" in score and "0.5\u00a0s" in score  # wrapped, not cut
        viewer.show_log([f"line {i}: " + "word " * 30 for i in range(12)])
        await pilot.press("l")
        await pilot.pause()
        log = viewer.query_one("#log")
        assert all(strip.cell_length <= log.size.width for strip in log.lines)
        assert len(log.lines) > 24 and log.scroll_y == log.max_scroll_y
        await pilot.press("pageup")
        up = log.scroll_y
        assert up < log.max_scroll_y
        viewer.show_log([*viewer._log_lines, "line 12: news"])  # a new turn's lines
        await pilot.pause()
        assert log.scroll_y == up  # reading back is not interrupted
        await pilot.press("pagedown", "pagedown", "pagedown", "pagedown")
        viewer.show_log([*viewer._log_lines, "line 13: more news"])
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y  # at the end again: it follows


async def test_the_table_cuts_names_only_as_far_as_the_width_needs(ht_project: Path) -> None:
    record(ht_project.parent, name="a.json.gz", seed=3727553580931688368)
    record(ht_project.parent, "wander", "cautious", name="b.json.gz")
    app = studio_app(ht_project)
    async with app.run_test(size=(140, 30)) as pilot:
        browser = await open_browser(pilot)
        long = ("Lookahead Ghouls", "Cautious Creepers")
        browser.infos = [replace(info, teams=long) for info in browser.infos]
        browser._fill()
        await pilot.press("down")
        table = browser.query_one(DataTable)

        def cells() -> list[str]:
            return [str(cell) for cell in table.get_row_at(0)]

        assert cells()[1] == "Lookahead Ghouls vs Cautious Creepers"
        seeds = {str(table.get_row_at(k)[4]) for k in range(2)}
        assert len(table.columns) == 5 and seeds == {"5", "3727553580931688368"}
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        # At 80 columns names are cut to 12 (the line below has them whole) and a seed that
        # would be cut is left out; the cursor stays on its row.
        assert cells()[1] == "Lookahead G… vs Cautious Cr…"
        assert len(table.columns) == 4 and table.cursor_row == 1
        # The maps take the room left: the first map whole and how many more.
        assert str(table.get_row_at(0)[3]) == "Default +1"
        # The filter looks in the whole names, not in what the table shows of them.
        await pilot.press("slash", *"creepers waffletown"[:8], "enter")
        assert len(browser.shown) == 2
        await pilot.press("slash", "ctrl+u", *"waffletown", "enter")
        assert len(browser.shown) == 2
        # At 60 the maps go too rather than show cut to "ma" and "De" without a mark.
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.pause()
        assert len(table.columns) == 3
        assert table.virtual_size.width <= table.scrollable_content_region.width
        await pilot.resize_terminal(140, 30)
        await pilot.pause()
        await pilot.pause()
        assert cells()[1] == "Lookahead Ghouls vs Cautious Creepers"
