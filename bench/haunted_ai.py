#!/usr/bin/env python3
"""Haunted Tiles AI runners: per-move cost of worker processes vs a baseline in the same run.

    .venv/bin/python bench/haunted_ai.py [--calls N]

Baselines, measured here: a direct in-process call of the same ``main`` (Python) and a direct
``MiniRacer.eval`` in this process (JavaScript). Targets (spec haunted.md §12, issue): Python
worker round trip ≤ 1 ms per call on a trivial AI; JavaScript ≥ 2,000 calls/s; built-ins in
workers ≥ 2,000 turns/s (two AIs asked concurrently per turn).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from studio.engines.haunted.ai import WorkerPlayer  # noqa: E402
from studio.engines.haunted.ai.factory import js_available  # noqa: E402
from studio.engines.haunted.builtin_ais import BUILTINS  # noqa: E402

TRIVIAL_PY = "def main(game_state, side):\n    return ['none', 'none', 'none']\n"
TRIVIAL_JS = "function main(gameState, side) { return ['none', 'none', 'none']; }\n"
STATE = {
    "boardSize": [7, 7], "tileStates": [[3] * 7 for _ in range(7)],
    "teamStates": {"home": [{"coord": [0, c], "isDead": False} for c in (0, 3, 6)],
                   "away": [{"coord": [6, c], "isDead": False} for c in (0, 3, 6)]},
}


def per_call(fn, calls: int) -> float:
    """Seconds per call (best of 3 batches, to dodge noise from other work on the machine)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def worker_call(ai: WorkerPlayer):
    def call() -> None:
        ai.request(1, STATE, "home")
        assert ai.collect().ok
    return call


def python_figures(folder: Path, calls: int) -> None:
    trivial = folder / "trivial.py"
    trivial.write_text(TRIVIAL_PY)
    namespace: dict = {}
    exec(compile(TRIVIAL_PY, str(trivial), "exec"), namespace)
    direct = per_call(lambda: namespace["main"](STATE, "home"), calls * 10)
    with WorkerPlayer(trivial) as ai:
        ai.load(1, "home")
        worker = per_call(worker_call(ai), calls)
    print(f"python trivial: direct {direct * 1e6:8.2f} µs  worker {worker * 1e3:6.3f} ms/call "
          f"({1 / worker:8.0f} calls/s)  ratio {worker / direct:7.0f}×  target ≤ 1 ms: "
          f"{'ok' if worker <= 1e-3 else 'MISSED'}")
    with WorkerPlayer(BUILTINS["greedy"]) as home, WorkerPlayer(BUILTINS["greedy"]) as away:
        home.load(1, "home")
        away.load(2, "away")

        def turn() -> None:
            home.request(1, STATE, "home")
            away.request(1, STATE, "away")
            assert home.collect().ok and away.collect().ok
        turn_time = per_call(turn, calls)
    print(f"greedy vs greedy in workers: {1 / turn_time:8.0f} turns/s (target ≥ 2,000)")
    for confine in (False, True):
        loads = []
        for _ in range(5):
            ai = WorkerPlayer(trivial, confine=confine)
            start = time.perf_counter()
            assert ai.load(1, "home").ok
            loads.append(time.perf_counter() - start)
            ai.close()
        label = "confined  " if confine else "unconfined"
        print(f"worker start + load, {label}: median {statistics.median(loads) * 1e3:6.1f} ms")


def js_figures(folder: Path, calls: int) -> None:
    if not js_available():
        print("javascript: skipped (mini-racer not installed: pip install 'studio[js]')")
        return
    from py_mini_racer import MiniRacer

    trivial = folder / "trivial.js"
    trivial.write_text(TRIVIAL_JS)
    context = MiniRacer()
    context.eval(TRIVIAL_JS)
    import json
    expression = f"JSON.stringify(main({json.dumps(STATE)}, 'home'))"
    direct = per_call(lambda: context.eval(expression), calls)
    context.close()
    with WorkerPlayer(trivial, js=True) as ai:
        ai.load(1, "home")
        worker = per_call(worker_call(ai), calls)
    print(f"javascript trivial: direct eval {1 / direct:8.0f} calls/s  worker {1 / worker:8.0f} "
          f"calls/s  ratio {worker / direct:5.2f}×  target ≥ 2,000/s: "
          f"{'ok' if 1 / worker >= 2000 else 'MISSED'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        python_figures(Path(folder), args.calls)
        js_figures(Path(folder), args.calls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
