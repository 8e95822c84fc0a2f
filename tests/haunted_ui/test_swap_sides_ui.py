"""The match setup says what swapping sides changes, and starts ticked in a new project."""

from __future__ import annotations

from pathlib import Path

from studio.screens.haunted.setup import MatchSetupScreen
from studio.storage import create_project
from studio.widgets.toggles import Checkbox
from tests.ui_helpers import studio_app


async def test_the_setup_says_what_swapping_changes(ht_project: Path) -> None:
    # The sample swaps as new projects do: with one team home in every round, home acts first
    # in each phase and the fairness check shows the advantage.
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        screen = app.screen
        assert isinstance(screen, MatchSetupScreen)
        note = screen.query_one("#swap-note")
        assert screen.query_one("#swap", Checkbox).value
        assert screen.plan().config.swap_sides is True
        assert "home and away change every round, so neither team always acts first" in str(
            note.render())
        screen.query_one("#swap", Checkbox).value = False
        await pilot.pause()
        assert "home every round and acts first" in str(note.render())
        assert screen.plan().config.swap_sides is False


async def test_a_new_project_s_match_swaps_sides(tmp_path: Path) -> None:
    project = create_project(tmp_path, "haunted", "Cup").path
    app = studio_app(project)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        screen = app.screen
        assert isinstance(screen, MatchSetupScreen)
        assert screen.query_one("#swap", Checkbox).value
        assert screen.plan().config.swap_sides is True


async def test_the_swap_note_folds_under_its_box_at_60_columns(ht_project: Path) -> None:
    # Its second line started at the screen's edge, under the box, read as another field.
    app = studio_app(ht_project)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        note = app.screen.query_one("#swap-note")
        lines = [note.render_line(y).text for y in range(note.size.height)]
        assert len(lines) == 2 and not any(line.startswith(" ") for line in lines), lines
        # Both lines start two columns in: the indent is the widget's, not the text's.
        assert note.content_region.x == note.region.x + 2
