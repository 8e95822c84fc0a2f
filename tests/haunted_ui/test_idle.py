"""Nothing repaints when nothing changes on the Haunted Tiles screens, and a live match sends
only the board rows a turn changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.screens.haunted.match_view import MatchViewScreen
from studio.widgets.board import Board
from tests.ui_helpers import idle_bytes
from tests.haunted_ui.test_match_screens import open_match, plan, until
from tests.haunted_ui.tournament_helpers import finish, open_screen, set_up
from tests.tilecode_ui.test_idle import count_bytes
from tests.ui_helpers import studio_app, wait_until


async def settle_and_count(app) -> int:
    return await idle_bytes(app, count_bytes(app))


@pytest.mark.parametrize("keys", [(), ("m",), ("r",), ("h",), ("w",)],
                         ids=["hub", "setup", "replays", "rules", "watch"])
async def test_idle_screens_write_nothing(ht_project: Path, keys: tuple[str, ...]) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"  # as people run it: blinking would show if anything blinks
        await pilot.press(*keys)
        assert await settle_and_count(app) == 0


async def test_a_paused_match_writes_nothing_and_a_turn_repaints_only_changed_rows(
        ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        app.animation_level = "full"
        view = await open_match(pilot, app, plan(ht_project.parent, start_paused=True))
        assert isinstance(view, MatchViewScreen)
        await until(pilot, lambda: view.live.view().round_index == 1)
        assert await settle_and_count(app) == 0
        board = view.query_one(Board)
        before, start = board.lines_rendered, view.live.view().state
        await pilot.press("n")
        await until(pilot, lambda: view.live.view().record is not None)
        # The view draws the turn on a timer, the board's rows are rendered after that.
        await wait_until(pilot, lambda: board.lines_rendered > before,
                         "the board did not repaint the turn")
        await pilot.pause(0.2)  # a later repaint would count too
        after = view.live.view().state
        changed = {r for r in range(start.size) for c in range(start.size)
                   if start.strength(r, c) != after.strength(r, c)}
        changed |= {p[0] for p in start.positions + after.positions}
        # Only the rows the turn touched (tiles hit, monsters left or arrived), 2 lines each.
        assert len(changed) < start.size
        assert board.lines_rendered - before == 2 * len(changed)


@pytest.mark.parametrize("keys", [(), ("tab",), ("tab", "tab", "down")],
                         ids=["tournaments", "entrants", "settings"])
async def test_an_idle_tournament_setup_writes_nothing(ht_project: Path, keys) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"
        await open_screen(app, pilot)
        await pilot.press(*keys)
        assert await settle_and_count(app) == 0


async def test_a_finished_bracket_writes_nothing(ht_project: Path) -> None:
    set_up(ht_project, rounds=1)
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"
        screen = await open_screen(app, pilot)
        await pilot.press("enter")
        await finish(pilot, screen)
        await pilot.press("shift+tab", "down")
        assert await settle_and_count(app) == 0
