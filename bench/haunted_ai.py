#!/usr/bin/env python3
"""Haunted Tiles AI runners: per-move cost of worker processes vs a baseline in the same run,
and how much a CPU-hog opponent slows an AI's answers.

    .venv/bin/python bench/haunted_ai.py [--calls N] [--part all|calls|fair] [--turns N]

Baselines, measured here: a direct in-process call of the same ``main`` (Python) and a direct
``MiniRacer.eval`` in this process (JavaScript). Targets (spec haunted.md §12, issue): Python
worker round trip ≤ 1 ms per call on a trivial AI; JavaScript ≥ 2,000 calls/s; built-ins in
workers ≥ 2,000 turns/s (two AIs asked concurrently per turn).

Fair CPU (issue 28 item 5): an AI doing a fixed amount of work per move is played, as the referee
does (both asked, then both collected), against an idle opponent and against a hog that spins in a
signal handler between its own turns (while the worker waits for its next request), in alternating
blocks of the same run. Printed: the
median answer time (the host's measure, recorded in replays) against each, and their ratio.
Target: within 10 %, which holds because workers are stopped between their turns; the same
measure with stopping switched off is printed beside it, for comparison, and so are the processor
time the hog got per turn (robust on a busy machine) and a noise floor: the same AI against two
idle opponents, which on a shared 2-core machine already differs by up to 25 %.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from studio.engines.haunted.ai import WorkerPlayer  # noqa: E402
from studio.engines.haunted.ai import exchange  # noqa: E402
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


WORK_PY = """def main(game_state, side):
    total = 0
    for i in range(150_000):
        total += i * i % 7
    return ["none", "none", "none"]
"""
WORK_JS = """function main(gameState, side) {
  var total = 0;
  for (var i = 0; i < 3000000; i++) { total += i * i % 7; }
  return ["none", "none", "none"];
}
"""
HOG = """import signal
import time


def _spin(_signum, frame):
    # Spin only where the worker waits for its next request (its protocol loop's receive), so
    # between its own turns and never in them: what it does in its turn is its own time.
    if frame is not None and frame.f_code.co_name in ("receive", "readline"):
        end = time.perf_counter() + 0.005
        while time.perf_counter() < end:
            pass
    signal.setitimer(signal.ITIMER_REAL, 0.0002)


def main(game_state, side):
    if signal.getsignal(signal.SIGALRM) is not _spin:
        signal.signal(signal.SIGALRM, _spin)
        signal.setitimer(signal.ITIMER_REAL, 0.0002)
    return ["none", "none", "none"]
"""
IDLE = "def main(game_state, side):\n    return ['none', 'none', 'none']\n"
BLOCKS = 20
"""Blocks per opponent, alternating idle and hog, so drifting load on the machine hits both."""


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", "rb") as handle:
        fields = handle.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def answer_times(ai: Path, opponent: Path, turns: int) -> tuple[list[float], float]:
    """The AI's answer times (ms, as the host measures them) over ``turns`` referee turns, and
    the processor time the opponent used meanwhile (s)."""
    with WorkerPlayer(ai, js=ai.suffix == ".js", time_limit=10.0) as me, \
            WorkerPlayer(opponent, time_limit=10.0) as other:
        assert me.load(1, "home").ok and other.load(2, "away").ok
        before = cpu_seconds(other.pid)
        times = []
        for turn in range(1, turns + 1):
            me.request(turn, STATE, "home")
            other.request(turn, STATE, "away")
            mine, theirs = me.collect(), other.collect()
            assert mine.ok and theirs.ok, (mine, theirs)
            times.append(mine.ms)
        return times, cpu_seconds(other.pid) - before


def fair_ratio(ai: Path, idle: Path, hog: Path, turns: int) -> tuple[float, float, float]:
    """Median answer time against the idle opponent and against the hog (ms), and the hog's
    processor time per turn (ms)."""
    against: dict[Path, list[float]] = {idle: [], hog: []}
    hog_cpu = 0.0
    for _ in range(BLOCKS):
        for opponent in (idle, hog):
            times, cpu = answer_times(ai, opponent, turns // BLOCKS)
            against[opponent] += times
            hog_cpu += cpu if opponent == hog else 0.0
    per_turn = hog_cpu * 1000 / len(against[hog])
    return statistics.median(against[idle]), statistics.median(against[hog]), per_turn


def fair_figures(folder: Path, turns: int) -> None:
    idle, hog = folder / "idle.py", folder / "hog.py"
    idle.write_text(IDLE)
    hog.write_text(HOG)
    ais = [folder / "work.py"]
    ais[0].write_text(WORK_PY)
    if js_available():
        ais.append(folder / "work.js")
        ais[1].write_text(WORK_JS)
    else:
        print("fair CPU, javascript: skipped (mini-racer not installed)")
    stopping = (exchange.Exchange.pause, exchange.Exchange.resume)
    other_idle = folder / "idle2.py"
    other_idle.write_text(IDLE)
    for ai in ais:
        language = "javascript" if ai.suffix == ".js" else "python"
        quiet, busy, _cpu = fair_ratio(ai, idle, other_idle, turns)
        print(f"noise floor, {language}: answer vs idle {quiet:7.2f} ms  vs another idle "
              f"{busy:7.2f} ms  ratio {busy / quiet:5.2f}  (what the machine's load alone does)")
        quiet, busy, cpu = fair_ratio(ai, idle, hog, turns)
        print(f"fair CPU, {language}: answer vs idle {quiet:7.2f} ms  vs hog {busy:7.2f} ms  "
              f"ratio {busy / quiet:5.2f}  target ≤ 1.10: {'ok' if busy / quiet <= 1.10 else 'MISSED'}"
              f"  (the hog ran {cpu:5.2f} ms a turn)")
        exchange.Exchange.pause = exchange.Exchange.resume = lambda self: None  # type: ignore
        try:
            quiet, busy, cpu = fair_ratio(ai, idle, hog, turns)
        finally:
            exchange.Exchange.pause, exchange.Exchange.resume = stopping
        print(f"   without stopping workers: vs idle {quiet:7.2f} ms  vs hog {busy:7.2f} ms  "
              f"ratio {busy / quiet:5.2f}  (the hog ran {cpu:5.2f} ms a turn; for comparison)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=200, help="turns per opponent (fair CPU)")
    parser.add_argument("--part", choices=["all", "calls", "fair"], default="all")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.part in ("all", "calls"):
            python_figures(Path(folder), args.calls)
            js_figures(Path(folder), args.calls)
        if args.part in ("all", "fair"):
            fair_figures(Path(folder), args.turns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
