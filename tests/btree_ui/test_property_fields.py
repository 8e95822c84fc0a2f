"""The property fields' keys and marks: refused values, choice buttons, select-all, labels."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Button, Checkbox, Input, Static, TextArea

from studio.screens.btree.editor import TreeEditorScreen
from tests.btree_ui.test_properties import new_loop_times_field
from tests.ui_helpers import studio_app


async def test_a_refused_value_is_marked_with_its_reason_until_mended(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "tic-tac-toe.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        field = await new_loop_times_field(pilot, app)
        field.value = "abc"
        await pilot.press("enter")
        await pilot.pause()
        # Kept to be mended, but never to be read as applied: marked, the reason beside it.
        assert field.value == "abc" and field.has_class("-refused")
        notes = [str(note.content) for note in editor.query(".refused-note").results(Static)]
        assert len(notes) == 1 and notes[0].startswith("✗ refused: ") and "times" in notes[0]
        await pilot.press("enter")  # refused again: still one note
        await pilot.pause()
        assert len(editor.query(".refused-note")) == 1
        await pilot.press("end", "backspace", "backspace", "backspace", "3")  # mending unmarks
        await pilot.pause()
        assert not field.has_class("-refused") and not editor.query(".refused-note")
        await pilot.press("enter")
        await pilot.pause()
        assert editor.node.get("times") == 3


async def test_a_button_field_cycles_on_space_and_left_right_as_on_enter(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        assert isinstance(editor, TreeEditorScreen)
        editor.select((1, 0, 0, 0))  # the "walk" rewrite, button right
        await pilot.pause()
        await pilot.press("enter", "down", "down")
        assert isinstance(app.focused, Button) and app.focused.id == "field-button"
        seen = []
        for key in ("space", "left", "left", "right", "enter"):
            await pilot.press(key)
            await pilot.pause()
            seen.append(editor.node.get("button"))
        assert seen == ["action1", "right", "left", "right", "action1"]


async def test_ctrl_a_selects_all_in_a_field_and_in_the_pattern_text_form(
        bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        editor.select((1, 0, 0, 0))
        await pilot.pause()
        await pilot.press("enter", "down", "down", "down")
        field = app.focused
        assert isinstance(field, Input) and field.id == "field-desc" and field.value == "walk"
        await pilot.press("ctrl+a", *"go", "enter")  # typed over the whole value
        await pilot.pause()
        assert editor.node.get("desc") == "go"
        await pilot.press("escape", "e", "tab")
        await pilot.pause()
        area = app.screen.query_one(TextArea)
        assert app.focused is area
        await pilot.press("ctrl+a")
        assert area.selected_text == area.text and area.text.strip()


async def test_a_flag_says_what_it_means_beside_its_file_name(bt_folder: Path) -> None:
    app = studio_app(bt_folder / "sokoban.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.screen
        editor.select((1, 0, 0))  # x-spin
        await pilot.pause()
        await pilot.pause()
        box = editor.query_one("#field-remorig", Checkbox)
        assert str(box.label) == "remove original"
