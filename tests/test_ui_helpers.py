"""The Pilot tests' own helpers: a helper that passes too early makes its tests flaky."""

from __future__ import annotations

import asyncio
import time

from tests.ui_helpers import output_stops


async def test_a_held_up_loop_is_not_taken_for_quiet_output() -> None:
    # A full CI run: the loop was held up past the spell (a garbage collection) just after
    # start-up, the wait ended, and the start-up's last frames counted as the first move's.
    frames = [0]

    async def held_up_then_a_frame() -> None:
        await asyncio.sleep(0.05)
        time.sleep(0.4)
        await asyncio.sleep(0.01)
        frames[0] += 1

    task = asyncio.create_task(held_up_then_a_frame())
    assert await output_stops(lambda: frames[0], 0.3, 5)
    assert frames[0] == 1, "the wait ended before the frame that was due"
    await task


async def test_output_that_never_stops_times_out() -> None:
    frames = [0]

    async def steady() -> None:
        while True:
            await asyncio.sleep(0.05)
            frames[0] += 1

    task = asyncio.create_task(steady())
    started = time.monotonic()
    assert not await output_stops(lambda: frames[0], 0.3, 1)
    assert time.monotonic() - started < 2
    task.cancel()
