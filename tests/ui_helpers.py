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
    until 0.3 s pass without output (at most 5 s): on a loaded machine the first frames can come
    late, and counting them as idle output made the check flaky. A blink every 0.5 s still shows.
    """
    import asyncio
    import time

    async def settled_window() -> int:
        end = time.monotonic() + 5
        quiet_since, last = time.monotonic(), written[0]
        while time.monotonic() < end and time.monotonic() - quiet_since < 0.3:
            await asyncio.sleep(0.05)
            if written[0] != last:
                quiet_since, last = time.monotonic(), written[0]
        before = written[0]
        await asyncio.sleep(0.7)
        return written[0] - before

    # A loaded machine can leave more than 0.3 s between two start-up frames (a paused play
    # screen draws again about 0.2 s after it opens), and the late one was counted as idle
    # output. Anything that repaints while idle (a blink every 0.5 s) shows in every window,
    # a late start-up frame only once: measure a second window when the first saw output.
    idle = await settled_window()
    return idle and await settled_window()
