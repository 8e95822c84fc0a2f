#!/usr/bin/env python3
"""Haunted Tiles screens: a whole match in the match view, and keys while an AI thinks.

    .venv/bin/python bench/ui_haunted.py [--matches N] [--keys N]

Headless at 120x40, on the bundled project.

- match in the view: a best-of-5 between built-ins (greedy vs lookahead, every AI in its own
  worker process, pace 0) from the screen's start to its replay saved, against the same match
  headless with its replay saved (``studio match ... --replay``) in the same run. Target: <= 1.5x.
- key to frame while an AI thinks: one AI sleeps 1.5 s per move; the log panel is toggled with
  ``l`` meanwhile; from the key to the frame that shows it, p50/p95. Target p95 <= 50 ms.

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing
sys.path.insert(0, str(ROOT / "bench"))

from ui_tilecode import Meter, p95  # noqa: E402

from studio.app import StudioApp  # noqa: E402
from studio.engines.haunted.maps import builtin_maps  # noqa: E402
from studio.engines.haunted.match import MatchConfig, run_match  # noqa: E402
from studio.screens.haunted.match_view import MatchViewScreen  # noqa: E402
from studio.sessions.haunted.entrants import MatchPlan  # noqa: E402
from studio.sessions.haunted.replays import new_replay_path, save_match  # noqa: E402

SIZE = (120, 40)
CONFIG = MatchConfig()  # best of 5 on the default rotation
SLOW_AI = "import time\n\ndef main(state, side):\n    time.sleep(1.5)\n    return ['none'] * 3\n"


def plan(folder: Path, seed: int, **changes) -> MatchPlan:
    fields = {"home": "builtin:greedy", "away": "builtin:lookahead", "config": CONFIG,
              "seed": seed, "maps": builtin_maps(), "folder": folder, "pace": 0.0}
    fields.update(changes)
    return MatchPlan(**fields)


def headless(folder: Path, seed: int) -> float:
    """``studio match ... --replay FILE``: the match and its replay file, as the view does."""
    start = time.perf_counter()
    result = run_match(*plan(folder, seed).entrants(), builtin_maps(), CONFIG, seed)
    save_match(result, new_replay_path(folder, ("a", "b")))
    return time.perf_counter() - start


async def in_view(project: Path, seed: int) -> float:
    app = StudioApp(project, freeze_startup=True)  # as `studio` runs it
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        Meter(app)  # frames are written (to nowhere), as a terminal would receive them
        start = time.perf_counter()
        view = MatchViewScreen(app.screen.document, plan(project.parent, seed))
        app.push_screen(view)
        while view.replay_path is None or view.live.running:
            await asyncio.sleep(0.005)
        await pilot.pause()
        return time.perf_counter() - start


async def keys_while_thinking(project: Path, count: int) -> list[float]:
    slow = project.parent / "slow.py"
    slow.write_text(SLOW_AI)
    app = StudioApp(project, freeze_startup=True)  # as `studio` runs it
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        meter = Meter(app)
        view = MatchViewScreen(app.screen.document,
                               plan(project.parent, 1, home=str(slow), away="builtin:idle",
                                    config=MatchConfig(rounds=1, max_rounds=1, maps=("Default",)),
                                    pace=0.0))
        app.push_screen(view)
        while view.live.view().round_index == 0:
            await asyncio.sleep(0.01)
        times = []
        for _ in range(count):
            shown = view.has_class("-log")
            elapsed, _ = await meter.frame(pilot, ("l",), lambda: view.has_class("-log") != shown)
            times.append(elapsed * 1000)
        view.live.abort()
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--keys", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "haunted-tiles.toml"
        shutil.copy(ROOT / "games" / "haunted-tiles.toml", project)
        view_times, plain_times = [], []
        for seed in range(1, args.matches + 1):
            plain_times.append(headless(project.parent, seed))
            view_times.append(asyncio.run(in_view(project, seed)))
        plain, shown = statistics.median(plain_times), statistics.median(view_times)
        print(f"best-of-5, greedy vs lookahead in workers, pace 0 (median of {args.matches}):")
        print(f"  headless (studio match): {plain * 1000:8.0f} ms")
        print(f"  in the match view:       {shown * 1000:8.0f} ms   "
              f"ratio {shown / plain:.2f}x (target <= 1.5x)")
        times = asyncio.run(keys_while_thinking(project, args.keys))
        print(f"key to frame while an AI thinks ({len(times)} keys): "
              f"p50 {statistics.median(times):.1f} ms, p95 {p95(times):.1f} ms (target p95 <= 50 ms)")


if __name__ == "__main__":
    main()
