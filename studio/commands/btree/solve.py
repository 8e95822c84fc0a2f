"""``studio solve``: a winning line of a behaviour-tree game (btree.md §8), or why there is none.

Text output names the moves, then one line with the states explored, the depth reached and why
the search stopped; ``--json`` prints the same as one object (the keys of the first versions,
``found``/``moves``/``states``/``exhausted``/``result``, keep their meaning).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from studio.commands import command
from studio.commands.btree.play import engine_for, project_body
from studio.engines.btree.model.text import choice_text, result_text
from studio.storage import ProjectError

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def memory_size(text: str) -> int:
    """``512M``, ``2G``, ``1500000`` → bytes."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)[bB]?\s*", text)
    if not found:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (write e.g. 512M or 2G)")
    return int(float(found.group(1)) * _UNITS[found.group(2).lower()])


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="a btree project or trrbt game file")
    parser.add_argument("--max-states", type=int, default=None, metavar="N",
                        help="give up after N distinct states (default: 200000 for one strategy; "
                             "unbounded with auto, which the time bounds)")
    parser.add_argument("--max-seconds", type=float, default=None, metavar="S",
                        help="give up after S seconds (default: 60 with auto, else none)")
    parser.add_argument("--max-memory", type=memory_size, default=None, metavar="SIZE",
                        help="give up before the search holds more than SIZE (e.g. 512M, 2G)")
    parser.add_argument("--strategy", choices=["auto", "bfs", "astar", "best", "dfs"], default="auto",
                        help="auto (default): breadth first, A* weight 3 and best first side by side, "
                             "the shortest line any finds in the time; bfs: shortest line; astar: "
                             "shortest with an admissible heuristic; best: greedy best-first; dfs: depth first")
    parser.add_argument("--heuristic", default=None, metavar="H",
                        help="for astar/best: goal (default), reach, zero, or terms like count:main=@/trgt=_")
    parser.add_argument("--weight", type=int, default=1, metavar="W",
                        help="A*: weight of the heuristic (above 1: faster, maybe longer lines)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="threads expanding states (0: one per core)")
    parser.add_argument("--path", choices=["auto", "kernel", "plain", "reference"], default="auto",
                        help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=None, help="engine seed (default: the project's)")
    parser.add_argument("--player", default=None, metavar="PID", help="only a win of this player counts")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


@command("solve", _arguments)
def _solve(args: argparse.Namespace) -> int:
    # The solver brings numba and numpy: imported when a solve runs, not at every `studio` start.
    from studio.engines.btree.search.heuristics import HeuristicError

    engine, _seed = engine_for(args, project_body(args.project))
    if args.player is not None:
        from studio.storage.btree.kind import pids_of
        from studio.storage.btree.trrbt import load_compiled

        known = pids_of(load_compiled(args.project, getattr(args, "missing_links", None)))
        if str(args.player) not in known:
            # A win of a player the game has not can never be found: "no win" read as a verdict.
            raise ProjectError(f"the game has no player {args.player!r}", file=Path(args.project),
                               hint="its players: " + (", ".join(known) or "none with a pid"))
    start = engine.snapshot()
    portfolio = None
    try:
        if args.strategy == "auto":
            portfolio = _portfolio(engine, args)
            found = portfolio.best
        else:
            found = _single(engine, args)
    except HeuristicError as exc:
        raise ProjectError(str(exc), hint="see studio solve --help") from None
    engine.restore(start)
    moves = _replayed(engine, found)
    if args.json:
        print(json.dumps(_document(found, moves, portfolio), ensure_ascii=False))
        return 0
    if found.found:
        kind = "a shortest line" if _proven(found, portfolio) else "a line"
        if portfolio is not None and not portfolio.proven:
            kind += ", not known to be shortest"
        print(f"Solved in {len(moves)} moves ({found.states} states explored; {kind}):")
        for number, move in enumerate(moves, start=1):
            print(f"  {number:>3}. [{move['index'] + 1}] {move['choice']}")
        print(result_text(found.result))
    elif found.exhausted:
        print(f"No winning line exists ({found.states} reachable states searched).")
    elif found.reason == "limit":
        print(f"No winning line found within {_max_states(args):,} states.")
    else:
        print("No winning line found.")
    if portfolio is None:
        print(f"Search: {found.report()}")
    else:
        width = max(len(member.name) for member, _ in portfolio.members) + 2
        for member, out in portfolio.members:  # the reports in one column, whatever the names
            print(f"{member.name + ':':<{width}}{out.report()}")
        if portfolio.found_by:
            print(f"Found by {portfolio.found_by} after {portfolio.found_after or 0:.1f} s "
                  f"(the first line after {portfolio.first_after or 0:.1f} s).")
    if found.note:
        print(f"Note: {found.note}")
    if portfolio is None and not found.found and not found.exhausted and found.reason != "cancelled" \
            and args.strategy == "bfs":
        print("Try --strategy astar (led by the goal), --strategy astar --weight 3 (faster; the "
              "line may be longer) or --strategy best (greedy: fastest, lines longer still).")
    return 0


def _max_states(args: argparse.Namespace) -> int:
    if args.max_states is not None:
        return args.max_states
    return 10**9 if args.strategy == "auto" else 200_000


def _single(engine, args: argparse.Namespace):
    from studio.engines.btree.search.solver import solve

    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    return solve(engine, max_states=_max_states(args), player=args.player, strategy=args.strategy,
                 heuristic=args.heuristic, weight=max(1, args.weight), jobs=jobs,
                 max_seconds=args.max_seconds, max_memory=args.max_memory, path=args.path)


def _portfolio(engine, args: argparse.Namespace):
    from studio.engines import jit
    from studio.engines.btree.search.portfolio import DEFAULT_MEMORY, DEFAULT_SECONDS, solve_portfolio

    if jit.available() and args.path == "auto":
        _compiled()
    seconds = DEFAULT_SECONDS if args.max_seconds is None else args.max_seconds

    def line(found) -> None:
        if args.json:
            return
        if found.proven:
            print(f"found a {found.moves}-move line, the shortest ({found.member.name}, "
                  f"{found.elapsed:.1f} s)", file=sys.stderr)
        else:
            print(f"found a {found.moves}-move line ({found.member.name}, {found.elapsed:.1f} s); "
                  f"looking for a shorter one for up to {seconds:g} s (ctrl+c keeps this one)",
                  file=sys.stderr)

    return solve_portfolio(engine, player=args.player, max_seconds=seconds, max_states=_max_states(args),
                           max_memory=args.max_memory or DEFAULT_MEMORY, heuristic=args.heuristic,
                           on_line=line, path=args.path)


def _compiled() -> None:
    """Compile (or load from numba's cache) the kernels before the clock starts: the first use
    after an install takes tens of seconds that would otherwise eat the search's time."""
    import time

    from studio.engines.btree.search.warm import warm_up

    began = time.monotonic()
    warm_up()
    if time.monotonic() - began > 1:
        print(f"(the solver's kernels compiled in {time.monotonic() - began:.0f} s; numba keeps them "
              "for the next time)", file=sys.stderr)


def _proven(found, portfolio) -> bool:
    return portfolio.proven if portfolio is not None else found.shortest


def _replayed(engine, found) -> list[dict]:
    """The line's moves, replayed through the engine: a line that does not end as the search
    said is never printed."""
    moves = []
    if found.found:
        engine.run_to_choice()
        for index in found.choices:
            moves.append({"index": index, "choice": choice_text(engine.choices[index].to_json())})
            engine.choose(index)
            engine.run_to_choice()
        if engine.result != found.result:
            raise ProjectError(f"the line found ends in {result_text(engine.result)!r} when replayed, "
                               f"not {result_text(found.result)!r}",
                               hint="a solver bug: please report it with the game; --path plain avoids the kernel")
    return moves


def _document(found, moves: list[dict], portfolio) -> dict:
    document = {
        "found": found.found, "moves": moves, "states": found.states, "exhausted": found.exhausted,
        "result": found.result, "reason": found.reason, "shortest": _proven(found, portfolio),
        "depth": found.depth, "elapsed": round(found.elapsed, 3), "rate": round(found.rate),
        "strategy": found.strategy, "jobs": found.jobs, "path": found.path, "note": found.note,
        "bytes_per_state": found.bytes_per_state, "memory": found.memory,
    }
    if portfolio is not None:
        document.update(
            found_by=portfolio.found_by, ended=portfolio.reason, elapsed=round(portfolio.elapsed, 3),
            first_after=None if portfolio.first_after is None else round(portfolio.first_after, 3),
            found_after=None if portfolio.found_after is None else round(portfolio.found_after, 3),
            members=[{"name": member.name, "strategy": member.strategy, "weight": member.weight,
                      "found": out.found, "moves": len(out.choices) if out.found else None,
                      "states": out.states, "reason": out.reason, "elapsed": round(out.elapsed, 3)}
                     for member, out in portfolio.members])
    return document
