#!/usr/bin/env python3
"""Key-press-to-frame time and bytes per frame of the TileCode screens (headless, Pilot).

    .venv/bin/python bench/ui_tilecode.py [--keys N] [--rounds N]

Measured at 120x40 on the largest bundled sample and on a generated 128x128 map with 2,000
sprites (Boulder Dash's rules). The time runs from the key press to the moment the frame is
written to the terminal driver; the bytes are what that frame wrote.

Baselines measured in the same run:
- cursor moves: the bytes of repainting the whole board (what a widget without partial
  refreshes would send), printed as a ratio against the bytes actually sent;
- play: the engine's own round time (``engine.step`` alone), so the UI's share is visible.

Targets (issue 8): cursor moves p95 <= 16 ms; a round <= 16 ms + the engine's round time; only
the changed lines written. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from textual import events  # noqa: E402

from studio.app import StudioApp  # noqa: E402
from studio.engines.tilecode.engine import load  # noqa: E402
from studio.engines.tilecode.model import SpritePlacement, TileMap  # noqa: E402
from studio.screens.tilecode.base import open_document  # noqa: E402
from studio.screens.tilecode.screens import make  # noqa: E402
from studio.storage import load_project, save_project  # noqa: E402
from studio.storage.tilecode.kind import game_to_project, project_to_game  # noqa: E402
from studio.widgets.board import Board  # noqa: E402

SIZE = (120, 40)


def largest_sample() -> Path:
    best = None
    for path in sorted((ROOT / "games").glob("*.toml")):
        project = load_project(path)
        if project.kind != "tilecode":
            continue
        game = project_to_game(project)
        size = game.map.width * game.map.height + len(game.map.sprites)
        if best is None or size > best[0]:
            best = (size, path)
    return best[1]


def generated(tmp: Path) -> Path:
    """Boulder Dash's rules on a 128x128 map of dirt and space with 2,000 sprites."""
    base = project_to_game(load_project(ROOT / "games" / "boulder-dash.toml"))
    rng = random.Random(7)
    size = 128
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            if x in (0, size - 1) or y in (0, size - 1):
                row.append(0)
            else:
                row.append(2 if rng.random() < 0.25 else 1)
        rows.append(tuple(row))
    # Nothing above the player's row, where it walks right, so no boulder ends the run early.
    free = [(x, y) for y in range(1, size - 1) for x in range(1, size - 1)
            if not (y <= 64 and 60 <= x <= 100)]
    tiles = rng.sample(free, 2000)
    sprites = [SpritePlacement(64, 64, 0)]
    sprites += [SpritePlacement(x, y, rng.choice((1, 1, 2)))
                for x, y in tiles if (x, y) != (64, 64)]
    sprites = sprites[:2000]
    sprites.sort(key=lambda s: (s.y, s.x))
    game = replace(base, name="Big", map=TileMap(size, size, tuple(rows), tuple(sprites)))
    path = tmp / "big.toml"
    save_project(game_to_project(game), path)
    return path


class Meter:
    """Counts bytes written by the driver and wakes a waiter when a frame is written."""

    def __init__(self, app: StudioApp) -> None:
        self.bytes = 0
        self.event = asyncio.Event()
        driver = app._driver
        # A headless app skips writing frames; let this one write them (to nowhere) so the
        # bytes a real terminal would receive can be counted.
        type(driver).is_headless = property(lambda _driver: False)
        original = driver.write

        def write(data: str) -> None:
            self.bytes += len(data.encode("utf-8"))
            self.event.set()
            original(data)

        driver.write = write

    async def frame(self, pilot, keys: tuple[str, ...], done=lambda: True) -> tuple[float, int]:
        """Send ``keys`` as a terminal would; return (seconds until a frame is written once
        ``done()`` holds, bytes written meanwhile)."""
        await pilot.pause()
        start_bytes = self.bytes
        driver = pilot.app._driver
        start = time.perf_counter()
        for key in keys:
            char = key if len(key) == 1 else None
            driver.send_message(events.Key(key, char))
        deadline = start + 2
        while True:
            self.event.clear()
            try:
                await asyncio.wait_for(self.event.wait(), max(deadline - time.perf_counter(), 0))
            except TimeoutError:
                return float("nan"), 0
            if done():
                break
        elapsed = time.perf_counter() - start
        await pilot.pause()
        return elapsed, self.bytes - start_bytes


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


