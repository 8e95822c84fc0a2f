"""The tournament screen at 80×24: entrants' names whole ("Tile Counters (" was all of one)."""

from __future__ import annotations

from pathlib import Path

from tests.haunted_ui.tournament_helpers import open_screen
from tests.ui_helpers import studio_app

LONG = "Tile Counters (Year 9)"


async def test_entrants_names_are_whole_at_80_columns(ht_project: Path) -> None:
    ht_project.write_text(ht_project.read_text().replace("Idle Imps", LONG))
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.pause()
        pane = screen.query_one("#entrants")
        shown = pane.text.splitlines()
        assert any(LONG in line for line in shown), shown


def test_seeding_by_school_size_without_sizes_says_it_would_change_nothing(
        ht_project: Path) -> None:
    import pytest

    from studio.screens.haunted import tournament_setup as setup
    from studio.storage import load_project
    from studio.storage.haunted.project import project_model

    model = project_model(load_project(ht_project))  # the sample's teams have no sizes
    with pytest.raises(setup.SetupError, match="would change nothing: no entrant has a school"):
        setup.step_field(model, 0, "seeding", 1)
    same = model.with_table("team", [{**t, "school_size": 300} for t in model.team_tables])
    with pytest.raises(setup.SetupError, match="the same size"):
        setup.step_field(same, 0, "seeding", 1)
    # A project that already says school-size shows that it seeds by registration order.
    tables = model.tournament_tables
    tables[0]["seeding"] = "school-size"
    said = model.with_table("tournament", tables)
    row = next(f for f in setup.fields(said, 0) if f.key == "seeding")
    assert row.value == "school size (none)"
    sized = said.with_table("team", [{**t, "school_size": 10 * k}
                                     for k, t in enumerate(model.team_tables)])
    assert next(f for f in setup.fields(sized, 0) if f.key == "seeding").value == "school size"


async def test_the_refusal_is_shown_on_the_screen(ht_project: Path) -> None:
    app = studio_app(ht_project)
    notes: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        screen.notify = lambda message, **kw: notes.append(str(message))
        await pilot.press("tab", "tab", "down", "space")  # settings: seeding
        await pilot.pause()
        assert screen.model.tournament_tables[0].get("seeding", "registration") == "registration"
    assert any("would change nothing" in note for note in notes), notes


def test_long_entrant_snapshot(snap_compare, ht_project: Path) -> None:
    ht_project.write_text(ht_project.read_text().replace("Idle Imps", LONG))
    assert snap_compare(studio_app(ht_project), terminal_size=(80, 24), press=["t"])


async def test_settings_cut_before_the_scrollbar_end_in_an_ellipsis(ht_project: Path) -> None:
    # The settings pane scrolls at 80×24 (swap sides is its eighth line): the maps' value was
    # cut for the whole width, and the scrollbar hid its "…" and the letters before it.
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.pause()
        pane = screen.query_one("#settings")
        assert pane.text_width < pane.content_size.width  # the scrollbar is there
        maps = next(line for line in pane.text.splitlines() if line.startswith(" maps"))
        assert maps.rstrip().endswith("…") and len(maps.rstrip()) <= pane.text_width, maps


async def test_the_pane_the_keys_go_to_differs_in_shape_not_only_colour(ht_project: Path) -> None:
    # Told apart by colour alone, space and enter went to the wrong pane on a plain terminal.
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        panes = ["#tournaments", "#entrants", "#settings", "#results"]
        for _ in panes:
            await pilot.pause()
            edges = {name: screen.query_one(name).styles.border_top[0] for name in panes}
            active = [name for name, edge in edges.items() if edge == "heavy"]
            assert len(active) == 1 and screen.query_one(active[0]).has_class("-active"), edges
            assert set(edges.values()) == {"heavy", "round"}, edges
            await pilot.press("tab")
