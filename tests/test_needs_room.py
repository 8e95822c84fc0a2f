"""A screen the terminal is too small for says so and acts on no key blind
(studio/screens/room.py); it shows again as soon as the terminal is large enough."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._header import HeaderTitle

from studio.screens.haunted.hub import HubScreen
from studio.screens.haunted.tournament import TournamentScreen
from studio.screens.room import NeedsRoomScreen
from tests.ui_helpers import studio_app


async def test_the_tournament_at_60x20_says_what_it_needs_and_takes_no_keys(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        cover = app.screen
        assert isinstance(cover, NeedsRoomScreen)
        shown = str(cover.query_one("#message").render())
        assert "at least 80×24" in shown and "60×20" in shown
        tournament = cover.under
        assert isinstance(tournament, TournamentScreen)
        before = tournament.pane
        await pilot.press("tab", "a", "enter")  # nothing reaches the screen beneath
        await pilot.pause()
        assert app.screen is cover and tournament.pane == before and not tournament.running
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert app.screen is tournament  # gone by itself
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert isinstance(app.screen, NeedsRoomScreen)  # and back when it shrinks again
        await pilot.press("escape")  # leaves the tournament as its own escape does
        await pilot.pause()
        assert isinstance(app.screen, HubScreen)


async def test_a_screen_without_needs_is_left_alone(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HubScreen)



async def test_the_screen_under_the_cover_gets_its_title_fitted_to_the_new_width(
        ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        tournament = app.screen.under
        await pilot.resize_terminal(150, 30)
        await pilot.pause()
        assert app.screen is tournament
        title = str(tournament.query_one(HeaderTitle).render())
        assert "…" not in title and title.endswith(tournament.sub_title), title
