"""The field with the focus differs from the others in shape, not only in colour (issue 29):
in the ANSI theme and on a monochrome terminal a colour change alone cannot be seen."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.command import CommandInput
from textual.widgets import Input, RadioButton, RadioSet, TextArea

from studio.app import StudioApp


class Form(App):
    CSS = StudioApp.CSS

    def compose(self) -> ComposeResult:
        yield Input("a", id="plain")
        yield RadioSet(RadioButton("one"), RadioButton("two"), id="radios")
        yield TextArea("code", id="code")
        yield Input("b", id="compact", compact=True)
        yield Input("c", id="invalid")


def edges(widget) -> tuple[str, str]:
    return widget.styles.border_top[0], widget.styles.border_left[0]


@pytest.mark.parametrize("field", ["#plain", "#radios", "#code"])
async def test_a_bordered_field_changes_the_shape_of_its_border_when_focused(field: str) -> None:
    app = Form()
    async with app.run_test() as pilot:
        widget = app.query_one(field)
        app.query_one("#compact").focus()
        await pilot.pause()
        blurred = edges(widget)
        widget.focus()
        await pilot.pause()
        assert edges(widget) != blurred
        assert edges(widget) == ("heavy", "heavy")


async def test_a_compact_field_stays_borderless_and_an_invalid_one_stays_red() -> None:
    app = Form()
    async with app.run_test() as pilot:
        compact = app.query_one("#compact")
        compact.focus()
        await pilot.pause()
        assert edges(compact) == ("", "")
        invalid = app.query_one("#invalid")
        invalid.focus()
        invalid.add_class("-invalid")  # what a refused value does
        await pilot.pause()
        assert invalid.styles.border_top[0] == "heavy"
        red = app.current_theme.to_color_system().error
        assert abs(invalid.styles.border_top[1].r - red.r) <= 2  # red, not the focus accent
        assert invalid.styles.border_top[1].g == red.g


async def test_the_command_palette_s_search_line_keeps_no_box() -> None:
    app = Form()
    async with app.run_test() as pilot:
        app.action_command_palette()
        await pilot.pause()
        search = app.screen.query_one(CommandInput)
        assert search.has_focus
        assert search.styles.border_top[0] in ("", "blank", "none")
