"""A snapshot of every behaviour-tree screen state a user sees (fixed sizes and seeds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.engines.btree.play.waits import ChoiceWait, GameOver
from studio.engines.btree.search import portfolio
from studio.screens.btree.solver import SolverScreen
from tests.btree_ui.test_play import idle, settle
from tests.ui_helpers import studio_app, wait_until, workers_done

SIZE = (100, 30)
SMALL = (80, 24)


def keys(*pressed: str, select: tuple[int, ...] | None = None):
    async def run(pilot) -> None:
        if select is not None:
            pilot.app.screen.select(select)
        await pilot.press(*pressed)
        await workers_done(pilot, "compile")  # the diagnostics come from a worker thread
        await pilot.pause(0.5)

    return run


@pytest.mark.parametrize(("size", "theme"), [(SIZE, None), (SMALL, None), (SMALL, "ansi")])
def test_tree_editor(snap_compare, bt_folder: Path, size, theme) -> None:
    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml", theme), terminal_size=size,
                        run_before=keys("down", "down", "down", "down", "down"))


def test_tree_editor_compiled_pane(snap_compare, bt_folder: Path) -> None:
    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml"), terminal_size=SIZE,
                        run_before=keys("c", "tab", "down", "down", "down", "down"))


def test_tree_editor_with_an_error(snap_compare, bt_folder: Path) -> None:
    async def run(pilot) -> None:
        editor = pilot.app.screen
        editor.select((1, 1, 0))
        await pilot.press("enter", "tab", "tab")
        pilot.app.focused.value = "nowhere"
        await pilot.press("enter", "escape")
        await workers_done(pilot, "compile")  # the edit's compile, in a worker thread
        await pilot.pause(0.5)

    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml"), terminal_size=SMALL,
                        run_before=run)


def test_type_dialog(snap_compare, bt_folder: Path) -> None:
    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml"), terminal_size=SMALL,
                        run_before=keys("n", *"re", select=(1,)))


@pytest.mark.parametrize("text_form", [False, True])
def test_pattern_editor(snap_compare, bt_folder: Path, text_form: bool) -> None:
    more = ("tab",) if text_form else ("right", "down", *"B")
    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=SMALL,
                        run_before=keys("e", *more, select=(0,)))


async def to_turn(pilot, screen) -> None:
    """Wait through the board's animation frames to a player's turn or the game's end.

    `settle` stops at any wait, a display frame included; a key pressed during Connect Four's
    falling chip was dropped or not depending on the machine's speed.
    """
    for _ in range(500):
        await settle(pilot, screen)
        if isinstance(screen.wait, (ChoiceWait, GameOver)):
            return
    raise AssertionError("the game did not reach a turn")


def play(*pressed: str):
    async def run(pilot) -> None:
        await pilot.press("g")
        screen = pilot.app.screen
        await to_turn(pilot, screen)
        for key in pressed:
            await pilot.press(key)
            await to_turn(pilot, screen)
        await pilot.pause(0.2)

    return run


@pytest.mark.parametrize("size", [SIZE, SMALL])
def test_play_with_a_previewed_choice(snap_compare, bt_folder: Path, size) -> None:
    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=size,
                        run_before=play("tab"))


def test_play_connect_four(snap_compare, bt_folder: Path) -> None:
    assert snap_compare(studio_app(bt_folder / "connect-four.toml"), terminal_size=SIZE,
                        run_before=play("4", "4"))


def test_game_over(snap_compare, bt_folder: Path) -> None:
    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml"), terminal_size=SMALL,
                        run_before=play("1", "4", "1", "3", "1"))


def test_debugger(snap_compare, bt_folder: Path) -> None:
    async def run(pilot) -> None:
        await play("right")(pilot)
        await pilot.press("b", "1", "n", "n", "N")
        await idle(pilot, pilot.app.screen)

    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=SIZE,
                        run_before=run)


def _solver_done(keys: tuple[str, ...], monkeypatch):
    """Play, then the solver keys, then wait for the search to end."""
    import studio.screens.btree.solver as solver_module

    # Which path searches depends on whether the kernel's warm-up has finished: fix it.
    monkeypatch.setattr(solver_module.warmup, "ready", lambda module: False)
    # On a loaded machine the portfolio's minute ran out before breadth first's proof, and the
    # picture showed best first's longer line: the searches must end by themselves here.
    monkeypatch.setattr(portfolio, "DEFAULT_SECONDS", 3600.0)

    async def run(pilot) -> None:
        await play()(pilot)
        await pilot.press(*keys)
        screen = pilot.app.screen
        assert isinstance(screen, SolverScreen)
        # The plain path: sokoban's searches take seconds, far more on a slow or loaded machine.
        await wait_until(pilot, lambda: screen.done, "the search did not end", timeout=300)
        # Time is the one thing a snapshot cannot fix: the search is said to end 2 s after its start.
        screen.ended = screen.started + 2.0
        screen.refresh_view()
        await pilot.pause()

    return run


def test_solver_done(snap_compare, bt_folder: Path, monkeypatch) -> None:
    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=SMALL,
                        run_before=_solver_done(("s",), monkeypatch))


def test_solver_done_by_a_guided_method(snap_compare, bt_folder: Path, monkeypatch) -> None:
    """After ``m m`` (all at once, then breadth first): A* at weight 3 finds a line, not known
    to be the shortest."""
    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=SMALL,
                        run_before=_solver_done(("s", "m", "m"), monkeypatch))


def _held_solver(monkeypatch, seconds: float, shown):
    """Play, then the solver with its search held back, at a frozen time, after ``shown(screen)``
    gave it the progress (and lines) the search would report."""
    import studio.screens.btree.solver as solver_module

    monkeypatch.setattr(SolverScreen, "_search", lambda screen, job, cancel: None)
    monkeypatch.setattr(solver_module.warmup, "ready", lambda module: False)

    async def run(pilot) -> None:
        await play()(pilot)
        await pilot.press("s")
        screen = pilot.app.screen
        assert isinstance(screen, SolverScreen)
        monkeypatch.setattr(solver_module.time, "perf_counter", lambda: screen.started + seconds)
        shown(screen)
        await pilot.pause()

    return run


def test_solver_running(snap_compare, bt_folder: Path, monkeypatch) -> None:
    """The picture while a search runs; the search itself is held back so that the numbers
    shown are fixed (progress as the solver would report it, at a frozen time)."""
    def shown(screen) -> None:
        screen._progress(screen.job, 12_345, 7)

    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=SMALL,
                        run_before=_held_solver(monkeypatch, 1.5, shown))


def test_solver_running_with_a_line_found(snap_compare, bt_folder: Path, monkeypatch) -> None:
    """All at once, after best first found a line and while the others look for a shorter."""
    from studio.engines.btree.search.portfolio import Found, Member

    def shown(screen) -> None:
        screen._progress(screen.job, 23_456, 31)
        screen._line(screen.job, Found(Member("best"), 33, 2.5, False))

    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=SMALL,
                        run_before=_held_solver(monkeypatch, 4.0, shown))


def test_solver_done_without_a_line(snap_compare, bt_folder: Path, monkeypatch) -> None:
    """All at once, its minute up with no line: the count shown is breadth first's, and says so,
    with what the three searches did together under it (the progress had counted them all)."""
    from studio.engines.btree.search.portfolio import Member, PortfolioResult
    from studio.engines.btree.search.solver import SolveResult

    def shown(screen) -> None:
        screen._progress(screen.job, 2_400_000, 417)
        members = [(Member("bfs", share=0.25), SolveResult(False, states=284_000, depth=36, reason="time")),
                   (Member("astar", 3), SolveResult(False, states=1_210_000, depth=354, reason="time")),
                   (Member("best", macro=True), SolveResult(False, states=1_300_000, depth=417, reason="time"))]
        screen.job.portfolio = PortfolioResult(best=members[0][1], members=members, elapsed=60.0, reason="time")
        screen._finished(screen.job, members[0][1])

    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=SMALL,
                        run_before=_held_solver(monkeypatch, 60.0, shown))


def test_tree_editor_export_dialog(snap_compare, bt_folder: Path) -> None:
    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml"), terminal_size=SMALL,
                        run_before=keys("x"))


def test_replay_viewer(snap_compare, bt_folder: Path) -> None:
    from tests.btree_ui.test_replay_viewer import record

    replay, _choices = record(bt_folder / "tic-tac-toe.toml")
    assert snap_compare(studio_app(replay), terminal_size=SMALL, run_before=keys("right", "right", "right"))


def test_home_lists_a_saved_run(snap_compare, bt_folder: Path) -> None:
    from tests.btree_ui.test_replay_viewer import record
    from tests.conftest import fix_times
    from tests.ui_helpers import home_read

    record(bt_folder / "tic-tac-toe.toml")
    fix_times(bt_folder)

    async def select_replay(pilot) -> None:
        await home_read(pilot)
        await pilot.press("end")

    assert snap_compare(studio_app(bt_folder), terminal_size=SMALL, run_before=select_replay)


def test_settings_screen(snap_compare, bt_folder: Path) -> None:
    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml"), terminal_size=SMALL,
                        run_before=keys("comma"))


def test_play_choice_list_cut_with_the_place_first(snap_compare, tmp_path: Path) -> None:
    # Nine moves alike but for their place, each line longer than the pane (80×24).
    game = tmp_path / "lamps.toml"
    game.write_text((Path(__file__).parent / "data" / "lamps.toml").read_text("utf-8"), "utf-8")
    assert snap_compare(studio_app(game), terminal_size=SMALL, run_before=play())


def test_play_empty_board_in_the_ansi_theme(snap_compare, bt_folder: Path) -> None:
    # An all-"_" board with every cell offered: dots and untinted separators show the cells.
    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml", "ansi"), terminal_size=SMALL,
                        run_before=play())


def test_play_board_cut_by_its_pane(snap_compare, bt_folder: Path) -> None:
    # Cells widened past the pane, the board cursor at the left edge: the right side is marked.
    assert snap_compare(studio_app(bt_folder / "sokoban.toml"), terminal_size=SMALL,
                        run_before=play(*"+" * 8, *["shift+left"] * 3))


def test_tree_editor_with_a_refused_field(snap_compare, bt_folder: Path) -> None:
    async def run(pilot) -> None:
        pilot.app.screen.select((1,))
        await pilot.press("enter", "tab")
        pilot.app.focused.value = "two words"
        await pilot.press("enter")  # refused: kept, marked, the reason under it
        await workers_done(pilot, "compile")
        await pilot.pause(0.5)

    assert snap_compare(studio_app(bt_folder / "tic-tac-toe.toml"), terminal_size=SMALL,
                        run_before=run)


@pytest.mark.parametrize("size", [SMALL, (60, 20)])
def test_import_dialog_with_missing_links_empty(snap_compare, bt_folder: Path, size) -> None:
    from tests.btree.trrbt_texts import TTT_YAML
    from tests.conftest import fix_times
    from tests.ui_helpers import home_read

    (bt_folder / "ttt.yaml").write_text(TTT_YAML)
    fix_times(bt_folder)

    async def open_dialog(pilot) -> None:
        await home_read(pilot)
        home = pilot.app.screen
        row = [entry.name for entry in home.entries].index("tiny tic-tac-toe")
        home.query_one("DataTable").move_cursor(row=row)
        await pilot.press("enter", "down")
        await pilot.pause(0.3)

    assert snap_compare(studio_app(bt_folder), terminal_size=size, run_before=open_dialog)


@pytest.mark.parametrize(("size", "theme"), [(SMALL, None), ((120, 40), None), (SMALL, "ansi")])
def test_play_with_sprite_images(snap_compare, bt_folder: Path, size, theme) -> None:
    """Images as half-block pixels where they fit; the ANSI theme keeps the glyphs."""
    from tests.btree.sprite_data import sokoban_with_sprites

    sokoban_with_sprites(bt_folder / "sokoban.toml")

    async def run(pilot) -> None:
        await pilot.press("g")
        await settle(pilot, pilot.app.screen)
        await pilot.pause(0.3)

    assert snap_compare(studio_app(bt_folder / "sokoban.toml", theme), terminal_size=size,
                        run_before=run)
