"""Dialogs: arrows go from button to button (a text field keeps them for its cursor), and the
footer is the dialog's own."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Input

from studio.screens.dialogs import NameDialog
from studio.widgets.footer import KeysFooter
from studio.widgets.save import unsaved_dialog


class DialogApp(App[None]):
    def __init__(self, dialog) -> None:
        super().__init__()
        self.dialog = dialog
        self.answers: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)


async def test_right_and_left_go_from_button_to_button() -> None:
    # "right enter" on "Unsaved changes" cancelled nothing and chose Save: arrows did not move.
    app = DialogApp(unsaved_dialog("Maze"))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.focused.id == "choice-save"
        await pilot.press("right")
        assert app.focused.id == "choice-discard"
        await pilot.press("right", "right")  # stops at the last
        assert app.focused.id == "choice-cancel"
        await pilot.press("left", "enter")
        assert app.answers == ["discard"]


async def test_a_text_field_keeps_left_and_right() -> None:
    app = DialogApp(NameDialog("Rename", "abc", "Rename"))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.focused, Input)
        await pilot.press("end", "left", "X")
        assert app.focused.value == "abXc"


async def test_a_dialog_has_its_own_footer_over_the_screens() -> None:
    # The footer of the screen below showed through with keys that do not act in a dialog
    # (the unsaved-changes question offered "c Code", where c is Cancel).
    app = DialogApp(NameDialog("Rename", "abc", "Rename"))
    async with app.run_test() as pilot:
        await pilot.pause()
        footer = app.screen.query_one(KeysFooter)
        assert footer.region.bottom == app.size.height  # over the footer of the screen below
        keys = [key.action for key in footer.query("FooterKey")]
        assert keys == ["cancel"]


def shown(app) -> list[str]:
    """The footer's keys as they read: "s Save"."""
    footer = app.screen.query_one(KeysFooter)
    return [f"{key.key_display} {key.description}" for key in footer.query("FooterKey")]


async def test_a_question_s_footer_and_buttons_name_the_same_answers_and_keys() -> None:
    # The footer read "esc No  y Yes" under buttons reading Cancel and Delete, and the
    # unsaved-changes question had a blank footer.
    from textual.widgets import Button

    from studio.screens.dialogs import ConfirmDialog

    app = DialogApp(ConfirmDialog("Delete rule?", "Rule 3 goes.", "Delete"))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert shown(app) == ["esc Cancel", "y Delete"]
        assert [str(b.label) for b in app.screen.query(Button)] == ["Cancel (esc)", "Delete (y)"]
        await pilot.press("n")
        assert app.answers == [False]
    app = DialogApp(unsaved_dialog("Maze"))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert shown(app) == ["s Save", "d Discard", "c Cancel"]
        await pilot.press("d")
        assert app.answers == ["discard"]
    app = DialogApp(unsaved_dialog("Maze"))
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("escape")
        assert app.answers == ["cancel"]


async def test_the_game_over_footer_lists_its_keys() -> None:
    from studio.screens.tilecode.game_over import GameOverDialog

    app = DialogApp(GameOverDialog("lost", 10, False))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert shown(app)[:4] == ["r Restart", "R New seed", "s Save replay", "⏎ Leave"]
        await pilot.press("x", "R")  # a stray key does nothing
        assert app.answers == ["new"]


async def test_a_question_puts_away_the_notes_that_would_cover_its_buttons(games) -> None:
    """The studio does it for every screen shown (StudioApp.push_screen, tests/test_toasts.py)."""
    from studio.screens.dialogs import ConfirmDialog
    from tests.ui_helpers import studio_app

    app = studio_app(games)
    async with app.run_test() as pilot:
        app.notify("Replay saved: x.tcreplay.toml")
        app.notify("The project has unsaved changes", severity="warning")
        await pilot.pause()
        assert len(app._notifications) == 2
        await app.push_screen(ConfirmDialog("Leave?", "Leave the game?", "Leave"))
        await pilot.pause()
        assert [note.severity for note in app._notifications] == ["warning"]  # it stays


async def test_at_60x20_a_dialogs_buttons_scroll_into_reach(games) -> None:
    """The new-project form is taller than 20 rows: its buttons fell below the edge."""
    from textual.widgets import Button

    from studio.screens.dialogs import NewProjectDialog
    from tests.ui_helpers import studio_app

    app = studio_app(games)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewProjectDialog)
        create = dialog.query_one("#create", Button)
        create.focus()
        await pilot.pause()
        box = dialog.query_one("Vertical")
        assert box.max_scroll_y > 0  # it does not fit: it scrolls rather than crop
        assert create.region.y >= 0 and create.region.bottom <= 20 and create.region.height > 0
