"""The spectator screen (issue 30, "Watch it live"): a tournament followed through its live feed,
from the hub's ``w`` and ``studio watch``; snapshots of a feed mid-match and at its end."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from studio import app as app_module
from studio import cli
from studio.app import StudioApp
from studio.screens.haunted.screens import make
from studio.screens.haunted.spectator import SpectatorScreen
from studio.sessions.haunted.tournament import (TournamentRun, feed_file, project_plan,
                                                tournament_folder)
from studio.sessions.haunted.watch import Spectator
from studio.storage import load_project
from studio.storage.haunted.project import project_model
from tests.haunted_ui.tournament_helpers import CUP, set_up
from tests.ui_helpers import studio_app

SIZES = [(80, 24), (120, 40)]
WRITTEN = 1_800_000_000.0
"""The feed's clock in the snapshots' feeds: the picture must not depend on when it was made."""


def cup_plan(project: Path, **changes):
    model = project_model(load_project(project))
    table = next(t for t in model.tournaments() if t["name"] == CUP)
    plan = project_plan(table, model.teams(), model.maps(), model.config(), model.folder,
                        in_process=True)
    return replace(plan, **changes)


def steady(value):
    """A feed's event with the times that vary between runs fixed."""
    if isinstance(value, dict):
        return {k: (1.0 if k == "ms" else WRITTEN if k == "t" else steady(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


@pytest.fixture
def cup_feed(ht_project: Path) -> list[str]:
    """The cup run once (three rounds a match), its feed's lines with steady times."""
    set_up(ht_project, rounds=3)
    TournamentRun(cup_plan(ht_project)).run()
    path = feed_file(tournament_folder(ht_project.parent, CUP))
    return [json.dumps(steady(json.loads(line))) for line in path.read_text().splitlines()]


def mid_match(lines: list[str]) -> list[str]:
    """The feed as it stood at turn 4 of the second round of the second match."""
    events = [json.loads(line)["event"] for line in lines]
    second_match = [k for k, e in enumerate(events) if e == "match"][1]
    second_round = [k for k, e in enumerate(events) if e == "round" and k > second_match][1]
    return lines[:second_round + 5]


async def spectate(pilot, lines: list[str] = (), clock=lambda: WRITTEN + 0.05):
    """The spectator screen pushed on the cup's feed, holding ``lines`` so far; the screen and
    the feed's path."""
    app = pilot.app
    await pilot.pause()
    path = feed_file(tournament_folder(app.screen.folder, CUP))
    path.write_text("".join(line + "\n" for line in lines))
    await app.push_screen(make("watch", app.screen.document, tournament=CUP,
                               spectator=Spectator(path, clock=clock)))
    return app.screen, path


def watching(lines: list[str], *keys: str):
    async def before(pilot) -> None:
        app = pilot.app
        await pilot.pause()
        path = feed_file(tournament_folder(app.screen.folder, CUP))
        path.write_text("\n".join(lines) + "\n")
        spectator = Spectator(path, clock=lambda: WRITTEN + 0.05)
        await app.push_screen(make("watch", app.screen.document, tournament=CUP,
                                   spectator=spectator))
        await pilot.pause(0.3)
        await pilot.press(*keys)
        await pilot.pause(0.2)

    return before


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_mid_match(snap_compare, ht_project: Path, cup_feed: list[str], size) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=size,
                        run_before=watching(mid_match(cup_feed)))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_at_the_end(snap_compare, ht_project: Path, cup_feed: list[str], size) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=size,
                        run_before=watching(cup_feed))


def test_mid_match_with_the_log_in_place_of_the_bracket(snap_compare, ht_project: Path,
                                                        cup_feed: list[str]) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=(80, 24),
                        run_before=watching(mid_match(cup_feed), "l"))


def test_waiting_for_a_feed(snap_compare, ht_project: Path) -> None:
    async def before(pilot) -> None:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause(0.3)

    assert snap_compare(studio_app(ht_project), terminal_size=(80, 24), run_before=before)


async def test_it_follows_a_real_tournament_to_its_end(ht_project: Path) -> None:
    """A run on another thread, paced as for a class; the screen sees every match end, no more
    than half a second after it was written."""
    set_up(ht_project, rounds=1)
    plan = cup_plan(ht_project, pace=0.01)
    app = studio_app(ht_project)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, SpectatorScreen)
        assert screen.spectator.view().status == "waiting"
        delays, matches_seen = [], set()
        draw = screen.refresh_view

        def drawn() -> None:  # what the screen drew, however briefly it stood
            draw()
            view = screen.spectator.view()
            if view.delay is not None and view.status == "live":
                delays.append(view.delay)
            if view.tournament:
                matches_seen.add(len(view.tournament["matches"]))

        screen.refresh_view = drawn
        run = TournamentRun(plan)
        thread = threading.Thread(target=run.run, daemon=True)
        thread.start()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            await pilot.pause(0.05)
            if screen.spectator.view().status == "over" and not thread.is_alive():
                break
        thread.join(5)
        await pilot.pause(0.3)
        view = screen.spectator.view()
        document = run.progress().document
        assert view.status == "over" and view.skipped == 0
        assert view.tournament["matches"] == document["matches"]
        assert view.tournament["standings"] == document["standings"]
        assert matches_seen >= set(range(1, len(document["matches"]) + 1))  # each end seen
        assert delays and max(delays) <= 0.5, max(delays)
        champion = document["standings"][0]
        assert f"{champion} wins" in screen.query_one("#banner").text


