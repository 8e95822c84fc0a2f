"""Toggles show their state by shape: an unticked box must not read as ticked without colour."""

from __future__ import annotations

import re
from pathlib import Path

from textual.app import App, ComposeResult

from studio.widgets.toggles import Checkbox, RadioButton

ROOT = Path(__file__).resolve().parents[2]


class _Toggles(App[None]):
    def compose(self) -> ComposeResult:
        yield Checkbox("tick", False, id="box")
        yield RadioButton("pick", False, id="radio")


async def test_the_mark_shows_only_when_on() -> None:
    app = _Toggles()
    async with app.run_test() as pilot:
        box, radio = app.query_one("#box", Checkbox), app.query_one("#radio", RadioButton)
        assert str(box.render()).startswith("▐ ▌") and str(radio.render()).startswith("▐ ▌")
        box.value = radio.value = True
        await pilot.pause()
        assert str(box.render()).startswith("▐X▌") and str(radio.render()).startswith("▐●▌")
        await pilot.click("#box")
        assert not box.value and str(box.render()).startswith("▐ ▌")


def test_every_screen_uses_these_toggles_not_textual_s() -> None:
    # Textual's draw their mark in both states; one import of them brings the misreading back.
    pattern = re.compile(r"from textual\.widgets import[^\n]*\b(Checkbox|RadioButton)\b")
    offenders = [str(path.relative_to(ROOT)) for path in (ROOT / "studio").rglob("*.py")
                 if path.name != "toggles.py" and pattern.search(path.read_text())]
    assert offenders == []
