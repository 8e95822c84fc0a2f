"""The properties pane has the keys while a field has the focus: the tree's keys wait."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Checkbox, Input

from studio.screens.btree.editor import TreeEditorScreen
from studio.widgets.footer import KeysFooter
from tests.ui_helpers import studio_app, wait_until


def footer_actions(screen) -> list[str]:
    return [key.action for key in screen.query_one(KeysFooter).query("FooterKey")]


async def new_loop_times_field(pilot, app) -> Input:
    """A new loop-times node under the root's second child, its times field focused."""
    app.screen.select((1,))
    await pilot.pause()
    await pilot.press("n", *"loop-times", "enter")
    await pilot.pause()
    await pilot.press("enter", "tab", "tab")
    field = app.focused
    assert isinstance(field, Input) and field.id == "field-times"
    return field


async def test_tree_keys_do_not_act_on_a_checkbox_field(bt_folder: Path) -> None:
    # On a checkbox (a button too) the field takes none of the tree's keys: delete there
    # deleted the whole subtree, n opened the add list, left moved the tree to the parent.
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        assert isinstance(editor, TreeEditorScreen)
        editor.select((1, 0, 0))  # x-spin: comment, nid, remorig
        await pilot.pause()
        assert "add('last')" in footer_actions(editor)
        await pilot.press("enter", "down", "down")  # up and down walk the fields
        assert isinstance(app.focused, Checkbox) and app.focused.id == "field-remorig"
        before = editor.model.tree
        await pilot.press("delete", "K", "n", "left", "l", "ctrl+v", "e", "g")
        await pilot.pause()
        assert editor.model.tree is before and editor.cursor == (1, 0, 0)
        assert app.screen is editor and app.focused.id == "field-remorig"
        assert "add('last')" not in footer_actions(editor)
        await pilot.press("up")
        assert isinstance(app.focused, Input) and app.focused.id == "field-nid"
        await pilot.press("escape")  # back to the tree, whose keys act again
        assert editor.pane == "tree" and "add('last')" in footer_actions(editor)


async def test_a_refused_value_shows_the_stored_one_once_the_field_is_left(
        bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        field = await new_loop_times_field(pilot, app)
        field.value = "abc"
        await pilot.press("enter")  # refused: the typing stays to be mended
        await pilot.pause()
        assert field.value == "abc" and editor.node.get("times") == 1
        await pilot.press("escape")  # left: the field shows what is stored
        await pilot.pause()
        assert field.value == "1" and editor.node.get("times") == 1


async def test_what_is_typed_in_a_field_is_saved_by_ctrl_s_and_asked_about_by_ctrl_q(
        bt_folder: Path) -> None:
    # ctrl+s said "Saved" without the typing, and ctrl+q quit without a question: it was lost.
    from studio.widgets.save import ChoiceDialog

    path = bt_folder / "sokoban.toml"
    app = studio_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        editor.select((1, 0, 0))
        await pilot.pause()
        await pilot.press("enter", "down", *"hello", "ctrl+s")
        await pilot.pause()
        assert app.focused.id == "field-nid" and editor.node.get("nid") == "hello"
        assert 'nid = "hello"' in path.read_text()
        await pilot.press("end", *"again", "ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)  # save, discard or cancel the typing
        await pilot.press("c")
        await pilot.pause()
        assert app.return_code is None and editor.node.get("nid") == "helloagain"


async def test_the_pattern_text_form_is_asked_about_before_quitting(bt_folder: Path) -> None:
    from studio.widgets.save import ChoiceDialog

    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        editor.select((0,))
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        pattern_screen = app.screen
        await pilot.press("tab", "end", *" X", "ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("c")
        await pilot.pause()
        assert app.screen is pattern_screen and app.return_code is None


async def test_a_layer_name_taken_keeps_the_dialog_open_with_the_reason(bt_folder: Path) -> None:
    # It closed with a note, and the next keys typed went to the grid as tiles.
    from studio.screens.dialogs import NameDialog

    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = app.screen
        editor.select((1, 0, 0, 0))  # a rewrite
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        patterns = app.screen
        before = editor.model.tree
        await pilot.press("f6", *"main", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)
        assert "already has a layer 'main'" in str(app.screen.query_one("#problem").render())
        await pilot.press("ctrl+u", *"bg", "enter")
        await pilot.pause()
        assert app.screen is patterns and patterns.layer == "bg"
        assert editor.model.tree is not before


async def test_a_field_focused_before_it_is_refilled_never_writes_into_another_node(
        bt_folder: Path) -> None:
    # Select a node and at once enter (focus its first field) and tab away: the comment field
    # still held the root's comment, and leaving it wrote that comment into the new node.
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = app.screen
        assert isinstance(editor, TreeEditorScreen) and editor.node.get("comment")
        editor.select((1, 1, 0))
        await pilot.press("enter", "tab", "tab", "escape")
        await pilot.pause()
        assert editor.cursor == (1, 1, 0) and editor.node["type"] == "x-link"
        assert "comment" not in editor.node
        assert not editor.document.dirty


async def test_typing_on_in_the_next_field_right_after_an_edit_keeps_what_was_typed(
        bt_folder: Path) -> None:
    # Leaving a field applies it, which makes a new node object at the same place: the next
    # field, typed into at once, must keep its typing (it is the same node, refilled or not).
    from textual import events

    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        editor.select((1, 1, 0))  # an x-link: comment, nid, target
        await pilot.pause()
        await pilot.press("enter")  # the first field, the comment
        await wait_until(pilot, lambda: getattr(app.focused, "id", None) == "field-comment",
                         "the comment field did not take the focus")
        for key in ["h", "i", "tab", "n", "e", "w", "enter"]:  # all at once, as typed fast
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await wait_until(pilot, lambda: editor.node.get("nid") == "new",
                         "the second field's typing was not applied")
        assert editor.node.get("comment") == "hi"
