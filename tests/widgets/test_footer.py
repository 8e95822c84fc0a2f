"""KeysFooter: whole keys only, in order, and always ``? Help``."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._footer import FooterKey

from studio.screens.help import HelpScreen
from studio.widgets.footer import HELP_ACTION, KeysFooter, fitting, key_width
from tests.ui_helpers import studio_app

ROOT = Path(__file__).resolve().parents[2]


def test_a_key_is_as_wide_as_textual_draws_it() -> None:
    assert key_width("^s", "Save") == len(" ^s Save ")
    assert key_width("⏎", "Open") == len(" ⏎ Open ")
    assert key_width("x", "") == len(" x ")


def test_keys_are_kept_in_order_while_they_fit_and_help_always() -> None:
    keys = [("save", 9), ("undo", 9), ("play", 8), ("settings", 12), ("quit", 8),
            (HELP_ACTION, 8)]
    assert fitting(keys, 100) == ["save", "undo", "play", "settings", "quit", HELP_ACTION]
    # 34 columns: help's 8 first, then save, undo and play (26); settings would cut
    assert fitting(keys, 34) == ["save", "undo", "play", HELP_ACTION]
    # a later key that would fit is not shown out of order
    assert fitting(keys, 44) == ["save", "undo", "play", HELP_ACTION]
    assert fitting(keys, 5) == [HELP_ACTION]
    assert fitting([("save", 9)], 5) == []


def test_kept_keys_take_the_place_of_the_last_ones_and_stay_in_their_order() -> None:
    keys = [("save", 9), ("undo", 9), ("play", 8), ("settings", 12), ("quit", 8),
            (HELP_ACTION, 8)]
    # 34 columns: help and settings first (20), then save (9); undo would cut
    assert fitting(keys, 34, keep=("settings",)) == ["save", "settings", HELP_ACTION]
    # with room for all, nothing moves
    assert fitting(keys, 100, keep=("settings",)) == fitting(keys, 100)
    # a kept key wider than the room left after help gives way: the others fill in as ever
    assert fitting(keys, 19, keep=("settings",)) == ["save", HELP_ACTION]
    # a kept key before the cut is shown once, in its place
    assert fitting(keys, 34, keep=("save",)) == ["save", "undo", "play", HELP_ACTION]


async def test_at_80_columns_every_shown_key_is_whole_and_help_is_there(tmp_path: Path) -> None:
    game = tmp_path / "boulder-dash.toml"
    game.write_bytes((ROOT / "games" / "boulder-dash.toml").read_bytes())
    app = studio_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for width in (80, 60, 160, 80):
            await pilot.resize_terminal(width, 24)
            await pilot.pause(0.2)
            footer = app.screen.query_one(KeysFooter)
            keys = list(footer.query(FooterKey))
            actions = [key.action for key in keys if not key.has_class("-command-palette")]
            assert HELP_ACTION in actions, (width, actions)
            # all keys at 160, the app's own (theme, quit) after help; fewer, help last, below
            assert (actions[-1] == "quit") == (width == 160), (width, actions)
            assert (actions[-1] == HELP_ACTION) == (width < 160), (width, actions)
            right = max(key.region.right for key in keys if key.action in actions)
            palette = next(key for key in keys if key.has_class("-command-palette"))
            assert right <= palette.region.x, f"at {width} a key runs under the palette key"


async def test_help_reads_f1_where_a_field_takes_the_question_mark(tmp_path: Path) -> None:
    # In TileCode settings the focused number field takes "?" (and drops it): the footer
    # offered a help key that did nothing there.
    from textual.widgets import Input

    game = tmp_path / "boulder-dash.toml"
    game.write_bytes((ROOT / "games" / "boulder-dash.toml").read_bytes())
    app = studio_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()

        def help_key() -> str:
            footer = app.screen.query_one(KeysFooter)
            key = next(k for k in footer.query(FooterKey) if k.action == HELP_ACTION)
            return key.key_display

        assert help_key() == "?"
        await pilot.press("comma")  # settings: the first field has the focus
        await pilot.pause()
        assert isinstance(app.screen.focused, Input)
        assert help_key() == "f1"
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        # The help lists the keys as they work there: no "q" to quit or "?" for help, which
        # the field types; f1 and ^q.
        rows = {description: keys for keys, description in app.screen._rows}
        assert rows["Help"] == "f1" and rows["Quit"] == "^q"
        assert "Theme" not in rows  # t is typed too


def test_text_areas_are_text_fields_without_the_footer_importing_them() -> None:
    # The footer finds TextArea by its module (not imported for the home screen's first frame):
    # if Textual moved it, "?" would be run as help inside a text area instead of typed.
    from textual.widgets import Input, Static, TextArea

    from studio.widgets.footer import TEXT_AREA_MODULE, is_text_field, takes_text

    assert TextArea.__module__ == TEXT_AREA_MODULE
    assert is_text_field(TextArea()) and is_text_field(Input()) and not is_text_field(Static())
    assert takes_text(TextArea())
