"""Rule editor and generalise, driven with keys; assertions on the model (the selector:
test_rule_selector.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.engines.tilecode.model import Command
from studio.screens.tilecode.generalise import GeneraliseScreen
from studio.screens.tilecode.rule_cells import move
from studio.screens.tilecode.rule_editor import RuleEditorScreen, cell_grid
from studio.screens.tilecode.selector import RuleSelectorScreen
from studio.widgets.lines import LinesView
from tests.tilecode_ui.helpers import app_on, game_of
from tests.tilecode_ui.rule_helpers import goto, open_new_rule, position_of
from tests.ui_helpers import wait_until


async def test_the_attribute_menu_toggles_each_attribute_exclusively(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "press", "right")
        await goto(pilot, editor, position_of(editor, ("tile", 3, 2)))
        await pilot.press("enter")
        await pilot.press("i", "2", "6")  # include grass, include the second sprite
        record = editor.rule.tile(3, 2)
        assert record.include == {"b1", "s1"}
        await pilot.press("apostrophe", "2")  # include′ grass: leaves include
        record = editor.rule.tile(3, 2)
        assert record.include == {"s1"} and record.include2 == {"b1"}
        await pilot.press("e", "1", "6")  # exclude brick, and the sprite moves to exclude
        record = editor.rule.tile(3, 2)
        assert record.exclude == {"b0", "s1"} and record.include == frozenset()
        await pilot.press("e", "1")  # toggling again makes it don't-care
        assert editor.rule.tile(3, 2).exclude == {"s1"}
        await pilot.press("r")
        assert editor.rule.tile(3, 2) is None  # reset: nothing left on the tile
        await pilot.press("escape")
        assert app.focused is None and not editor.query_one("#menu").display
        # Seven edits, each one undo step, and redo walks forward again.
        for _ in range(7):
            await pilot.press("ctrl+z")
        assert editor.rule.tile(3, 2) is None and editor.document.history.can_undo
        await pilot.press("ctrl+y", "ctrl+y")
        assert editor.rule.tile(3, 2).include == {"b1", "s1"}


async def test_directions_buttons_and_commands_through_the_menus(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "change", "any", kind="2")
        # The centre row's witness: the rule's direction.
        await goto(pilot, editor, position_of(editor, ("witness", 2, 2)))
        await pilot.press("enter")
        await pilot.press("r")  # resting: no arrow stands for it, so a letter does
        assert editor.rule.centre.dir == "resting"
        await pilot.press("enter", "down")  # an arrow chooses its own direction at once
        assert editor.rule.centre.dir == "down" and not editor.query_one("#menu").display
        await pilot.press("enter", "a")
        assert editor.rule.centre.dir == "any"
        # Commands on the centre row: move, then paint, then game; each verb once.
        slot0 = position_of(editor, ("cmd", 2, 2, 0))
        await goto(pilot, editor, slot0)
        await pilot.press("enter")
        menu = editor.query_one("#menu")
        assert [item.key[1] for item in menu.rows[0]] == ["move", "destroy", "paint", "create",
                                                          "block", "portal", "game"]
        await pilot.press("enter", "up")  # move, then ↑ up
        assert editor.rule.centre.do == (Command("move", "up"),)
        await pilot.press("right", "enter")  # slot 1: move and destroy are not offered now
        assert [item.key[1] for item in menu.rows[0]] == ["paint", "create", "block", "portal",
                                                          "game"]
        await pilot.press("enter", "right", "right", "enter")  # paint b2
        await pilot.press("right", "enter")
        await pilot.press("right", "right", "right", "enter", "right", "right", "enter")  # game
        assert [c.text for c in editor.rule.centre.do] == ["move up", "paint b2", "game score"]
        # Editing an existing command offers its arguments and delete.
        await goto(pilot, editor, slot0)
        await pilot.press("enter")
        assert menu.rows[0][-1].key == ("delete",)
        await pilot.press("left")  # move left
        assert editor.rule.centre.do[0] == Command("move", "left")
        await pilot.press("delete")
        assert [c.text for c in editor.rule.centre.do] == ["paint b2", "game score"]


async def test_smash_rules_offer_stop_and_only_two_tiles(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "smash", "left", kind="1")
        tiles = {k[1:] for k in cell_grid(editor.rule).values() if k[0] == "tile"}
        assert tiles == {(2, 2), (1, 2)}
        await goto(pilot, editor, position_of(editor, ("cmd", 2, 2, 0)))
        await pilot.press("enter", "enter")
        menu = editor.query_one("#menu")
        assert [item.key for item in menu.rows[0]] == [("arg", "stop")]
        await pilot.press("enter")
        assert editor.rule.centre.do == (Command("move", "stop"),)
        said = []
        app.notify = lambda message, **kw: said.append(message)
        await goto(pilot, editor, position_of(editor, ("tile", 1, 2)))
        await pilot.press("enter", "e")  # exclude is listed (dimmed) but not for smash rules
        assert said == ["⊘ exclude: smash rules take include only"]


async def test_an_invalid_rule_is_kept_and_its_problem_named(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "press", "up", kind="1")
        await goto(pilot, editor, position_of(editor, ("cmd", 2, 2, 0)))
        await pilot.press("enter", "enter", "up")  # move up
        await goto(pilot, editor, position_of(editor, ("tile", 2, 2)))
        await pilot.press("enter", "i", "5", "escape")  # the centre loses its sprite: no witness
        rule = editor.rule
        assert rule.centre.do == (Command("move", "up"),) and not rule.centre.include
        text = editor.query_one("#problems").text
        assert "✗ rule 4, tile (2,2), command 1 'move up': this tile declares no sprite" in text
        await pilot.press("escape", "escape", "escape")
        home = app.screen
        assert "1 error blocks play" in home.query_one("#home").text
        await pilot.press("g")
        assert type(app.screen).__name__ == "GameHomeScreen"  # play is refused, not crashed


async def open_press_right(pilot, app) -> RuleEditorScreen:
    """The rule editor on the player's first press-right rule (Hello World has some)."""
    await pilot.press("c")
    await goto(pilot, app.screen, (6, 1))  # press right
    await pilot.press("enter")
    return app.screen


