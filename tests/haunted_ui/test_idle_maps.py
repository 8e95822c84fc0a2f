"""An idle map editor writes nothing to the terminal (SSH bytes), with the pen down too."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tilecode_ui.test_idle import count_bytes
from tests.ui_helpers import idle_bytes, studio_app


@pytest.mark.parametrize("keys", [(), ("c", "down", "p", "right"), ("m",)],
                         ids=["editor", "fairness-and-pen", "maps-list"])
async def test_an_idle_map_editor_writes_nothing(ht_project: Path, keys) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"  # as people run it: blinking would be on if anything blinks
        await pilot.press("p", *keys)
        written = count_bytes(app)
        # Start-up frames (footer, title) settle first: late and far apart on a loaded machine.
        idle = await idle_bytes(app, written)
        assert idle == 0, f"{idle} bytes written while idle"
