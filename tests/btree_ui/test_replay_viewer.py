"""Saved play runs (``NAME.btreplay.json``): listed on the home screen, stepped through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from studio.engines.btree.play.replay import ReplayMismatch, ReplayRun, verify_run
from studio.engines.btree.play.session import PlaySession
from studio.screens.btree.replay_viewer import BtreeReplayScreen
from studio.screens.dialogs import NameDialog
from studio.screens.home import HomeScreen
from studio.storage import ProjectError, load_project, scan_folder
from studio.storage.btree.project import compile_model, project_model
from studio.storage.btree.replay import load_replay, save_replay
from studio.widgets.dialogs import ErrorDialog
from tests.conftest import fix_times
from tests.ui_helpers import studio_app, wait_until

SIZE = (100, 30)


def record(project_path: Path, seed: int = 3) -> tuple[Path, list[int]]:
    """A whole game of two random seats, saved as play's ctrl+s saves it."""
    project = load_project(project_path)
    session = PlaySession(compile_model(project_model(project)), seed,
                          {"X": "random", "O": "random"})
    session.advance(show_displays=False, show_auto=False)
    return save_replay(project_path, project, session.replay_data), session.choices_made


@pytest.fixture
def recorded(bt_folder: Path) -> Path:
    path, _choices = record(bt_folder / "tic-tac-toe.toml")
    fix_times(bt_folder)
    return path


def test_a_run_steps_forwards_and_back_to_the_same_boards(bt_folder: Path) -> None:
    path, choices = record(bt_folder / "tic-tac-toe.toml")
    compiled = compile_model(project_model(load_project(bt_folder / "tic-tac-toe.toml")))
    run = ReplayRun(compiled, 3, load_replay(path).choices)
    start = run.session.engine.board.to_json()
    assert run.step(100) == len(choices) and run.session.engine.result is not None
    assert run.step(-len(choices)) == len(choices) and run.position == 0
    assert run.session.engine.board.to_json() == start
    run.go_to(2)
    assert run.session.choices_made == choices[:2]


def test_a_choice_the_game_does_not_offer_is_a_mismatch(bt_folder: Path) -> None:
    compiled = compile_model(project_model(load_project(bt_folder / "tic-tac-toe.toml")))
    with pytest.raises(ReplayMismatch, match="move 1"):
        ReplayRun(compiled, 0, [50]).step(1)


def test_a_damaged_replay_is_listed_with_its_error(bt_folder: Path) -> None:
    (bt_folder / "x.btreplay.json").write_text(json.dumps(
        {"format": "studio-btree-replay", "seed": 1, "choices": ["a"]}))
    with pytest.raises(ProjectError, match="choices"):
        load_replay(bt_folder / "x.btreplay.json")
    entry = next(e for e in scan_folder(bt_folder) if e.path.name == "x.btreplay.json")
    assert entry.error is not None and entry.btreplay is None


async def test_home_lists_the_replay_and_enter_steps_through_it(recorded: Path) -> None:
    app = studio_app(recorded.parent)
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        names = [entry.name for entry in home.entries]
        row = names.index("tic-tac-toe (replay)")
        assert home.entries[row].btreplay is not None
        assert str(home.query_one(DataTable).get_row_at(row)[1]) == "Tree game replay"
        home.query_one(DataTable).move_cursor(row=row)
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, BtreeReplayScreen)
        total = len(load_replay(recorded).choices)
        await pilot.press("right", "right")
        assert screen.run.position == 2 and screen.selected == screen.run.next_choice
        await pilot.press("left")
        assert screen.run.position == 1
        await pilot.press("end")
        assert screen.run.position == total and screen.session.engine.result is not None
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
    assert (recorded.parent / "tic-tac-toe.toml").read_bytes() == \
        (Path(__file__).parents[2] / "games" / "tic-tac-toe.toml").read_bytes()


async def test_space_plays_the_run_to_its_end(recorded: Path) -> None:
    app = studio_app(recorded)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, BtreeReplayScreen)
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.run.at_end and screen.timer is None,
                         "the replay did not play to its end", timeout=15)


async def test_a_replay_without_its_project_says_so(recorded: Path) -> None:
    orphan = recorded.with_name("gone.btreplay.json")
    recorded.rename(orphan)
    app = studio_app(orphan)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ErrorDialog)
        assert "gone.toml" in str(app.screen.error)


def test_verify_plays_the_run_again_and_compares_its_end(bt_folder: Path) -> None:
    path, choices = record(bt_folder / "tic-tac-toe.toml")
    replay = load_replay(path)
    compiled = compile_model(project_model(load_project(bt_folder / "tic-tac-toe.toml")))
    verdict = verify_run(compiled, replay.seed, replay.choices, replay.board, replay.result)
    assert verdict.ok and f"{len(choices)} moves" in verdict.message
    # one move short: the game is not over where the run says it was
    short = verify_run(compiled, replay.seed, replay.choices[:-1], replay.board, replay.result)
    assert not short.ok and "ends otherwise" in short.message
    # a move the game does not offer
    wrong = verify_run(compiled, replay.seed, (40, *replay.choices), replay.board, None)
    assert not wrong.ok and "move 1" in wrong.message
    # more moves than the game lasts
    longer = verify_run(compiled, replay.seed, (*replay.choices, 0), replay.board,
                        replay.result)
    assert not longer.ok and f"ends after move {len(choices)}" in longer.message


async def test_go_to_speed_and_verify_keys(recorded: Path) -> None:
    app = studio_app(recorded)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, BtreeReplayScreen)
        total = len(screen.replay.choices)
        await pilot.press("g")
        assert isinstance(app.screen, NameDialog)
        app.screen.query_one(Input).value = "two"
        await pilot.press("enter")
        assert isinstance(app.screen, NameDialog)  # refused, with the reason
        app.screen.query_one(Input).value = "2"
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.run.position == 2, "g 2 did not go to move 2")
        await pilot.press("g")
        app.screen.query_one(Input).value = "99"
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.run.position == total, "99 is clamped to the end")
        assert any(f"showing move {total}" in n.message for n in app._notifications)
        await pilot.press("home", "n", "p", "N")
        assert screen.run.position == total  # +10 stops at the end
        await pilot.press("plus", "plus")
        assert screen.period == 0.1
        await pilot.press("minus")
        assert screen.period == 0.25
        await pilot.press("v")
        await wait_until(pilot, lambda: screen.verdict is not None, "no verdict")
        assert screen.verdict.ok and "✓ verified" in screen.query_one("#status").text