async def test_studio_watch_opens_the_spectator_screen(ht_project: Path) -> None:
    app = StudioApp(ht_project, watch=CUP)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        assert isinstance(app.screen, SpectatorScreen) and app.screen.tournament == CUP
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SpectatorScreen)


def test_studio_watch_names_the_tournaments_when_one_is_unknown(ht_project: Path, capsys) -> None:
    assert cli.main(["watch", str(ht_project), "No such cup"]) == 1
    assert f"its tournaments: {CUP!r}" in capsys.readouterr().err
    assert cli.main(["watch", str(ht_project.parent / "nope.toml")]) == 1


async def test_b_hides_and_shows_the_results_and_l_takes_their_place(ht_project: Path,
                                                                    cup_feed: list[str]) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(120, 40)) as pilot:
        await watching(cup_feed)(pilot)
        screen = app.screen
        results = screen.query_one("#results")
        assert results.display and "final" in results.text
        await pilot.press("b")
        await pilot.pause()
        assert not results.display
        await pilot.press("b", "l")
        await pilot.pause()
        log = screen.query_one("#log")
        assert log.display and not results.display and "wins" in log.text
        await pilot.press("l")
        await pilot.pause()
        assert results.display and not log.display


@pytest.fixture
def as_spectator(monkeypatch: pytest.MonkeyPatch) -> None:
    """This studio is a served spectator's, Sam's (the role as a served session reads it)."""
    monkeypatch.setattr(app_module, "_person",
                        lambda role=False: "spectator" if role else "Sam (spectator)")


def test_a_spectator_lands_on_the_waiting_spectator_screen(snap_compare, ht_project: Path,
                                                          as_spectator) -> None:
    async def before(pilot) -> None:
        await pilot.pause(0.3)

    assert snap_compare(studio_app(ht_project.parent), terminal_size=(80, 24), run_before=before)


def test_the_spectators_shared_view_lists_only_the_key_that_leaves(
        snap_compare, ht_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one view drawn for every spectator (studio.ssh.broadcast): no key of theirs reaches
    it but q, which the server takes; its footer says so, its header names no one."""
    from studio.sessions import access

    monkeypatch.setattr(app_module, "_person", lambda role=False: "spectator" if role else
                        access.Access(access.SPECTATOR, "spectators", shared_view=True).label)
    monkeypatch.setattr(app_module, "_shared_view", lambda: True)
    monkeypatch.setattr(access, "_granted",
                        [access.Access(access.SPECTATOR, "spectators", shared_view=True)])

    async def before(pilot) -> None:
        await pilot.pause(0.3)
        assert pilot.app.screen.check_action("toggle_results", ()) is False
        assert pilot.app.check_action("help", ()) is False
        assert pilot.app.check_action("quit", ()) is not False

    assert snap_compare(studio_app(ht_project.parent), terminal_size=(80, 24), run_before=before)


async def test_a_spectator_never_sees_home_and_follows_the_next_run_by_itself(
        ht_project: Path, as_spectator) -> None:
    set_up(ht_project, rounds=1)
    app = studio_app(ht_project.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, SpectatorScreen) and app.screen_stack == [screen]
        assert screen.spectator.view().about.startswith("nothing is being played yet")
        assert screen.check_action("back", ()) is False  # nothing behind it
        await pilot.press("escape")
        assert app.screen is screen
        TournamentRun(cup_plan(ht_project, pace=0.0)).run()
        for _ in range(60):
            await pilot.pause(0.1)
            if screen.spectator.view().status == "over":
                break
        assert screen.spectator.view().status == "over"
        assert "the tournament is over" in screen.query_one("#banner").text


async def test_following_a_feed_turn_by_turn_lays_the_screen_out_only_when_it_must(
        ht_project: Path, cup_feed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # A layout of the whole screen was a spectator's largest cost: the banner's and the
    # scoreboard's heights and the side panel's width came and went every round and match
    # (176 layouts over a 400-line feed; 30 spectators on 2 cores fell behind).
    from textual.screen import Screen

    layouts = []
    plain = Screen._refresh_layout
    monkeypatch.setattr(Screen, "_refresh_layout",
                        lambda self, *a, **k: (layouts.append(1), plain(self, *a, **k))[1])
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, path = await spectate(pilot)
        with path.open("a") as feed:
            for line in cup_feed[:3]:
                feed.write(line + "\n")
            feed.flush()
            screen._poll()
            await pilot.pause()
            layouts.clear()
            for line in cup_feed[3:]:
                feed.write(line + "\n")
                feed.flush()
                screen._poll()
                await pilot.pause()
        assert screen.spectator.view().status == "over"
        assert len(cup_feed) > 100 and len(layouts) <= 8, len(layouts)


async def test_at_60x20_the_board_and_panels_stay_on_the_screen(ht_project: Path,
                                                                 cup_feed: list[str]) -> None:
    # The panels kept 48 columns beside 80-column tiles and ran 16 columns off the screen.
    app = studio_app(ht_project)
    async with app.run_test(size=(60, 20)) as pilot:
        screen, path = await spectate(pilot)
        for lines in ([], mid_match(cup_feed)):  # waiting, then live
            path.write_text("".join(line + "\n" for line in lines))
            screen._poll()
            await pilot.pause()
            for name in ("#board", "#side", "#score"):
                assert screen.query_one(name).region.right <= 60, name
            assert "answer" in screen.query_one("#score").text
