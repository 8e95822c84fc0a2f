"""The rule selector: every cell makes the rule the spec describes, its caption, its cursor."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.engines.tilecode.selector import SELECTOR_CELLS, STOPS, grid_position, rule_key
from studio.screens.tilecode.rule_editor import RuleEditorScreen
from studio.screens.tilecode.selector import RuleSelectorScreen
from studio.storage.tilecode.check import rule_problems
from tests.tilecode_ui.helpers import app_on, game_of
from tests.tilecode_ui.rule_helpers import goto


@pytest.mark.parametrize("cell", SELECTOR_CELLS, ids=lambda c: f"{c.quadrant}-{c.key}")
async def test_every_selector_cell_creates_the_rule_the_spec_describes(tc_folder: Path,
                                                                       cell) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        selector = app.screen
        assert isinstance(selector, RuleSelectorScreen)
        await pilot.press("3")  # the cat: not the player kind
        await goto(pilot, selector, grid_position(cell))
        await pilot.press("enter")
        assert isinstance(app.screen, RuleEditorScreen)
        (rule,) = game_of(app).rules
        assert rule_key(rule) == (cell.rule_type, cell.key)
        assert rule.centre.include == {"s2"} and rule.transforms == "none"
        assert not [p for p in rule_problems(rule) if p.is_error]


async def test_the_selector_caption_fits_80_columns_on_the_kinds_and_on_cells(
        tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        selector = app.screen
        for target, words in (((0, 0), "1-4 or enter on a kind chooses it"),
                              ((3, 2), "change · moved: no rules yet")):
            await goto(pilot, selector, target)
            lines = selector.query_one("#selector").text.splitlines()
            assert any(words in line for line in lines)
            assert all(len(line.rstrip()) <= 78 for line in lines)  # was cut at the edge


async def test_the_selector_cursor_never_stops_on_a_blank_cell(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        selector = app.screen
        seen = {selector.cursor}
        for key in ("up", "right", "right", "down", "down", "down", "left", "left", "left",
                    "down", "right", "down", "right", "right", "up", "up", "up", "left") * 3:
            await pilot.press(key)
            seen.add(selector.cursor)
            assert selector.cursor in STOPS, f"{key} stopped on the blank {selector.cursor}"
            assert "no rules go here" not in selector.query_one("#selector").text
        assert len(seen) > 12
        # The arms of a quadrant are one press apart, over the blank (the smash sprite between).
        await goto(pilot, selector, (1, 4))  # smash left
        await pilot.press("right")
        assert selector.cell.quadrant == "smash" and selector.cell.key == "right"
        await pilot.press("left", "up")  # back to smash left, then up past the blank above it
        assert (selector.cell.quadrant, selector.cell.key) == ("change", "resting")
        # Past an edge the cursor wraps to the other side of the same line.
        await goto(pilot, selector, (2, 5))  # smash down
        await pilot.press("down")
        assert (selector.cell.quadrant, selector.cell.key) == ("change", "up")
        await goto(pilot, selector, (6, 1))  # press right
        await pilot.press("right")
        assert selector.cursor == (0, 1) and selector.cell is None  # the second sprite kind


async def test_player_rules_start_generalised_and_enter_opens_existing_rules(
        tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        selector = app.screen
        right = next(c for c in SELECTOR_CELLS if c.quadrant == "press" and c.key == "right")
        await goto(pilot, selector, grid_position(right))
        assert "press · dpad right: no rules yet; enter creates one." in selector.query_one(
            "#selector").text
        await pilot.press("enter")
        rule = game_of(app).rules[0]
        assert rule.type == "press" and rule.button == "right"
        assert rule.transforms == "rotate-3-way"  # kind 0 is the player (§5)
        await pilot.press("escape", "escape")  # to the top row, then back to the selector
        assert app.screen is selector
        assert "press · dpad right: 1 rule;" in selector.query_one("#selector").text
        await pilot.press("enter")
        assert app.screen.rule_id == rule.id and len(game_of(app).rules) == 1
        await pilot.press("escape", "escape", "n")  # n adds another rule in the same cell
        assert [r.id for r in game_of(app).rules] == [0, 1]


async def test_at_60_columns_the_view_follows_the_cursor_and_its_caption(tc_folder: Path) -> None:
    # The picture is 79 columns wide: the press and misc cells were reached out of sight.
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("c")
        selector = app.screen
        view = selector.query_one("#selector")
        for target in sorted(STOPS, key=lambda at: (at[0] > 3, at)):
            await goto(pilot, selector, target)
            await pilot.pause()
            shown = [view.render_line(y).text for y in range(view.size.height)]
            start, end = selector._cursor_span()
            left = int(view.scroll_offset.x)
            assert left <= start and end <= left + view.scrollable_content_region.width, target
            caption = "1-4 or enter" if selector.cell is None else selector.cell.caption
            assert any(caption in line for line in shown), (target, shown)
        await goto(pilot, selector, (6, 1))  # press right, at the far edge
        assert view.scroll_offset.x > 0
        await pilot.resize_terminal(100, 24)
        await pilot.pause()
        assert view.scroll_offset.x == 0  # the whole picture fits again
        assert any("player — press · dpad right" in line
                   for line in view.text.splitlines()[10:11])
