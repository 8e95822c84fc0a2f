"""An idle map editor writes nothing to the terminal (SSH bytes), with the pen down too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.tilecode_ui.test_idle import count_bytes
from tests.ui_helpers import studio_app


@pytest.mark.parametrize("keys", [(), ("c", "down", "p", "right"), ("m",)],
                         ids=["editor", "fairness-and-pen", "maps-list"])
async def test_an_idle_map_editor_writes_nothing(ht_project: Path, keys) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"  # as people run it: blinking would be on if anything blinks
        await pilot.press("p", *keys)
        written = count_bytes(app)
        await asyncio.sleep(0.6)  # let start-up frames settle (footer, title)
        before = written[0]
        await asyncio.sleep(0.7)  # longer than a cursor blink (0.5 s)
        assert written[0] == before, f"{written[0] - before} bytes written while idle"
