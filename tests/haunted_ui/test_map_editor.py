"""The Haunted Tiles map editor driven with keys; assertions on the model and the saved file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input

from studio.engines.haunted.map_edit import MapDraft, fairness
from studio.screens.dialogs import ConfirmDialog, NameDialog
from studio.screens.haunted.map_editor import MapEditorScreen
from studio.screens.haunted.map_picker import MapPickerDialog
from studio.screens.haunted.match_view import MatchViewScreen
from studio.storage import check_project, dumps_project, load_project
from studio.storage.haunted.maps import draft_of, map_names
from studio.widgets.board import Board
from studio.widgets.dialogs import ErrorDialog
from tests.ui_helpers import studio_app


async def open_editor(pilot, *keys: str) -> MapEditorScreen:
    await pilot.pause()
    await pilot.press("p", *keys)
    await pilot.pause()
    [editor] = [s for s in pilot.app.screen_stack if isinstance(s, MapEditorScreen)]
    return editor


def draft(editor: MapEditorScreen, index: int | None = None) -> MapDraft:
    index = editor.index if index is None else index
    return draft_of(editor.model.map_tables[index], index)


def tools(editor: MapEditorScreen) -> str:
    return editor.query_one("#tools").text.replace("\n", " ")


async def answer(pilot, text: str) -> None:
    """Type ``text`` into the open name dialog and accept it."""
    await pilot.pause()
    assert isinstance(pilot.app.screen, NameDialog)
    pilot.app.screen.query_one("#name", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


async def test_paint_a_symmetric_map_with_starts_and_save_it(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "n")
        await answer(pilot, "Crossing")
        assert editor.index == 10 and draft(editor).name == "Crossing"
        await pilot.press("y", "y", "y")  # both
        await pilot.press("down", "down", "right", "right", "0", "right", "1")
        # "both" includes the top/bottom mirror: a home start places its away twin.
        await pilot.press("up", "h", "2", "left", "left", "left", "h", "1")
        made = draft(editor)
        assert made.rows() == ["3333333", "3333333", "3301033", "3333333", "3301033",
                               "3333333", "3333333"]
        assert made.home == ((1, 0), (1, 3), (0, 6)) and made.away == ((5, 0), (5, 3), (6, 6))
        assert fairness(made).modes == ["top/bottom"]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not editor.document.dirty
    text = ht_project.read_text()
    saved = load_project(ht_project)
    assert dumps_project(saved) == text  # the saved file is canonical: reload and save agree
    check_project(saved)
    assert draft_of(saved.body["map"][10], 10) == made


async def test_undo_and_redo_take_a_pen_stroke_as_one_step(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(pilot, "down", "right", "1")
        await pilot.press("p", "right", "right", "down", "p", "down")  # pen up: no paint
        painted = [(1, 1), (1, 2), (1, 3), (2, 3)]
        assert [draft(editor).at(*t) for t in painted] == [1, 1, 1, 1]
        assert draft(editor).at(3, 3) == 3
        history = editor.document.history
        assert len(history) == 2 and history.undo_label == "stroke of 1"
        await pilot.press("ctrl+z")
        assert [draft(editor).at(*t) for t in painted] == [1, 3, 3, 3]
        await pilot.press("ctrl+z")
        assert draft(editor).strengths == (3,) * 49 and not editor.document.dirty
        await pilot.press("ctrl+y", "ctrl+y")
        assert [draft(editor).at(*t) for t in painted] == [1, 1, 1, 1]


async def test_undo_shows_the_map_it_changed(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(pilot, "down", "2", "right_square_bracket")
        assert editor.index == 1
        await pilot.press("ctrl+z")
        assert editor.index == 0 and draft(editor).at(1, 0) == 3


async def test_start_tools_follow_h_or_a_then_a_digit(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(pilot, "down", "down", "a", "3")
        assert draft(editor).away[2] == (2, 0) and editor.brush == "A2"
        await pilot.press("h")
        assert "press 1, 2 or 3 for H0" in tools(editor)
        await pilot.press("right", "2")  # a move drops the pending start: 2 is a brush again
        assert draft(editor).at(2, 1) == 2 and draft(editor).home == ((0, 0), (0, 3), (0, 6))
        await pilot.press("y", "y", "a", "1")  # top/bottom: A0 here, H0 at the mirror
        assert draft(editor).away[0] == (2, 1) and draft(editor).home[0] == (4, 1)


async def test_fairness_check_on_a_fair_and_an_unfair_map(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "right_square_bracket", "c")
        assert "✓ fair: symmetric under top/bottom and point" in tools(editor)
        await pilot.press("down", "right", "2")
        text = tools(editor)
        assert "✗ not fair" in text and "top/bottom: strengths differ at (1,1)≠(5,1)" in text
        assert "point: strengths differ at (1,1)≠(5,5)" in text
        await pilot.press("c")
        assert "fair" not in tools(editor)


async def test_resize_crops_to_the_top_left_and_resets_the_starts(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, *["right_square_bracket"] * 7, "r")
        before = draft(editor)
        assert before.name == "Cracked 9"
        await answer(pilot, "5")
        after = draft(editor)
        assert after.size == 5 and after.rows() == [row[:5] for row in before.rows()[:5]]
        assert after.home == ((0, 0), (0, 2), (0, 4)) and after.away == ((4, 0), (4, 2), (4, 4))
        assert editor.query_one(Board).renderer.width == 5
        await pilot.press("ctrl+z")
        assert draft(editor) == before


async def test_an_invalid_map_is_flagged_and_not_saved(ht_project: Path) -> None:
    before = ht_project.read_bytes()
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "0")
        assert draft(editor).at(0, 0) == 0  # kept, not fixed
        assert "✗ H0 starts on a hole at (0,0)" in tools(editor)
        await pilot.press("ctrl+s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ErrorDialog) and dialog.error.field_path == ("map", 0, "home", 0)
        assert dialog.error.file == ht_project  # the dialog showed "File  -"
        assert ht_project.read_bytes() == before and editor.document.dirty
        await pilot.press("escape", "3", "ctrl+s")
        await pilot.pause()
        assert app.screen is editor and not editor.document.dirty
    check_project(load_project(ht_project))


async def test_import_an_original_maps_json(ht_project: Path, tmp_path: Path) -> None:
    source = tmp_path / "maps.json"
    source.write_text(json.dumps({"maps": [
        {"name": "Default", "tiles": []},
        {"name": "Dots", "tiles": [{"x": 1, "y": 2, "status": 0}, {"x": 5, "y": 4, "status": 2}]},
    ]}))
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "i")
        await answer(pilot, str(tmp_path / "missing.json"))
        assert isinstance(app.screen, NameDialog)  # the dialog stays open and says why
        assert "no such file" in str(app.screen.query_one("#problem").render())
        await answer(pilot, str(source))
        assert map_names(editor.model)[-2:] == ["Default (2)", "Dots"]
        assert editor.index == 10
        dots = draft(editor, 11)
        assert dots.at(1, 2) == 0 and dots.at(5, 4) == 2
        await pilot.press("ctrl+z")
        assert len(editor.model.map_tables) == 10


async def test_maps_list_new_duplicate_rename_and_delete(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "m")
        assert isinstance(app.screen, MapPickerDialog)
        await pilot.press("down", "enter")
        assert editor.index == 1 and draft(editor).name == "WaffleTown"
        await pilot.press("m", "d")
        await answer(pilot, "Waffle Two")
        assert editor.index == 10 and draft(editor).rows() == draft(editor, 1).rows()
        await pilot.press("m", "up", "up", "up", "up", "up", "up", "up", "up", "up", "up", "e")
        await answer(pilot, "Pl, ain")  # a rotation field could not name it: refused, and why
        assert isinstance(app.screen, NameDialog)
        assert "comma" in str(app.screen.query_one("#problem").render())
        await answer(pilot, "Plain")  # "Default", renamed everywhere the rotation plays it
        rotation = editor.model.body["match"]["maps"]
        assert map_names(editor.model)[0] == "Plain" and rotation.count("Plain") == 2
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")  # the safe answer
        assert map_names(editor.model)[0] == "Plain"
        await pilot.press("delete", "y")
        await pilot.pause()
        assert "Plain" not in map_names(editor.model)
        assert editor.model.body["match"]["maps"] == ["I(n) The Middle", "WaffleTown", "Hourglass"]
        assert editor.model.problems() == []
        await pilot.press("ctrl+z")
        assert map_names(editor.model)[0] == "Plain"


async def test_a_click_paints_the_tile(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "1")  # brush 1 (painted at (0,0) too)
        await pilot.click(Board, offset=(2 * 4 + 1, 3 * 2))
        assert editor.query_one(Board).cursor == (2, 3) and draft(editor).at(3, 2) == 1


async def test_quick_test_pushes_the_match_view_with_a_one_round_plan(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "right_square_bracket", "down", "right", "0", "t")
        await pilot.pause()
        assert isinstance(app.screen, MatchViewScreen)
        plan = app.screen.plan
        board = draft(editor).to_map()
        assert (plan.home, plan.away) == ("builtin:greedy", "builtin:greedy")
        config = plan.config
        assert (config.rounds, config.max_rounds, config.maps) == (1, 1, ("WaffleTown",))
        assert plan.maps == {"WaffleTown": board}
        assert plan.extra == {"note": "quick test of WaffleTown"} and plan.teams == ()
        assert plan.folder == editor.folder and isinstance(plan.seed, int)


async def test_quick_test_refuses_an_invalid_map(ht_project: Path, monkeypatch) -> None:
    import studio.screens.haunted.map_editor as module

    monkeypatch.setattr(module, "make", lambda *a, **k: pytest.fail("pushed a match"))
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "0", "t")
        assert app.screen is editor


async def test_every_key_is_in_the_help_and_the_palette_runs_the_actions(ht_project: Path) -> None:
    from studio.screens.help import binding_rows

    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(pilot)
        rows = dict((description, keys) for keys, description in binding_rows(editor))
        assert rows["Strength brush (paints here)"] == "0 1 2 3"
        for description in ("Home start: then 1-3", "Away start: then 1-3", "Paint", "Pen",
                            "Symmetry", "Resize", "Fairness on/off", "Test", "Maps", "Previous map",
                            "Next map", "New map", "Duplicate map", "Rename map", "Delete map",
                            "Import maps.json", "Back", "Save", "Fairness by simulation"):
            assert description in rows, description
        titles = {title: action for title, _help, action in editor.palette_commands()}
        assert {"Check fairness", "Resize the map…", "Import maps.json…", "New map…",
                "Quick test", "Brush 0", "Simulate fairness"} <= set(titles)
        assert rows["Fairness by simulation"] == "f"
        await editor.run_action(titles["Check fairness"])
        assert "Fairness" in tools(editor)
        await editor.run_action(titles["New map…"])
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)


@pytest.fixture
def quick_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Few rounds, a fixed clock, and no warm-up process (the kernel loads or compiles here)."""
    from studio.screens.haunted import map_fairness

    monkeypatch.setattr(map_fairness, "ROUNDS", 400)
    monkeypatch.setattr(map_fairness, "PLAIN_ROUNDS", 400)
    ticks = iter(range(0, 1000, 2))
    monkeypatch.setattr(map_fairness, "clock", lambda: next(ticks) / 10)
    monkeypatch.setattr(map_fairness.warmup, "ready", lambda module: True)


