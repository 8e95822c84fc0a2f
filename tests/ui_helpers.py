"""Helpers for UI tests: the app as tests run it (fixed size, no animations)."""

from __future__ import annotations

from pathlib import Path

from studio.app import StudioApp

SIZE = (100, 30)


def studio_app(path: Path | str = "games", theme: str | None = None) -> StudioApp:
    app = StudioApp(Path(path), theme=theme)
    app.animation_level = "none"
    return app


async def idle_bytes(app, written: list[int]) -> int:
    """Bytes written during 0.7 s (longer than a cursor blink) once start-up frames stopped.

    ``written`` is the counter of ``tests.tilecode_ui.test_idle.count_bytes``. Settling waits
    until 0.6 s pass without output (at most 6 s): on a loaded machine the first frames can come
    late and far apart, and counting them as idle output made the check flaky. A cursor blinking
    every 0.5 s never lets it settle, and still shows in the count.
    """
    import asyncio
    import time

    async def settled_window() -> int:
        end = time.monotonic() + 6
        quiet_since, last = time.monotonic(), written[0]
        while time.monotonic() < end and time.monotonic() - quiet_since < 0.6:
            await asyncio.sleep(0.05)
            if written[0] != last:
                quiet_since, last = time.monotonic(), written[0]
        before = written[0]
        await asyncio.sleep(0.7)
        return written[0] - before

    # Anything that repaints while idle (a blink every 0.5 s) shows in every window, a late
    # start-up frame only once: measure a second window when the first saw output.
    idle = await settled_window()
    return idle and await settled_window()
