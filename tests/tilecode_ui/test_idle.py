"""Nothing repaints when nothing changes: an idle screen writes no bytes to the terminal.

Over SSH every idle repaint is traffic; a blinking cursor or a running timer would show here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.screens.tilecode.play import PlayScreen
from tests.ui_helpers import idle_bytes
from tests.tilecode_ui.helpers import app_on


def count_bytes(app) -> list[int]:
    """Let the headless app write frames, and count what it writes."""
    written = [0]
    driver = app._driver
    # Headless apps skip writing frames; writing them (to nowhere) makes idle repaints visible.
    driver.__class__ = type("CountingDriver", (driver.__class__,),
                            {"is_headless": property(lambda self: False)})
    original = driver.write

    def write(data: str) -> None:
        written[0] += len(data)
        original(data)

    driver.write = write
    return written


@pytest.mark.parametrize("keys", [(), ("c",), ("c", "right", "enter"), ("m",), ("p",),
                                  ("comma",), ("c", "right", "enter", "right", "enter")],
                         ids=["home", "selector", "rule", "map", "paint", "settings", "menu"])
async def test_idle_screens_write_nothing(tc_folder: Path, keys: tuple[str, ...]) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"  # as people run it: blinking would be on if anything blinks
        await pilot.press(*keys)
        written = count_bytes(app)
        idle = await idle_bytes(app, written)
        assert idle == 0, f"{idle} bytes written while idle"


async def test_a_paused_play_screen_writes_nothing(tc_folder: Path) -> None:
    app = app_on(tc_folder / "hello-world.toml")
    async with app.run_test(size=(80, 24)):
        screen = PlayScreen(app.screen.document, seed=1, paused=True)
        await app.push_screen(screen)
        written = count_bytes(app)
        idle = await idle_bytes(app, written)
        assert idle == 0 and screen.timer is None