async def simulated(pilot) -> None:
    """Wait for the simulation's worker and the lines it posts."""
    busy = [worker for worker in pilot.app.workers if worker.group == "fairness"]
    if busy:
        await pilot.app.workers.wait_for_complete(busy)
    await pilot.pause()
    await pilot.pause()


async def test_f_simulates_the_map_on_a_worker_and_shows_the_result(ht_project: Path,
                                                                    quick_simulation) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "right_square_bracket")  # WaffleTown
        assert "Fairness by simulation" not in tools(editor)
        await pilot.press("f")
        await simulated(pilot)
        text = tools(editor)
        assert "Fairness by simulation (f)" in text and "simulating" not in text
        assert "safe" in text and "lookahead~0.2" in text and "safe vs greedy~0.2" in text
        assert "home wins, 400 rounds a pair, 0.2 s" in text
        assert "✓ balanced for every pair" in text, text
        assert "of an earlier version" not in text
        await pilot.press("down", "0")  # an edit: the result is about the map before it
        assert "of an earlier version: f again" in tools(editor)
        await pilot.press("right_square_bracket")  # another map: none of that result shows
        assert "Fairness by simulation" not in tools(editor)
        await pilot.press("left_square_bracket")  # back: still there, still stale
        assert "of an earlier version: f again" in tools(editor)


