"""The tree editor, driven with keys: every edit operation reaches the saved file; undo/redo."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.screens.btree.editor import TreeEditorScreen
from studio.storage import load_project
from studio.storage.btree.project import project_model
from tests.ui_helpers import studio_app, wait_until, workers_done


def saved_tree(path: Path) -> dict:
    return project_model(load_project(path)).tree


def types(node: dict) -> list[str]:
    return [child["type"] for child in node.get("children", [])]


async def select(pilot, editor: TreeEditorScreen, path: tuple[int, ...]) -> None:
    editor.select(path)
    await pilot.pause()


async def add(pilot, key: str, kind: str) -> None:
    await pilot.press(key)
    await pilot.press(*kind, "enter")
    await pilot.pause()


@pytest.mark.parametrize(("keys", "expect"), [
    (("n", "draw"), lambda t: types(t["children"][1])[-1] == "draw"),
    (("N", "draw"), lambda t: types(t["children"][1])[0] == "draw"),
    (("O", "all"), lambda t: t["children"][1]["type"] == "all"
     and types(t["children"][1]) == ["loop-until-all"]),
    (("o", "order"), lambda t: types(t["children"][1]) == ["order"]
     and types(t["children"][1]["children"][0]) == ["x-ident", "x-swap"]),
])
async def test_adding_nodes_reaches_the_saved_file(bt_folder: Path, keys, expect) -> None:
    path = bt_folder / "tic-tac-toe.toml"
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        assert isinstance(editor, TreeEditorScreen)
        await select(pilot, editor, (1,))  # the loop-until-all
        await add(pilot, *keys)
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert expect(saved_tree(path))


async def test_move_swap_copy_paste_and_deletes(bt_folder: Path) -> None:
    path = bt_folder / "tic-tac-toe.toml"
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        tree = lambda: editor.model.tree  # noqa: E731
        await select(pilot, editor, (1,))
        await pilot.press("alt+up")
        assert types(tree()) == ["loop-until-all", "set-board"] and editor.cursor == (0,)
        await pilot.press("alt+down")
        assert types(tree()) == ["set-board", "loop-until-all"]
        await select(pilot, editor, (0,))
        await pilot.press("ctrl+c")
        await select(pilot, editor, (1,))
        await pilot.press("ctrl+v")
        assert types(tree()["children"][1])[-1] == "set-board"
        await pilot.press("delete")  # the pasted copy
        assert types(tree()["children"][1]) == ["x-ident", "x-swap"]
        await select(pilot, editor, (1, 0))  # x-ident: delete it, its children move up
        await pilot.press("R")
        assert types(tree()["children"][1]) == ["player", "win", "draw", "x-swap"]
        await pilot.press("K")  # the player's children go
        assert tree()["children"][1]["children"][0]["children"] == []
        await select(pilot, editor, (1, 1))
        await pilot.press("P")  # win swaps with its parent: the loop
        assert tree()["children"][1]["type"] == "win"
        for _ in range(5):  # back to just after the second edit
            await pilot.press("ctrl+z")
        assert types(tree()) == ["set-board", "loop-until-all"]
        assert types(tree()["children"][1]) == ["x-ident", "x-swap"]
        await pilot.press("ctrl+y")
        assert types(tree()["children"][1])[-1] == "set-board"


async def test_a_player_accepts_only_rewrites_and_their_transforms(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await select(pilot, editor, (1, 0, 0))  # the player
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert "set-board" not in dialog.types() and "rewrite" in dialog.types()
        assert "x-rotate" in dialog.types()
        await pilot.press("escape")
        await select(pilot, editor, (1, 0, 0, 0))  # a rewrite in the player
        await pilot.press("O")  # a new parent there: only a player's kinds (all were offered)
        await pilot.pause()
        assert "x-mirror" in app.screen.types() and "order" not in app.screen.types()
        await pilot.press("escape")
        await pilot.press("n")  # a leaf: said so (an empty list opened)
        await pilot.pause()
        assert app.screen is editor
        assert any("is a leaf" in n.message for n in app._notifications)


async def test_fields_are_parsed_and_bad_values_refused(bt_folder: Path) -> None:
    path = bt_folder / "tic-tac-toe.toml"
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await select(pilot, editor, (1, 0, 0))  # player X
        await pilot.press("enter")  # into the properties: comment, nid, pid
        await pilot.press("tab", "tab")
        field = app.focused
        assert field.id == "field-pid"
        field.value = "Z"
        await pilot.press("enter")
        await pilot.pause()
        assert editor.model.tree["children"][1]["children"][0]["children"][0]["pid"] == "Z"
        await pilot.press("escape")
        await select(pilot, editor, (1,))
        await add(pilot, "n", "loop-times")
        await pilot.press("enter", "tab", "tab")
        app.focused.value = "500"
        await pilot.press("enter")
        await pilot.pause()
        assert editor.node.get("times") == 1  # refused: 1 to 99


async def test_the_pattern_editor_grid_and_text_form(bt_folder: Path) -> None:
    path = bt_folder / "tic-tac-toe.toml"
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await select(pilot, editor, (0,))  # set-board
        await pilot.press("e")
        await pilot.pause()
        pattern_screen = app.screen
        await pilot.press("right", *"X", "enter")
        board = lambda: editor.model.tree["children"][0]["pattern"]["main"]  # noqa: E731
        assert board()[0] == ["_", "X", "_"]
        await pilot.press("f2")  # a row of ? below
        assert len(board()) == 4 and board()[1] == ["?", "?", "?"]
        await pilot.press("f3")  # and removed again (the cursor is on it)
        assert len(board()) == 3
        await pilot.press("ctrl+d")  # the same, where a terminal keeps the function keys
        assert len(board()) == 4
        await pilot.press("ctrl+u")
        assert len(board()) == 3
        await pilot.press("tab")
        area = pattern_screen.query_one("TextArea")
        area.text = "A B\nC D\n over\n. .\n. x"
        await pilot.press("tab")
        assert editor.model.tree["children"][0]["pattern"] == {
            "main": [["A", "B"], ["C", "D"]], "over": [[".", "."], [".", "x"]]}
        await pilot.press("tab")
        area.text = " a\n b\nX"
        await pilot.press("tab")
        assert pattern_screen.text_mode  # layer a has no rows: stays, error shown
        await pilot.press("escape")  # does not read: kept open, the typing with it
        assert pattern_screen.text_mode and area.text == " a\n b\nX"
        await pilot.press("escape", "tab")  # a second escape drops it; tab opens it afresh
        assert pattern_screen.text_mode and area.text == " main\nA B\nC D\n over\n. .\n. x\n"
        area.text = " main\nA B\nC\n over\n. .\n. x"
        await pilot.press("tab")  # a short row is padded with ? (a warning), not refused
        assert not pattern_screen.text_mode
        assert editor.model.tree["children"][0]["pattern"]["main"] == [["A", "B"], ["C", "?"]]
        await pilot.press("ctrl+z")
        await pilot.press("escape")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert saved_tree(path)["children"][0]["pattern"]["over"] == [[".", "."], [".", "x"]]


async def test_typed_text_is_applied_by_ctrl_s_and_escape_and_a_new_layer_is_shown(
        bt_folder: Path) -> None:
    # ctrl+s in the text form saved the node without the text and showed the file as saved;
    # escape dropped the text; f6 showed the old layer while the next edit went to the new one.
    path = bt_folder / "tic-tac-toe.toml"
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await select(pilot, editor, (0,))  # set-board, 3x3 of _
        await pilot.press("e")
        await pilot.pause()
        pattern_screen = app.screen
        await pilot.press("tab")
        area = pattern_screen.query_one("TextArea")
        assert "text form" in pattern_screen.query_one("#status").text
        area.text = "A B C\n_ _ _\n_ _ _"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert saved_tree(path)["children"][0]["pattern"]["main"][0] == ["A", "B", "C"]
        assert not editor.document.dirty and pattern_screen.text_mode
        area.text = "A B C\nD E F\n_ _ _"
        await pilot.press("escape")
        assert not pattern_screen.text_mode
        assert editor.model.tree["children"][0]["pattern"]["main"][1] == ["D", "E", "F"]
        await pilot.press("tab")
        area.text = " a\n b\nX"  # layer a has no rows: does not read
        await pilot.press("escape")
        assert pattern_screen.text_mode
        area.text = "Q B C\nD E F\n_ _ _"  # mended after the first escape: the next applies
        await pilot.press("escape")
        assert not pattern_screen.text_mode
        assert editor.model.tree["children"][0]["pattern"]["main"][0] == ["Q", "B", "C"]
        await pilot.press("f6")
        await pilot.pause()
        await pilot.press(*"L3", "enter")
        await pilot.pause()
        assert pattern_screen.layer == "L3"
        assert "[L3]" in pattern_screen.query_one("#grid").text
        await pilot.press("Z", "enter")
        pattern = editor.model.tree["children"][0]["pattern"]
        assert pattern["L3"][0][0] == "Z" and pattern["main"][0][0] == "Q"


async def test_escape_drops_a_half_typed_tile_before_it_leaves(bt_folder: Path) -> None:
    # Escape with a tile half typed left the editor; "?" is a tile character here, so the
    # footer's help key reads f1.
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await select(pilot, editor, (0,))
        await pilot.press("e")
        await pilot.pause()
        pattern_screen = app.screen
        await pilot.press("X", "question_mark")
        assert pattern_screen.entry == "X?"
        await pilot.press("escape")
        assert app.screen is pattern_screen and pattern_screen.entry == ""
        await pilot.press("escape")
        assert app.screen is editor


async def test_home_and_end_go_to_the_first_and_last_node(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await select(pilot, editor, (1,))
        await pilot.press("end")
        assert editor.cursor == editor._lines()[-1].path != (1,)
        await pilot.press("home")
        assert editor.cursor == ()


async def test_f8_goes_to_each_problem_and_the_pane_follows_the_width(bt_folder: Path) -> None:
    # At 80x24 the pane showed the first warning only and could not be scrolled or focused.
    import copy

    from studio.engines.btree.editing.tree_edit import node_at

    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = app.screen
        await workers_done(pilot, "compile")
        tree = copy.deepcopy(editor.tree)
        for path in ((0,), (1, 0, 2, 0)):  # two patterns with a ? left in: two warnings
            node = node_at(tree, path)
            node["pattern"] = {"main": [["?"] + row[1:] for row in node["pattern"]["main"]]}
        editor.change_tree("two ?", tree, ())
        await workers_done(pilot, "compile")
        diagnostics = editor.query_one("#diagnostics")
        assert diagnostics.text.startswith("2 problems · f8")
        await pilot.press("f8")
        assert editor.cursor == (0,)
        await pilot.press("f8")
        assert editor.cursor == (1, 0, 2, 0) and diagnostics.scroll_y > 0
        await pilot.press("f8")
        assert editor.cursor == (0,)  # round again
        narrow = max(len(line) for line in diagnostics.text.splitlines())
        await pilot.resize_terminal(120, 30)
        await pilot.pause(0.2)
        assert max(len(line) for line in diagnostics.text.splitlines()) > narrow


async def test_find_and_diagnostics_jump(bt_folder: Path) -> None:
    path = bt_folder / "tic-tac-toe.toml"
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await pilot.press("slash", *"turn", "enter")
        await pilot.pause()
        assert editor.cursor == (1, 0)  # nid "turn"
        await select(pilot, editor, (1, 1, 0))  # the x-link → turn
        await pilot.press("enter")
        await pilot.press("tab", "tab")
        app.focused.value = "nowhere"
        await pilot.press("enter")
        await workers_done(pilot, "compile")  # the edit's compile, in a worker thread
        text = editor.query_one("#diagnostics").text
        assert text.startswith("✗") and "nowhere" in text
        assert "tree/children[1]/children[1]/children[0]" in text  # as btree.md §9 names nodes
        await pilot.press("escape")
        await select(pilot, editor, ())
        await pilot.click("#diagnostics", offset=(2, 0))
        await pilot.pause()
        assert editor.cursor == (1, 1, 0)


async def test_arrows_move_the_tree_cursor_past_a_tall_properties_pane(bt_folder: Path) -> None:
    # At 80×24 the set-board's pattern overflows the properties pane; a focused scroll pane
    # used to swallow `down`, and the cursor stuck on the set-board.
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = app.screen
        for _ in range(4):
            await pilot.press("down")
            await pilot.pause()
        assert editor.cursor == (1, 0, 0)


async def test_a_move_to_another_type_keeps_the_shared_editors(bt_folder: Path) -> None:
    # Over SSH a rebuilt pane is drawn whole; comment and nid (every type has them) stay put.
    from studio.screens.btree.properties import PropertiesPane

    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        pane = editor.query_one(PropertiesPane)
        await select(pilot, editor, (1, 0, 0))  # player X
        comment, nid = pane.query_one("#field-comment"), pane.query_one("#field-nid")
        assert pane.query("#field-pid") and str(pane.query_one("#node-type").content) == "player"
        await select(pilot, editor, (1, 0, 0, 0))
        assert editor.node["type"] != "player"
        assert pane.query_one("#field-comment") is comment and pane.query_one("#field-nid") is nid
        assert not pane.query("#field-pid")
        assert str(pane.query_one("#node-type").content) == editor.node["type"]
        assert nid.value == str(editor.node.get("nid", ""))
        pane.show(None)
        await pilot.pause()
        assert "No node" in str(pane.query_one("#node-type").content)
        assert not pane.query("Input")
        pane.show(editor.node)
        await pilot.pause()
        assert [w.id for w in pane.query("Input")][:2] == ["field-comment", "field-nid"]


async def test_the_pattern_editor_goes_from_lhs_to_rhs_with_f9(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = app.screen
        await select(pilot, editor, (1, 0, 0, 0))  # a rewrite
        rewrite = lambda: editor.model.tree["children"][1]["children"][0]["children"][0][  # noqa: E731
            "children"][0]
        lhs = rewrite()["lhs"]
        await pilot.press("e")
        await pilot.pause()
        patterns = app.screen
        assert patterns.field == "lhs" and patterns.title.endswith(": rewrite · lhs")
        await pilot.press("f9")
        assert patterns.field == "rhs" and patterns.title.endswith(": rewrite · rhs")
        await pilot.press(*"Q", "enter")
        assert rewrite()["rhs"]["main"][0][0] == "Q" and rewrite()["lhs"] == lhs
        assert "unsaved" in patterns.sub_title
        await pilot.press("f9")
        assert patterns.field == "lhs"
        await pilot.press("tab")  # the text form: f9 is not offered (apply or close it first)
        assert patterns.check_action("other_field", ()) is False
        await pilot.press("f9")
        assert patterns.field == "lhs" and patterns.text_mode
        await pilot.press("escape", "escape")
        await select(pilot, editor, (0,))  # a set-board: one pattern, no f9
        await pilot.press("e")
        await pilot.pause()
        assert app.screen.check_action("other_field", ()) is False
        await pilot.press("f9")
        assert app.screen.field == "pattern"


async def test_an_add_typed_in_one_burst_filters_the_type_list(bt_folder: Path) -> None:
    # "o order enter" arriving at once: "o" starts a dialog flow; the letters after it ran tree
    # keys ("o" insert, "e" pattern editor) while the type dialog was on its way.
    from textual import events

    path = bt_folder / "tic-tac-toe.toml"
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        await select(pilot, editor, (1,))
        for key in ("o", *"order", "enter"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await wait_until(pilot, lambda: app.screen is editor
                         and types(editor.tree["children"][1]) == ["order"],
                         "the node was not inserted")


async def test_the_tree_editor_at_60x20_keeps_a_readable_tree(bt_folder: Path) -> None:
    """Its fixed 42-column properties pane left the tree 18 columns: it gives way instead."""
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        tree, right = app.screen.query_one("#tree"), app.screen.query_one("#right")
        assert tree.size.width >= 25 and right.size.width >= 25

