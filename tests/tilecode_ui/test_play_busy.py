"""Keys pressed while a round runs in its worker thread wait for it instead of being lost."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from studio.screens.tilecode.game_over import GameOverDialog
from studio.screens.tilecode.play import PlayScreen
from studio.storage.tilecode.replay import load_replay
from tests.tilecode_ui.helpers import app_on, one_round, start_paused
from tests.ui_helpers import wait_until


def hold_next_round(screen: PlayScreen) -> threading.Event:
    """Make the next round run in the worker and wait there until the returned event is set."""
    gate = threading.Event()
    step = screen.session.step
    held = []

    def gated():
        if not held:
            held.append(True)
            assert gate.wait(10), "the test never let the round finish"
        return step()

    screen.session.step = gated
    screen.round_seconds = 1.0  # slow last time: the next round goes to the worker
    return gate


async def round_held(pilot, screen: PlayScreen, *keys: str) -> threading.Event:
    """Start a round (``keys`` pressed for it) that stays in its worker until released."""
    gate = hold_next_round(screen)
    await pilot.press(*keys, "n")
    assert screen.busy
    return gate


async def release(pilot, screen: PlayScreen, gate: threading.Event) -> None:
    gate.set()
    await wait_until(pilot, lambda: not screen.busy and not screen.queued,
                     "the held round and the keys queued behind it did not finish")


async def test_restart_and_a_single_round_pressed_during_a_round_run_after_it(
        tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        seed = screen.session.seed
        screen.action_restart()
        await one_round(pilot, screen, "right")
        gate = await round_held(pilot, screen, "right")
        await pilot.press("r", "n")
        assert screen.session.state.round == 2  # nothing ran under the held round
        assert screen.queued == [("restart", (False,)), ("single", ())]
        await release(pilot, screen, gate)
        # The held round (3), then the restart (round 0 run: 1), then one more round.
        assert screen.session.state.round == 2 and screen.session.seed == seed
        assert [len(b) for b in screen.session.inputs] == [0, 0]
        assert "Round 2" in screen.query_one("#bar").text


async def test_a_replay_saved_during_a_round_includes_that_round(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_paused(pilot, app)
        screen.action_restart()
        gate = await round_held(pilot, screen, "right")
        await pilot.press("ctrl+s")
        replay_path = tc_folder / "hello-world.tcreplay.toml"
        assert not replay_path.exists()
        await release(pilot, screen, gate)
        replay = load_replay(replay_path)
        assert replay.rounds == screen.session.state.round == 2


@pytest.mark.parametrize("restart", [True, False])
async def test_the_losing_round_shows_its_dialog_unless_a_restart_was_pressed_during_it(
        tc_folder: Path, restart: bool) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        screen.action_restart()
        await one_round(pilot, screen, "right")  # (3,5)
        gate = await round_held(pilot, screen, "up")  # into the snake: lost
        if restart:
            await pilot.press("r")
        await release(pilot, screen, gate)
        if restart:  # the player asked to play again: no dialog over the new run
            assert app.screen is screen
            assert screen.session.state.status == "play" and screen.session.state.round == 1
        else:
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverDialog),
                             "no game-over dialog after the losing round")


async def test_leaving_play_while_a_round_runs_is_safe(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        gate = await round_held(pilot, screen, "right")
        await pilot.press("escape")
        assert app.screen is not screen
        gate.set()
        await wait_until(pilot, lambda: not screen.busy or not screen.is_attached,
                         "the held round did not end")
        await pilot.pause(0.1)
        assert app.screen is not screen and app.return_value is None


async def test_a_long_seed_takes_its_own_line_at_80_columns(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        screen.session.restart(1463899912396143613)
        await pilot.press("left")
        lines = screen.query_one("#bar").text.splitlines()
        assert lines[0].rstrip().endswith("next: left") and lines[1].strip() == \
            "Seed 1463899912396143613"
        screen.session.restart(5)
        await pilot.press("right")
        # Still two lines: the bar is as high as the widest it can grow to (round 99,999 with
        # six-digit scores would not fit beside even a short seed), so the board never jumps.
        assert len(screen.query_one("#bar").text.strip().splitlines()) == 2
    async with app_on(tc_folder / "hello-world.toml").run_test(size=(120, 30)) as pilot:
        screen = await start_paused(pilot, pilot.app)
        screen.session.restart(1463899912396143613)
        await pilot.press("left")
        assert len(screen.query_one("#bar").text.strip().splitlines()) == 1  # room for all


async def test_a_replay_is_said_not_to_match_the_file_only_where_it_would_not(
        tc_folder: Path) -> None:
    # An unsaved new high score (which replays do not count) gave the warning too.
    from dataclasses import replace

    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_paused(pilot, app)
        await one_round(pilot, screen, "right")

        def warned() -> bool:
            return any("will not match" in note.message for note in app._notifications)

        document = screen.document
        document.edit("high score", replace(document.model, high_score=999))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert document.dirty and not warned()
        game = document.model
        document.edit("map", replace(game, map=replace(game.map, background=tuple(
            tuple(3 for _ in row) for row in game.map.background))))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert warned()