async def test_f_refuses_an_invalid_map(ht_project: Path, quick_simulation) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(pilot, "0", "f")  # a hole under H0
        await pilot.pause()
        assert editor.simulated is None and "Fairness by simulation" not in tools(editor)


async def test_the_tools_pane_scrolls_to_a_simulation_result_and_by_page(
        ht_project: Path, quick_simulation) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(pilot, "c", "f")  # the symmetry check and a simulation
        await simulated(pilot)
        pane = editor.query_one("#tools")
        assert pane.max_scroll_y > 0  # too tall for 80×24
        assert pane.scroll_y == pane.max_scroll_y  # the result, at the end, is in view
        # Folded clear of the scroll bar, which covered the lines' last letters.
        assert max(line.cell_length for line in pane.lines) <= pane.scrollable_content_region.width
        await pilot.press("pageup")
        assert pane.scroll_y < pane.max_scroll_y
        await pilot.press("pagedown")
        assert pane.scroll_y == pane.max_scroll_y


def test_an_unbalanced_result_counts_its_pairs_and_leaves_the_figures_to_them() -> None:
    # "favours away by 3.6 points; favours away by 6.0 points; ..." did not say which pair
    # each figure was for; each pair's own line does ("away +3.6").
    from studio.engines.haunted.sim.batch import Policy
    from studio.engines.haunted.sim.fairness import PairResult
    from studio.screens.haunted.map_fairness import result_lines
    from rich.style import Style

    from studio.widgets.canvas import UIStyles

    safe, greedy = Policy("safe"), Policy("greedy", 0.2)
    results = [PairResult(safe, safe.mirror(), 10_000, 5_010, 4_990, 0, 0.1),  # balanced
               PairResult(greedy, greedy.mirror(), 10_000, 4_000, 6_000, 0, 0.1),  # away
               PairResult(safe, greedy.mirror(), 10_000, 2_000, 8_000, 0, 0.1)]  # not equals
    plain = UIStyles(*[Style()] * 11, ansi=False)
    lines = [line.plain for line in result_lines("home wins:", results, plain)]
    assert lines[2].startswith("greedy~0.2") and lines[2].endswith("away +10.0")
    assert lines[-1] == "✗ 1 of 2 pairs of equals unbalanced"


async def test_the_tools_pane_wraps_again_when_a_bigger_map_narrows_it(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(pilot, "c", "r")  # the fairness lines are long
        await answer(pilot, "9")
        await pilot.pause()
        view = editor.query_one("#tools")
        assert draft(editor).size == 9
        assert "Starts    H0 H1 H2  A0 A1 A2" in view.text
        widest = max(strip.cell_length for strip in view.lines)
        assert widest <= view.size.width - view.styles.scrollbar_size_vertical, view.text