async def measure(path: Path, keys: int, rounds: int) -> dict[str, float]:
    app = StudioApp(path.parent, freeze_startup=True)  # as `studio` runs it
    app.animation_level = "none"
    out: dict[str, float] = {}
    async with app.run_test(size=SIZE) as pilot:
        meter = Meter(app)
        document = open_document(load_project(path))
        await app.push_screen(make("map", document))
        await pilot.pause()
        board = app.screen.query_one(Board)
        times, sizes = [], []
        # A square walk that stays on the smallest map, so every press moves the cursor.
        square = ["right"] * 5 + ["down"] * 5 + ["left"] * 5 + ["up"] * 5
        for i in range(keys):
            elapsed, written = await meter.frame(pilot, (square[i % len(square)],))
            times.append(elapsed)
            sizes.append(written)
        out["cursor p50 ms"] = statistics.median(times) * 1000
        out["cursor p95 ms"] = p95(times) * 1000
        out["cursor bytes"] = statistics.median(sizes)

        full, full_times = [], []
        for _ in range(5):
            await pilot.pause()
            before = meter.bytes
            meter.event.clear()
            start = time.perf_counter()
            board._cache.clear()
            board.refresh()
            await meter.event.wait()
            full_times.append(time.perf_counter() - start)
            await pilot.pause()
            full.append(meter.bytes - before)
        out["full board bytes"] = statistics.median(full)
        out["full board ms"] = statistics.median(full_times) * 1000

        screen = make("play", document, seed=3, paused=True)
        await app.push_screen(screen)
        await pilot.pause()
        engine = load(document.model)
        state = screen.session.state
        engine_times = []
        for _ in range(rounds):
            start = time.perf_counter()
            state, _events = engine.step(state, ("right",))
            engine_times.append(time.perf_counter() - start)
            if state.status != "play":
                break
        times, sizes = [], []
        for _ in range(rounds):
            if screen.session.over:
                break
            target = screen.session.state.round + 1
            await pilot.press("right")  # the button for the next round (its own frame: the bar)
            elapsed, written = await meter.frame(
                pilot, ("n",),
                lambda target=target: not screen.busy and screen.session.state.round >= target)
            if screen.session.over:
                break  # that frame also drew the game-over dialog: not a round's frame
            times.append(elapsed)
            sizes.append(written)
        out["engine round p50 ms"] = statistics.median(engine_times) * 1000
        out["play round p50 ms"] = statistics.median(times) * 1000
        out["play round p95 ms"] = p95(times) * 1000
        out["play round bytes"] = statistics.median(sizes)
        out["rounds timed"] = len(times)
    return out


def report(name: str, figures: dict[str, float]) -> None:
    print(f"\n{name}")
    cursor_ok = figures["cursor p95 ms"] <= 16
    print(f"  map editor cursor move: p50 {figures['cursor p50 ms']:.1f} ms, "
          f"p95 {figures['cursor p95 ms']:.1f} ms ({'meets' if cursor_ok else 'MISSES'} 16 ms)")
    ratio = figures["full board bytes"] / max(figures["cursor bytes"], 1)
    print(f"  bytes per cursor move: {figures['cursor bytes']:.0f} "
          f"(whole-board repaint {figures['full board bytes']:.0f}: {ratio:.0f}x less)")
    print(f"  whole-board repaint (a camera jump): {figures['full board ms']:.1f} ms")
    budget = 16 + figures["engine round p50 ms"]
    play_ok = figures["play round p95 ms"] <= budget
    print(f"  play round (key to frame): p50 {figures['play round p50 ms']:.1f} ms, "
          f"p95 {figures['play round p95 ms']:.1f} ms; "
          f"engine alone {figures['engine round p50 ms']:.1f}"
          f" ms ({'meets' if play_ok else 'MISSES'} 16 ms + engine = {budget:.1f} ms)")
    print(f"  bytes per round: {figures['play round bytes']:.0f} "
          f"({figures['rounds timed']:.0f} rounds timed)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", type=int, default=60, help="cursor moves to time")
    parser.add_argument("--rounds", type=int, default=30, help="play rounds to time")
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        sample = largest_sample()
        print(f"TileCode screens at {SIZE[0]}x{SIZE[1]}, headless")
        figures = asyncio.run(measure(sample, args.keys, args.rounds))
        report(f"{sample.name} (largest sample)", figures)
        big = generated(Path(tmp))
        report("generated 128x128, 2,000 sprites",
               asyncio.run(measure(big, args.keys, args.rounds)))


if __name__ == "__main__":
    main()
