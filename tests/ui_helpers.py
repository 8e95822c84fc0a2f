"""Helpers for UI tests: the app as tests run it (fixed size, no animations)."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path

from studio.app import StudioApp

SIZE = (100, 30)


def studio_app(path: Path | str = "games", theme: str | None = None) -> StudioApp:
    """The app on ``path``; its ``run_test`` starts with the home screen's list read.

    The home screen reads its folder in a thread (so a slow folder never holds the keys); a
    test's first key must not race that read. Snapshots (``app.run``) wait with
    ``run_before=home_read``.
    """
    app = StudioApp(Path(path), theme=theme)
    app.animation_level = "none"
    run_test = app.run_test

    @asynccontextmanager
    async def run_test_read(*args, **kwargs):
        async with run_test(*args, **kwargs) as pilot:
            await home_read(pilot)
            yield pilot

    app.run_test = run_test_read
    return app


async def home_read(pilot, timeout: float = 10.0) -> None:
    """Wait until the home screen (when it is on top) has read its folder and shown the list."""
    from studio.screens.home import HomeScreen

    await pilot.pause()
    await wait_until(pilot, lambda: not (isinstance(pilot.app.screen, HomeScreen)
                                         and pilot.app.screen.scanning),
                     "the home screen did not finish reading its folder", timeout)


async def wait_until(pilot, condition: Callable[[], object], failure: str,
                     timeout: float = 10.0) -> None:
    """Let the app run until ``condition()`` holds; fail with ``failure`` after ``timeout`` s.

    For what a timer, a worker thread or a subprocess produces: a fixed pause before the
    assertion raced the machine's speed (CI's machine is slower, and loaded).
    """
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{failure} (waited {timeout:g} s)")
        await pilot.pause(0.01)


def busy_workers(app, *groups: str) -> list:
    """The app's workers of these groups still running (or not yet started)."""
    return [w for w in app.workers if w.group in groups and not w.is_finished]


async def workers_done(pilot, *groups: str, timeout: float = 10.0) -> None:
    """Wait until the workers of these groups (the compile, a replay's verification...) end.

    A thread worker that reports through ``call_from_thread`` ends only after its report ran.
    """
    await wait_until(pilot, lambda: not busy_workers(pilot.app, *groups),
                     f"the {', '.join(groups)} worker(s) did not finish", timeout)


async def palette_ready(pilot, first: str | None = None, timeout: float = 10.0) -> None:
    """Wait until the command palette's search (async, in batches) has listed its matches,
    ``first`` (a part of its title) highlighted when given: enter before that chose nothing."""
    from textual.command import CommandList, CommandPalette

    def ready() -> bool:
        palette = pilot.app.screen
        if not isinstance(palette, CommandPalette) or busy_workers(
                pilot.app, CommandPalette._GATHER_COMMANDS_GROUP):
            return False
        if first is None:
            return True
        found = palette.query_one(CommandList)
        if found.highlighted is None:
            return False
        prompt = found.get_option_at_index(found.highlighted).prompt
        return first.casefold() in getattr(prompt, "plain", str(prompt)).casefold()

    await wait_until(pilot, ready, f"the command palette did not offer {first or 'its matches'}",
                     timeout)


async def output_stops(count: Callable[[], int], spell: float, timeout: float) -> bool:
    """Wait until ``count()`` (frames or bytes sent so far) has not changed for ``spell`` s;
    False when it kept changing for ``timeout`` s. A fixed pause let a loaded machine's late
    frames (start-up, a pane's rebuild) count with what the test measured next.

    The spell is also counted in turns of the event loop (one per 20 ms poll): a loop held up
    past the spell (a garbage collection late in a full run, a worker thread holding the GIL)
    passed for a quiet one, and the rest of the start-up's frames counted as the first move's.
    """
    import asyncio

    poll = 0.02
    turns = max(1, round(spell / poll))
    end = time.monotonic() + timeout
    since, last, quiet = time.monotonic(), count(), 0
    while time.monotonic() - since < spell or quiet < turns:
        if time.monotonic() > end:
            return False
        await asyncio.sleep(poll)
        quiet += 1
        if count() != last:
            since, last, quiet = time.monotonic(), count(), 0
    return True


async def idle_bytes(app, written: list[int]) -> int:
    """Bytes written during 0.7 s (longer than a cursor blink) once start-up frames stopped.

    ``written`` is the counter of ``tests.tilecode_ui.test_idle.count_bytes``. Settling waits
    until 0.6 s pass without output (at most 6 s): on a loaded machine the first frames can come
    late and far apart, and counting them as idle output made the check flaky. A cursor blinking
    every 0.5 s never lets it settle, and still shows in the count.
    """
    import asyncio

    async def settled_window() -> int:
        await output_stops(lambda: written[0], 0.6, 6)
        before = written[0]
        await asyncio.sleep(0.7)
        return written[0] - before

    # Anything that repaints while idle (a blink every 0.5 s) shows in every window, a late
    # start-up frame only once: measure a second window when the first saw output.
    idle = await settled_window()
    return idle and await settled_window()


class HeldReads:
    """The home screen's folder reads held until ``release`` is set (a folder on a slow disk
    or a network share): the first frame's glance at the headers and the full reads; ``calls``
    counts the full reads begun."""

    def __init__(self, monkeypatch, timeout: float = 10.0) -> None:
        import threading

        import studio.screens.home as home
        import studio.storage.folder as folder

        self.release = threading.Event()
        self.calls = 0
        real_scan, real_glance = folder.scan_folder, home.glance_folder

        def held(folder):
            self.calls += 1
            self.release.wait(timeout)
            return real_scan(folder)

        def held_glance(folder):
            self.release.wait(timeout)
            return real_glance(folder)

        monkeypatch.setattr(folder, "scan_folder", held)
        monkeypatch.setattr(home, "glance_folder", held_glance)
