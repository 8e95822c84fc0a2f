#!/usr/bin/env python3
"""Tournaments on Dask (issue 31): sequential against ``--cluster local:N``, and the cluster
path's cost per match.

    .venv/bin/python bench/tournament.py [--workers N] [--quick] [NAME ...]

Measurements (both sides of every ratio in the same run, on the same machine):

* ``roundrobin``: a round robin of 16 entrants (120 matches, default match settings: best of 5
  on the default rotation, 2 s per move), every AI in its confined worker process as in a real
  tournament. The 11 built-ins and 5 copies of built-ins as ``.py`` files (so that sources are
  shipped to the workers as text, as a class's AIs are). Played sequentially (``TournamentRun``,
  what ``studio tournament`` does without ``--cluster``) and on ``local:N``
  (``ParallelRun`` on a ``LocalCluster`` of N worker processes; the cluster's start is timed
  apart), in the order sequential, cluster, cluster, sequential so that a change in the
  machine's speed during the run weighs on both sides alike. Prints every time, the ratio of
  the sums (target >= 1.8x with N = 2 on a 2-core machine) and checks that standings, ratings, every match and every replay are the same (replays without
  what is measured while playing: ``created`` and each answer's ``ms``).
* ``overhead``: a small match (idle against north, built-ins in process, one round on Default)
  played 200 times directly with ``run_match``, then 200 times one after another through a
  one-worker local cluster (``play_task`` submitted and its replay fetched, the path a
  tournament match takes): the difference per match is the cluster path's overhead
  (scheduling, shipping the task and the replay back), printed beside the match's own time.

* ``coordinator``: how many matches a second one coordinator handles when matches cost next to
  nothing: the built-ins but montecarlo (which simulates), in process, double round robin (90
  matches of one round on Default), sequential and on ``local:2``, through the whole path (tasks, replays, ``index.json``
  after every match, the live feed with every turn). The cluster's rate here is the coordinator's
  ceiling, whatever the number of workers.
* ``capacity`` (first, as context for the ratio): what this machine gives two processes right
  now. A CPU-bound loop of about 2 s in a process of its own, alone and then two at once, three
  times interleaved; twice the best time alone over the best time of two at once is what any
  parallel run could gain about now (2.0 on two idle cores, less when others use them). The load
  average is printed with it.

``--quick``: 8 entrants (28 matches) and 50 overhead matches.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from studio import __version__  # noqa: E402
from studio.engines.haunted.builtin_ais import BUILTINS, PREFIX, SIMULATING  # noqa: E402
from studio.engines.haunted.replay import without_timings  # noqa: E402
from studio.engines.haunted.maps import builtin_maps  # noqa: E402
from studio.engines.haunted.match import MatchConfig, run_match  # noqa: E402
from studio.engines.haunted.tournament import DOUBLE_ROUND_ROBIN, ROUND_ROBIN  # noqa: E402
from studio.sessions.haunted.cluster import ClusterPool, ParallelRun  # noqa: E402
from studio.sessions.haunted.entrants import resolve_entrant  # noqa: E402
from studio.sessions.haunted.match_task import play_task, task_for  # noqa: E402
from studio.sessions.haunted.tournament import (TournamentPlan, TournamentRun,  # noqa: E402
                                                read_index, replay_file)

COPIED = ("greedy", "cautious", "hunter", "wander", "idle")
"""Built-ins with no sibling imports, entered again as plain ``.py`` files."""
SEED = 31


def entrants(folder: Path, count: int) -> tuple[str, ...]:
    names = [PREFIX + name for name in BUILTINS]
    for name in COPIED:
        copy = folder / f"{name}_copy.py"
        shutil.copyfile(BUILTINS[name], copy)
        names.append(str(copy))
    return tuple(names[:count])


def differences(first: Path, second: Path) -> list[str]:
    one, two = read_index(first), read_index(second)
    found = [key for key in ("matches", "byes", "ratings", "standings", "plan")
             if one[key] != two[key]]
    for entry in one["matches"]:
        number = entry["number"]
        a, b = (without_timings(json.loads(gzip.decompress(replay_file(f, number).read_bytes())))
                for f in (first, second))
        if a != b:
            found.append(f"replay {number}")
    return found


_BUSY = "n = 0\nfor i in range(COUNT):\n    n += i * i\n"


def capacity(quick: bool) -> None:
    count = 20_000_000 if quick else 40_000_000
    code = _BUSY.replace("COUNT", str(count))

    def busy(at_once: int) -> float:
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(at_once)]
        for proc in procs:
            proc.wait()
        return time.perf_counter() - start

    # Interleaved and best of three on each side: other work on the machine comes and goes,
    # and one sample of each once gave 2.39x on two cores.
    alone, together = [], []
    for _ in range(3):
        alone.append(busy(1))
        together.append(busy(2))
    one_by_one = 2 * min(alone)
    load = os.getloadavg()
    print(f"capacity: two CPU-bound processes, one after the other {one_by_one:.1f} s, at once "
          f"{min(together):.1f} s (best of 3 each): {one_by_one / min(together):.2f}x possible "
          f"now (2 cores idle: 2.0x); load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"on {os.cpu_count()} cores")


def _machine() -> tuple[int, int]:
    """(idle, total) jiffies of the whole machine, every process's (Linux /proc/stat)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    return fields[3] + fields[4], sum(fields[:8])


def _idle_since(before: tuple[int, int]) -> str:
    idle, total = (now - then for now, then in zip(_machine(), before))
    return f"machine idle {100 * idle / total:.0f}%" if total else "machine idle unknown"