async def test_a_menu_opens_in_view_above_a_long_list_of_problems(tc_folder: Path) -> None:
    # At 80×24 the menu opened under the problems, off the screen, and still took the keys.
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_press_right(pilot, app)
        await goto(pilot, editor, position_of(editor, ("tile", 2, 2)))
        await pilot.press("enter", "r")  # the centre reset: a problem or two, the menu open
        await pilot.pause()
        assert not editor.rule.centre.include  # the problems it has take some lines
        menu = editor.query_one("#menu")
        assert menu.display and menu.region.bottom <= app.size.height - 1  # above the footer
        assert "no sprite kind in the centre include" in editor.query_one("#problems").text


async def test_previous_next_add_and_delete_walk_the_kinds_rules(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_press_right(pilot, app)
        ids = [r.id for r in game_of(app).rules if "s0" in r.centre.include]
        assert editor.rule_id == ids[0]
        await pilot.press("right_square_bracket")
        assert editor.rule_id == ids[1]
        await pilot.press("left_square_bracket")
        assert editor.rule_id == ids[0]
        await pilot.press("plus")
        new = editor.rule
        assert new.id not in ids and new.type == "press" and new.button == "right"
        await goto(pilot, editor, (4, 0))  # trash
        await pilot.press("enter")
        await pilot.press("y")
        assert game_of(app).rule(new.id) is None
        await pilot.press("ctrl+z")
        assert game_of(app).rule(new.id) == new


async def test_deleting_a_kinds_last_rule_goes_back_to_the_selector(tc_folder: Path) -> None:
    # The editor left as its rule went, then left once more: the game home came up instead.
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "press", "A")
        selector = app.screen_stack[-2]
        assert isinstance(selector, RuleSelectorScreen)
        await goto(pilot, editor, (4, 0))  # trash
        await pilot.press("enter", "y")
        await pilot.pause()
        assert game_of(app).rules == () and app.screen is selector


async def test_generalise_chooses_transforms_and_names_duplicate_views(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "press", "A")  # player: rotate-3-way
        await pilot.press("g")
        gen = app.screen
        assert isinstance(gen, GeneraliseScreen)
        await pilot.press("down", "right")
        text = gen.query_one("#generalise").text
        assert "same as view 1, so it is dropped" in text  # press A has no direction
        assert "1 distinct view runs" in text
        await pilot.press("up")
        for _ in range(5):
            await pilot.press("left")
        await pilot.press("right", "enter")  # flip horizontal
        assert editor.rule.transforms == "flip-horizontal"
        await pilot.press("escape")
        assert app.screen is editor


@pytest.mark.parametrize("verb", ["move", "destroy", "paint", "create", "block", "portal",
                                  "game"])
async def test_each_command_kind_can_be_added_from_the_menu(tc_folder: Path, verb: str) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "change", "any", kind="2")
        await goto(pilot, editor, position_of(editor, ("cmd", 2, 2, 0)))
        await pilot.press("enter")
        menu = editor.query_one("#menu")
        verbs = [item.key[1] for item in menu.rows[0]]
        for _ in range(verbs.index(verb)):
            await pilot.press("right")
        await pilot.press("enter")
        if menu.display:  # the argument menu: take the first one offered
            await pilot.press("enter")
        (command,) = editor.rule.centre.do
        assert command.verb == verb
        if verb == "create":  # a move right after a create moves the new sprite
            await pilot.press("right", "enter")
            assert [item.key[1] for item in menu.rows[0]][0] == "move"
            await pilot.press("enter", "enter")
            assert [c.verb for c in editor.rule.centre.do] == ["create", "move"]


