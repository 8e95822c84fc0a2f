"""One mechanism for keys shown dimmed that say why when pressed (studio/screens/dimmed.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from studio.screens.dimmed import DimmedKeys

ROOT = Path(__file__).resolve().parent.parent


class Gate(DimmedKeys, Screen[None]):
    BINDINGS = [Binding("o,enter", "open('door')", "Open"), Binding("k", "knock", "Knock")]
    EXPLAINED = ("open('door')",)

    def __init__(self) -> None:
        super().__init__()
        self.locked = True
        self.opened: list[str] = []

    def compose(self) -> ComposeResult:
        yield Footer()

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        if action == "open" and self.locked:
            return "The door is locked: k knocks."
        return super().why_not(action, parameters)

    def action_open(self, what: str) -> None:
        self.opened.append(what)

    def action_knock(self) -> None:
        self.locked = False
        self.refresh_bindings()


class GateApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Gate())


async def test_a_dimmed_key_says_why_and_acts_once_it_can() -> None:
    app = GateApp()
    async with app.run_test() as pilot:
        gate = app.screen
        assert isinstance(gate, Gate)
        assert gate.check_action("open", ("door",)) is None  # shown, dimmed
        await pilot.press("o")
        await pilot.pause()
        assert gate.opened == []
        assert [n.message for n in app._notifications] == ["The door is locked: k knocks."]
        await pilot.press("enter")  # every key of the binding explains
        await pilot.pause()
        assert len(app._notifications) == 2
        await pilot.press("k", "o")
        await pilot.pause()
        assert gate.opened == ["door"] and len(app._notifications) == 2  # acted, said nothing
        assert gate.check_action("explain_dimmed", ("open('door')",)) is False


def test_explaining_an_action_without_a_binding_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="close"):
        class Broken(DimmedKeys, Screen[None]):  # noqa: F841 - defining it is the test
            BINDINGS = [Binding("o", "open", "Open")]
            EXPLAINED = ("open", "close")


def test_no_screen_writes_its_own_hidden_explaining_binding() -> None:
    """The three hand-written copies this replaced were hidden bindings of a `why…` action."""
    written = []
    for path in (ROOT / "studio").rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r'Binding\([^)]*"why_?\w*', line):
                written.append(f"{path.relative_to(ROOT)}:{number}")
    assert written == []
