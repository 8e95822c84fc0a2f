#!/usr/bin/env python3
"""btree solver: states per second and bytes per state of the packed search, against the solver
as it was, and which corpus puzzles it solves within 60 s.

    .venv/bin/python bench/solver.py [--corpus ../shared/corpus/btree] [--seconds S] [--quick]
                                     [--results [--levels TEXT]] [--default] [--tail]
                                     [--jobs N]

Baseline, measured in the same run: the reference search (``path="reference"``: the solver as
it was, Engine snapshots keyed by ``Engine.key()``), on the same level for the same time.

* ``rate``: breadth-first states per second on Sokoban and Block Dude levels for the reference,
  the plain path (packed states, Engine expanding them: what the numba kernel adds) and the
  kernel with 1 and with ``--jobs`` threads. Targets: >= 50,000 states/s and >= 15x the
  reference (the kernel, one thread).
* ``memory``: bytes per visited state. The reference's from tracemalloc over a run; the packed
  search's from its arrays (room for growth included). Targets: <= 200 bytes and >= 10x less.
* ``default`` (with ``--default``, and only it): each corpus Sokoban and Block Dude level as
  ``studio solve LEVEL`` with no flags runs it (the portfolio, 60 s), against breadth first alone
  for 60 s (the default before it) in the same run.
* ``tail`` (with ``--tail``, and only it): how much of Block Dude 8, the one corpus level the
  default does not solve, it does solve: from positions along the level's known 485-move line
  (``tests/btree/test_blockdude_8_line.py``), 25 moves from the end, then 20 moves further back
  each time until the default finds no line within 60 s. A yardstick for work on the solver: the
  level is solved when the row from move 0 is.
* ``results`` (with ``--results``; up to three minutes per level): the bundled Sokoban and every
  corpus Block Dude and Sokoban level with ``--jobs`` threads, 60 s per try, trying what a user
  would in turn: breadth first, then A*, then A* with weight 2 and 3, then greedy best-first, until
  one solves it or proves it unsolvable; the figures are the last try's. ``--levels TEXT``
  keeps the levels whose name holds TEXT.

The kernel's compile (or load from numba's cache) is timed first and left out of the rates.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.commands.btree.formats import load_compiled  # noqa: E402
from studio.engines import jit  # noqa: E402
from studio.engines.btree.runtime.engine import Engine, Program  # noqa: E402
from studio.engines.btree.search.warm import warm_up  # noqa: E402
from studio.engines.btree.search.solver import solve  # noqa: E402

RATE_LEVELS = ["games_yaml__sokoban-level1"] + [f"games_yaml__blockdude_levels__blockdude_{n}" for n in (2, 4, 5, 6, 7, 8)]
RESULT_LEVELS = [f"games_yaml__blockdude_levels__blockdude_{n}" for n in range(9)] + [
    "games_yaml__sokoban-level1", "games_yaml__sokoban-small", "games_json__soko-demo", "games_json__soko-emoji",
    "games_json__soko2", "games_json__soko_enemy-incomplete", "games_json__soko_enemy-emoji-incomplete",
    "games_json__soko_quest-emoji", "games_json__soko_quest-emoji-incomplete"]


def program(corpus: Path, name: str) -> Program:
    if name == "bundled sokoban":
        return Program(load_compiled(ROOT / "games" / "sokoban.toml"))
    return Program(json.loads((corpus / "expanded" / f"{name}.json").read_text(encoding="utf-8")))


def run(prog: Program, **options) -> object:
    engine = Engine(prog)
    engine.seed(0)
    options.setdefault("max_states", 10**9)
    return solve(engine, **options)


def measure_rate(corpus: Path, seconds: float, jobs: int) -> tuple[list[str], bool]:
    lines, met = [], True
    header = f"  {'level':<28}{'reference':>11}{'plain':>10}{'kernel':>10}{f'{jobs} jobs':>10}{'x ref':>8}"
    lines.append(header)
    for name in RATE_LEVELS:
        prog = program(corpus, name)
        ref = run(prog, path="reference", max_seconds=seconds)
        plain = run(prog, path="plain", max_seconds=seconds)
        one = run(prog, max_seconds=seconds)
        many = run(prog, max_seconds=seconds, jobs=jobs)
        ratio = one.rate / ref.rate
        met &= one.rate >= 50_000 and ratio >= 15
        short = name.split("__")[-1]
        lines.append(f"  {short:<28}{ref.rate:>11,.0f}{plain.rate:>10,.0f}{one.rate:>10,.0f}"
                     f"{many.rate:>10,.0f}{ratio:>7.1f}x")
    lines.append("  target >= 50,000 states/s and >= 15x (kernel, 1 job), every level: "
                 + ("met" if met else "NOT met"))
    return lines, met


def reference_bytes(prog: Program, states: int) -> float:
    tracemalloc.start()
    found = run(prog, path="reference", max_states=states)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / max(found.states, 1)


def measure_memory(corpus: Path, seconds: float) -> tuple[list[str], bool]:
    lines, met = [f"  {'level':<28}{'reference':>11}{'packed':>9}{'less':>8}"], True
    for name in RATE_LEVELS:
        prog = program(corpus, name)
        ref = reference_bytes(prog, 20_000 if seconds >= 1 else 3_000)
        ours = run(prog, max_seconds=seconds).bytes_per_state
        met &= ours <= 200 and ref / ours >= 10
        lines.append(f"  {name.split('__')[-1]:<28}{ref:>10,.0f}B{ours:>8}B{ref / ours:>7.1f}x")
    lines.append("  target <= 200 bytes/state and >= 10x less, every level: " + ("met" if met else "NOT met"))
    return lines, met


LADDER = (("bfs", 1), ("astar", 1), ("astar", 2), ("astar", 3), ("best", 1))
"""What a user would try in turn: breadth first (shortest), A* (shortest, guided), A* weight 2
and 3, greedy best-first."""


def measure_results(corpus: Path, jobs: int, only: str | None = None) -> list[str]:
    lines = []
    for name in ["bundled sokoban"] + RESULT_LEVELS:
        if only and only not in name:
            continue
        short = name.split("__")[-1]
        for strategy, weight in LADDER:
            found = run(program(corpus, name), max_seconds=60, jobs=jobs, strategy=strategy,
                        weight=weight)
            how = strategy if weight == 1 else f"{strategy} w{weight}"
            if found.found:
                kind = "shortest" if found.shortest else "not shortest"
                what = f"solved by {how}: {len(found.choices)} moves ({kind})"
            elif found.exhausted:
                what = f"no solution: all searched ({how})"
            else:
                what = f"NOT solved within 60 s by {how} (depth {found.depth})"
            if found.found or found.exhausted:
                break
        lines.append(f"  {short:<30}{what:<48}{found.states:>11,} states {found.elapsed:6.1f} s")
    return lines


PUZZLES = [f"games_yaml__blockdude_levels__blockdude_{n}" for n in range(9)] + [
    "games_yaml__sokoban-level1", "games_yaml__sokoban-small"]
"""The corpus's Sokoban and Block Dude levels (issue 32's eleven)."""


def measure_default(corpus: Path, only: str | None = None) -> list[str]:
    """``studio solve LEVEL`` with no flags, 60 s: the portfolio now, breadth first alone before
    (the baseline, run on the same level in the same run)."""
    from studio.engines.btree.search.portfolio import solve_portfolio

    lines, solved = [], {"bfs": 0, "auto": 0}
    levels = [name for name in PUZZLES if not only or only in name]
    for name in levels:
        short = name.split("__")[-1]
        alone = run(program(corpus, name), max_seconds=60)
        engine = Engine(program(corpus, name))
        engine.seed(0)
        both = solve_portfolio(engine, max_seconds=60)
        solved["bfs"] += alone.found or alone.exhausted
        solved["auto"] += both.best.found or both.none_exists
        before = f"{len(alone.choices)} moves {alone.elapsed:5.1f} s" if alone.found else f"not in 60 s"
        if both.best.found:
            now = (f"{len(both.best.choices)} moves by {both.found_by} (first line {both.first_after:.1f} s, "
                   f"{'shortest' if both.proven else 'not proven shortest'})")
        else:
            now = "none exists" if both.none_exists else "not in 60 s"
        lines.append(f"  {short:<16}bfs alone: {before:<20}portfolio: {now}")
    lines.append(f"  solved within 60 s: breadth first alone {solved['bfs']}/{len(levels)}, "
                 f"portfolio {solved['auto']}/{len(levels)}")
    return lines


def measure_tail(corpus: Path, seconds: float = 60.0) -> list[str]:
    """The default solver from positions along Block Dude 8's known line, end first (see the
    module docstring); stops at the first position it finds no line from."""
    from studio.engines.btree.search.portfolio import solve_portfolio
    from tests.btree.test_blockdude_8_line import LINE, buttons

    presses = buttons(LINE)
    prog = program(corpus, "games_yaml__blockdude_levels__blockdude_8")
    lines = []
    left = 25
    while True:
        at = max(0, len(presses) - left)
        engine = Engine(prog)
        engine.seed(0)
        engine.run_to_choice()
        for button in presses[:at]:
            engine.choose(engine.choices_by_button[button])
            engine.run_to_choice()
        first = threading.Event()  # the first line answers the question: no shorter one sought
        out = solve_portfolio(engine, max_seconds=seconds, cancel=first, on_line=lambda _found: first.set())
        states = sum(result.states for _, result in out.members)
        where = f"from move {at} ({len(presses) - at} moves left):"
        if out.best.found:
            lines.append(f"  {where:<34}{len(out.best.choices)} moves by {out.found_by} after "
                         f"{out.found_after:.1f} s ({states:,} states)")
        else:
            lines.append(f"  {where:<34}no line in {seconds:g} s ({states:,} states)")
            break
        if at == 0:
            break
        left += 20
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "btree")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per level and path")
    parser.add_argument("--quick", action="store_true", help="1 s per level and path")
    parser.add_argument("--results", action="store_true", help="also solve every level (slow)")
    parser.add_argument("--levels", default=None, metavar="TEXT", help="--results, --default: only levels naming TEXT")
    parser.add_argument("--default", action="store_true",
                        help="only `studio solve LEVEL` with no flags (the portfolio) against breadth first alone")
    parser.add_argument("--tail", action="store_true",
                        help="only the default on Block Dude 8 from positions along its known line, end first")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="threads for the parallel runs")
    args = parser.parse_args()
    if not (args.corpus / "expanded").exists():
        sys.exit(f"needs the btree corpus at {args.corpus} (--corpus)")
    seconds = 1.0 if args.quick else args.seconds
    print(f"numba: {'yes' if jit.available() else jit.reason()}; {os.cpu_count()} cores")
    started = time.perf_counter()
    warm_up()
    print(f"kernel compile or cache load: {time.perf_counter() - started:.1f} s (not in the rates)")
    if args.default:
        print("== the default: the portfolio (breadth first, A* w3, best first over macro moves side by "
              "side) against breadth first alone, 60 s each")
        print("\n".join(measure_default(args.corpus, args.levels)))
        return
    if args.tail:
        print("== the default (60 s) on Block Dude 8 from positions along its known line, end first")
        print("\n".join(measure_tail(args.corpus)))
        return
    print(f"== rate: breadth-first states/s, {seconds:g} s per level and path")
    print("\n".join(measure_rate(args.corpus, seconds, args.jobs)[0]))
    print("== memory: bytes per visited state")
    print("\n".join(measure_memory(args.corpus, seconds)[0]))
    if args.results:
        print(f"== results: {args.jobs} jobs, 60 s per try (bfs, then astar, astar w2, astar w3, best)")
        print("\n".join(measure_results(args.corpus, args.jobs, args.levels)))


if __name__ == "__main__":
    main()
