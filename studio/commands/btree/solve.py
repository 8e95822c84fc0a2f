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
    parser.add_argument("--max-states", type=int, default=200_000, metavar="N",
                        help="give up after N distinct states (default 200000)")
    parser.add_argument("--max-seconds", type=float, default=None, metavar="S",
                        help="give up after S seconds")
    parser.add_argument("--max-memory", type=memory_size, default=None, metavar="SIZE",
                        help="give up before the search holds more than SIZE (e.g. 512M, 2G)")
    parser.add_argument("--strategy", choices=["bfs", "astar", "best", "dfs"], default="bfs",
                        help="bfs: shortest line (default); astar: shortest with an admissible "
                             "heuristic; best: greedy best-first; dfs: depth first")
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
    from studio.engines.btree.search.solver import solve

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
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    try:
        found = solve(engine, max_states=args.max_states, player=args.player, strategy=args.strategy,
                      heuristic=args.heuristic, weight=max(1, args.weight), jobs=jobs,
                      max_seconds=args.max_seconds, max_memory=args.max_memory, path=args.path)
    except HeuristicError as exc:
        raise ProjectError(str(exc), hint="see studio solve --help") from None
    engine.restore(start)
    moves = []
    if found.found:
        engine.run_to_choice()
        for index in found.choices:
            moves.append({"index": index, "choice": choice_text(engine.choices[index].to_json())})
            engine.choose(index)
            engine.run_to_choice()
        if engine.result != found.result:  # the search and the engine disagree: never print a bad line
            raise ProjectError(f"the line found ends in {result_text(engine.result)!r} when replayed, "
                               f"not {result_text(found.result)!r}",
                               hint="a solver bug: please report it with the game; --path plain avoids the kernel")
    if args.json:
        print(json.dumps({
            "found": found.found, "moves": moves, "states": found.states, "exhausted": found.exhausted,
            "result": found.result, "reason": found.reason, "shortest": found.shortest,
            "depth": found.depth, "elapsed": round(found.elapsed, 3), "rate": round(found.rate),
            "strategy": found.strategy, "jobs": found.jobs, "path": found.path, "note": found.note,
            "bytes_per_state": found.bytes_per_state, "memory": found.memory,
        }, ensure_ascii=False))
        return 0
    if found.found:
        kind = "a shortest line" if found.shortest else "a line"
        print(f"Solved in {len(moves)} moves ({found.states} states explored; {kind}):")
        for number, move in enumerate(moves, start=1):
            print(f"  {number:>3}. [{move['index'] + 1}] {move['choice']}")
        print(result_text(found.result))
    elif found.exhausted:
        print(f"No winning line exists ({found.states} reachable states searched).")
    elif found.reason == "limit":
        print(f"No winning line found within {args.max_states} states.")
    else:
        print("No winning line found.")
    print(f"Search: {found.report()}")
    if found.note:
        print(f"Note: {found.note}")
    if not found.found and not found.exhausted and found.reason != "cancelled" and args.strategy == "bfs":
        print("Try --strategy astar (led by the goal), --strategy astar --weight 3 (faster; the "
              "line may be longer) or --strategy best (greedy: fastest, lines longer still).")
    return 0
