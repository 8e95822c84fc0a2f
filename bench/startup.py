#!/usr/bin/env python3
"""Time from process start to the home screen being ready (headless), median of several runs.

    python bench/startup.py [--runs N] [FOLDER]

Each run is a fresh interpreter (so imports count), which starts the app headless on FOLDER
(default: the bundled games/) and exits as soon as the home screen has listed the projects.
The baseline measured in the same run is a bare interpreter start, so the ratio shows what the
studio adds. Target: under 0.5 s on a warm machine (bench/ssh.py times the same in a real
pseudo-terminal, and through the SSH server).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import asyncio, sys, time
from pathlib import Path
from studio.app import StudioApp
from studio.screens.home import HomeScreen

async def main():
    app = StudioApp(Path(sys.argv[1]))
    async with app.run_test(size=(100, 30)) as pilot:
        while not (isinstance(app.screen, HomeScreen) and app.screen.is_mounted):
            await pilot.pause(0.001)
        await pilot.pause()
    print(len(app.screen_stack))

asyncio.run(main())
"""


def time_command(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("folder", nargs="?", default=str(ROOT / "games"))
    args = parser.parse_args()
    time_command([sys.executable, "-c", PROBE, args.folder])  # warm the OS file cache
    bare = statistics.median(time_command([sys.executable, "-c", "pass"]) for _ in range(args.runs))
    runs = [time_command([sys.executable, "-c", PROBE, args.folder]) for _ in range(args.runs)]
    median = statistics.median(runs)
    print(f"bare python start:      {bare * 1000:7.1f} ms (median of {args.runs})")
    print(f"studio to home screen:  {median * 1000:7.1f} ms (median of {args.runs}; "
          f"min {min(runs) * 1000:.1f}, max {max(runs) * 1000:.1f})")
    print(f"ratio studio / bare:    {median / bare:7.1f}x")
    verdict = "meets" if median < 0.5 else "MISSES"
    print(f"target < 500 ms:        {verdict}")


if __name__ == "__main__":
    main()