async def test_a_long_key_list_scrolls_to_its_end_with_end(tc_folder: Path) -> None:
    from textual.widgets import DataTable

    app = app_on(tc_folder / "boulder-dash.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c", "right", "enter", "question_mark")  # the rule editor's keys
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.max_scroll_y > 0  # longer than 80x24 shows
        await pilot.press("end")
        await pilot.pause()
        assert table.scroll_y == table.max_scroll_y
        await pilot.press("home")
        await pilot.pause()
        assert table.scroll_y == 0


async def test_home_and_end_reach_the_ends_of_a_menu_row(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "change", "any", kind="2")
        await goto(pilot, editor, position_of(editor, ("cmd", 2, 2, 0)))
        await pilot.press("enter")
        menu = editor.query_one("#menu")
        await pilot.press("end")
        assert menu.highlighted is menu.rows[0][-1]
        await pilot.press("home")
        assert menu.highlighted is menu.rows[0][0]


async def test_keys_typed_after_enter_reach_the_menu_it_opens(tc_folder: Path) -> None:
    # "enter left left enter" in one burst: the arrows moved the grid's cursor under the menu,
    # which then applied its first item to the wrong tile. (An arrow now chooses a direction.)
    from textual import events

    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "change", "any", kind="2")
        await goto(pilot, editor, position_of(editor, ("witness", 2, 2)))
        for key in ("enter", "down"):
            app.post_message(events.Key(key, None))
        await wait_until(pilot, lambda: editor.rule.centre.dir == "down",
                         "the menu did not get the keys")


async def test_delete_is_offered_on_a_command_only(tc_folder: Path) -> None:
    # "del Delete command" stayed in the footer on a When tile and the top row, doing nothing.
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_press_right(pilot, app)
        rule = editor.rule

        def offered() -> bool:
            return "delete_command" in [key.action for key in editor.query("FooterKey")]

        def has_command(key) -> bool:
            record = rule.tile(key[1], key[2]) if key[0] == "cmd" else None
            return record is not None and key[3] < len(record.do)

        command = next(position for position, key in cell_grid(rule).items() if has_command(key))
        await goto(pilot, editor, (2, 2))  # the centre tile of When
        assert not offered()
        await goto(pilot, editor, command)
        await pilot.pause()
        assert offered()
        where = editor.cell[1:3]
        await pilot.press("delete")
        assert len(editor.rule.tile(*where).do) == len(rule.tile(*where).do) - 1


async def test_gen_is_marked_only_where_the_rule_has_views_of_its_own(tc_folder: Path) -> None:
    # A new change-any rule is rotate-3-way but all its views are the rule itself: [gen•] said
    # it had derived views, and the generalise screen that editing changed them all.
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "change", "any")
        top = editor.query_one("#rule").text.splitlines()[1]
        assert "[gen]" in top and "[gen•]" not in top
        await pilot.press("g")
        await pilot.pause()
        assert "no other view" in app.screen.query_one(LinesView).text.splitlines()[0]
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_press_right(pilot, app)  # rotate-3-way: four views that differ
        assert "[gen•]" in editor.query_one("#rule").text.splitlines()[1]


async def test_do_rows_are_listed_and_numbered_in_the_order_they_run(tc_folder: Path) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "press", "right")
        if not game_of(app).help:
            await pilot.press("h")
        lines = editor.query_one("#rule").text.splitlines()
        labels = [m.group(1) for line in lines for m in re.finditer(r" ([1-5][←↑●↓→]) \[", line)]
        assert labels == ["1←", "2↑", "3●", "4↓", "5→"]  # were 2↑ 1← 3● 5→ 4↓
        rows = [editor_cell for _, editor_cell in sorted(
            (p, c) for p, c in cell_grid(editor.rule).items() if p[0] == 5 and p[1])]
        assert [c[1:] for c in rows] == [(1, 2), (2, 1), (2, 2), (2, 3), (3, 2)]


@pytest.mark.parametrize(("tile", "row"), [((3, 1), (2, 1)), ((3, 2), (3, 2)), ((3, 3), (2, 3))])
async def test_right_from_the_when_grid_lands_on_the_do_row_beside_it(tc_folder: Path, tile,
                                                                     row) -> None:
    app = app_on(tc_folder / "blank.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new_rule(pilot, app, "press", "right")
        await goto(pilot, editor, tile)
        await pilot.press("right")
        assert editor.cell == ("witness", *row)  # (3,2) went to the "left" row
        await pilot.press("left")
        assert editor.cell == ("tile", 3, row[1])