def _cpu() -> float:
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                          resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _own_cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def roundrobin(workers: int, quick: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-tournament-") as tmp:
        root = Path(tmp)
        names = entrants(root, 8 if quick else 16)

        def plan(name: str) -> TournamentPlan:
            return TournamentPlan(ROUND_ROBIN, names, MatchConfig(), builtin_maps(), SEED,
                                  name="bench", replays=root / name)

        def sequential(name: str) -> float:
            start, cpu, machine = time.perf_counter(), _cpu(), _machine()
            TournamentRun(plan(name)).run()
            took = time.perf_counter() - start
            cores = (_cpu() - cpu) / took  # the AI processes are reaped: their time counts
            print(f"  sequential        {took:8.1f} s   {took / scheduled:6.2f} s/match"
                  f"   ({cores:.2f} cores busy on average, {_idle_since(machine)})")
            return took

        def parallel(name: str) -> tuple[float, float]:
            start = time.perf_counter()
            with ClusterPool(f"local:{workers}") as pool:
                ready, machine = time.perf_counter(), _machine()
                here, there = _own_cpu(), pool.client.run(_cpu)
                run = ParallelRun(plan(name), pool)
                run.run()
                took = time.perf_counter() - ready
                idle = _idle_since(machine)
                here = _own_cpu() - here
                there = sum(now - there.get(addr, 0.0)
                            for addr, now in pool.client.run(_cpu).items())
            own = [o.seconds for o in run.outcomes.values()]
            print(f"  local:{workers}           {took:8.1f} s   {took / scheduled:6.2f} s/match"
                  f"   (start {ready - start:.1f} s; {idle}; processor time: {there:.1f} s in the "
                  f"workers and their AIs, {here:.1f} s in the coordinator with the scheduler; "
                  f"a match {statistics.median(own):.2f} s median, {max(own):.2f} s longest)")
            return took, ready - start

        scheduled = plan("x").scheduled
        print(f"roundrobin: {len(names)} entrants, {scheduled} matches, default settings, "
              "AIs in worker processes; sequential, local:N, local:N, sequential (a drift in "
              "the machine's speed falls on both sides alike)")
        one = sequential("sequential-1")
        (two, start_two), (three, start_three) = parallel("cluster-1"), parallel("cluster-2")
        four = sequential("sequential-2")
        both = one + four
        print(f"  ratio             {both / (two + three):8.2f}x   (with the cluster's start: "
              f"{both / (two + three + start_two + start_three):.2f}x; target >= 1.8x)")
        diff = [f"{other}: {what}" for other in ("cluster-1", "cluster-2", "sequential-2")
                for what in differences(root / "sequential-1", root / other)]
        print("  results           " + ("identical (standings, ratings, matches, replays)"
                                        if not diff else "DIFFER: " + ", ".join(diff)))


def coordinator(quick: bool) -> None:
    names = tuple(PREFIX + name for name in BUILTINS if name not in SIMULATING)
    config = MatchConfig(rounds=1, max_rounds=1, maps=("Default",))
    with tempfile.TemporaryDirectory(prefix="bench-coordinator-") as tmp:
        root = Path(tmp)

        def plan(name: str) -> TournamentPlan:
            return TournamentPlan(DOUBLE_ROUND_ROBIN, names, config, builtin_maps(), SEED,
                                  name="bench", replays=root / name, in_process_builtins=True)

        scheduled = plan("x").scheduled
        start = time.perf_counter()
        TournamentRun(plan("sequential")).run()
        sequential = time.perf_counter() - start
        with ClusterPool("local:2") as pool:
            start = time.perf_counter()
            ParallelRun(plan("cluster"), pool).run()
            parallel = time.perf_counter() - start
        same = not differences(root / "sequential", root / "cluster")
    print(f"coordinator: {scheduled} tiny matches (built-ins in process, 1 round on Default)")
    print(f"  sequential        {scheduled / sequential:8.1f} matches/s "
          f"({sequential / scheduled * 1000:.1f} ms each)")
    print(f"  local:2           {scheduled / parallel:8.1f} matches/s "
          f"({parallel / scheduled * 1000:.1f} ms each)   results "
          f"{'identical' if same else 'DIFFER'}")


def overhead(quick: bool) -> None:
    count = 50 if quick else 200
    config = MatchConfig(rounds=1, max_rounds=1, maps=("Default",))
    maps = builtin_maps()
    home = resolve_entrant("builtin:idle", config, in_process=True)
    away = resolve_entrant("builtin:north", config, in_process=True)
    tasks = [task_for(n, home, away, maps, config, n, __version__, in_process=True)
             for n in range(1, count + 1)]
    start = time.perf_counter()
    for task in tasks:
        run_match(home, away, maps, config, task.seed)
    direct = (time.perf_counter() - start) / count
    with ClusterPool("local:1") as pool:
        pool.client.submit(play_task, tasks[0], pure=False).result()  # imports on the worker
        start = time.perf_counter()
        sizes = []
        for task in tasks:
            outcome = pool.submit(task).result()
            sizes.append(len(json.dumps(outcome.replay)))
        through = (time.perf_counter() - start) / count
    print(f"overhead: {count} small matches (idle vs north, 1 round, in process), one at a time")
    print(f"  run_match here    {direct * 1000:8.2f} ms/match")
    print(f"  through local:1   {through * 1000:8.2f} ms/match   (replay "
          f"{statistics.median(sizes) / 1024:.1f} KiB)")
    print(f"  overhead          {(through - direct) * 1000:8.2f} ms/match")


MEASUREMENTS = {"capacity": capacity, "roundrobin": roundrobin, "overhead": overhead,
                "coordinator": coordinator}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[*MEASUREMENTS, []], metavar="NAME")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    for name in args.names or list(MEASUREMENTS):
        if name == "roundrobin":
            roundrobin(args.workers, args.quick)
        else:
            MEASUREMENTS[name](args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
