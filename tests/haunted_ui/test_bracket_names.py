"""Team names in the tournament's results pane: whole where the pane has room, else cut with "…"
by the columns they take on the terminal (a wide name cut by ``len`` ran past its cell and the
next column's edge cut it without a mark), and inert (they come from CSV imports)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from rich.style import Style

from studio.engines.common.width import text_width
from studio.engines.haunted.tournament import SINGLE
from studio.screens.haunted.tournament_results import NAME, TEAM, draw
from studio.sessions.haunted.results import Results
from studio.widgets.canvas import UIStyles
from tests.haunted_ui.tournament_helpers import finish, open_screen
from tests.ui_helpers import studio_app

UI = UIStyles(*[Style()] * len(fields(UIStyles)))
LONG = "Tile Counters (Year 9, Okonkwo)"  # 31: whole in a third of 120 columns
WIDE = "幽霊チームのとても長い名前です"  # 15 characters, 30 columns
HOSTILE = "Evil\x1b[2J\x1b]0;pwned\x07 team"
NAMES = [LONG, WIDE, HOSTILE, "Greedy Ghosts"]


def bracket(width: int, names: list[str] = NAMES) -> list[str]:
    lines, _ = draw(Results({"mode": SINGLE, "entrants": names, "seed": 1, "matches": []}), UI,
                    0, "", width)
    return [line.text for line in lines]


def test_names_are_whole_where_the_pane_has_room() -> None:
    shown = "\n".join(bracket(118))
    assert LONG in shown and WIDE in shown
    assert "\x1b" not in shown and "\x07" not in shown  # escapes shown, never sent
    assert "Evil\\x1b[2J\\x1b]0;pwned\\x07 team" in shown
    assert all(text_width(line) <= 118 for line in bracket(118))


def test_names_too_long_for_the_pane_end_in_an_ellipsis_within_their_cell() -> None:
    lines = bracket(78, [*NAMES, "Idle Imps"])  # five: three columns, names of 19
    assert all(text_width(line) <= 78 for line in lines)
    shown = "\n".join(lines)
    assert LONG not in shown and LONG[:18] + "…" in shown
    assert WIDE not in shown and WIDE[:9] + "…" in shown  # 18 columns of wide letters and "…"
    assert "Evil\\x1b[2J\\x1b]0;…" in shown  # cut after the escapes are written out
    # Each name takes its cell's columns whatever its letters: the next column starts at one
    # place on every line (the wide name, cut by characters, pushed it along).
    second = lines[0].index("semi-final")
    assert second == 19 + 6 + 1
    for line in lines[2:]:
        assert at_column(line, second - 1) == " ", line  # the gap, not a letter run over it


def at_column(line: str, column: int) -> str:
    """The character drawn at a terminal column."""
    x = 0
    for char in line:
        if x <= column < x + text_width(char):
            return char
        x += text_width(char)
    return ""


def test_short_names_keep_the_usual_cell() -> None:
    lines = bracket(200, ["A", "B", "C", "D"])
    assert lines[0].rindex("final") == NAME + 6 + 1


def test_a_narrow_pane_scrolls_rather_than_cutting_names_to_nothing() -> None:
    eight = [f"{LONG} {k}" for k in range(8)]
    lines = bracket(60, eight)
    assert lines[0].index("semi-final") == NAME + 6 + 1  # never narrower than it was
    assert f"{LONG[:NAME - 1]}…" in "\n".join(lines)


def test_the_standings_and_match_list_show_names_whole_where_there_is_room() -> None:
    document = {"mode": "round-robin", "entrants": NAMES, "seed": 1, "scheduled": 6,
                "matches": [{"number": 1, "stage": "round 1", "home": LONG, "away": WIDE,
                             "winner": WIDE, "wins": {LONG: 0, WIDE: 1}, "ties": 0}]}
    wide = [line.plain for line in draw(Results(document), UI, 0, "", 118)[0]]
    assert sum(LONG in line for line in wide) == 2 and sum(WIDE in line for line in wide) == 2
    assert len({text_width(line) for line in wide[:5]}) == 1  # Elo in one column, wide or not
    narrow = [line.plain for line in draw(Results(document), UI, 0, "", 50)[0]]
    assert all(LONG not in line for line in narrow)
    assert sum(f"{LONG[:TEAM - 1]}…" in line for line in narrow) == 2


def long_names(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for old, new in (("Lookahead Ghouls", LONG), ("Greedy Ghosts", WIDE),
                     ("Cautious Creepers", "Cautious Creepers of the Old Mill School")):
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_screen_gives_the_bracket_its_panes_width(ht_project: Path, size) -> None:
    long_names(ht_project)
    app = studio_app(ht_project)
    async with app.run_test(size=size) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.pause()
        shown = screen.query_one("#results").text
        assert (LONG in shown) == (size[0] == 120), shown
        assert WIDE[:6] in shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_long_names_bracket_snapshot(snap_compare, ht_project: Path, size) -> None:
    long_names(ht_project)

    async def run(pilot) -> None:
        screen = await open_screen(pilot.app, pilot)
        await pilot.press("enter")
        await finish(pilot, screen)
        await pilot.press("shift+tab", "right")
        await pilot.pause(0.3)

    assert snap_compare(studio_app(ht_project), terminal_size=size, run_before=run)


async def test_a_long_tournament_name_ends_in_an_ellipsis(ht_project: Path) -> None:
    name = "Inner school championship of 2026"
    text = ht_project.read_text(encoding="utf-8")
    ht_project.write_text(text.replace('"Built-in cup"', f'"{name}"'), encoding="utf-8")
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(app, pilot)
        await pilot.pause()
        assert screen.tournament_name == name
        shown = screen.query_one("#tournaments").text.splitlines()[0]
        assert shown == " Inner school…", shown  # 17 columns less the border


def test_a_wide_entrant_name_is_cut_by_its_columns_with_the_ellipsis_flush(
        ht_project: Path) -> None:
    from studio.screens.haunted.tournament_panes import entrant_lines
    from studio.storage import load_project
    from studio.storage.haunted.project import project_model

    model = project_model(load_project(ht_project))
    model.tournament_tables[0]["entrants"] = [WIDE, "Greedy Ghosts"]
    for width in (20, 21, 30):  # a cut on a wide letter's first and second column
        lines = [line.plain for line in entrant_lines(model, 0, UI, width)]
        assert all(text_width(line) <= width for line in lines), lines
        assert lines[0].endswith("…") and not lines[0].endswith(" …"), lines[0]
        assert text_width(lines[0]) >= width - 1, lines[0]  # no column left for nothing
