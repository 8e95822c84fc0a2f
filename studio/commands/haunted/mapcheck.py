"""``studio map-check MAP``: is a Haunted Tiles map fair? (spec haunted.md §10.3, by simulation)

    studio map-check WaffleTown
    studio map-check "Islands 11" --project games/haunted-tiles.toml --rounds 20000 --json
    studio map-check Default --pair greedy~0.2:greedy~0.2 --pair safe:lookahead
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from studio.commands import command
from studio.engines import jit
from studio.engines.haunted.board import Map
from studio.engines.haunted.maps import builtin_maps
from studio.storage import ProjectError, load_project
from studio.storage.haunted.kind import maps_of

if TYPE_CHECKING:  # the simulator brings numba: imported when the command runs, not at every start
    from studio.engines.haunted.sim.batch import Policy


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("map", metavar="MAP", help="a map name (of --project, else a built-in map)")
    parser.add_argument("--project", metavar="P.toml", help="a haunted project whose maps to use")
    parser.add_argument("--rounds", type=int, default=10_000, metavar="N",
                        help="rounds per policy pair (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the rounds (default 1)")
    parser.add_argument("--pair", action="append", metavar="HOME:AWAY",
                        help="a policy pair, away mirrored: random, safe, greedy, lookahead, with ~NOISE "
                             "(default: safe, greedy~0.2, lookahead~0.2 each against itself, "
                             "and safe against greedy~0.2 both ways)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")


def _project_maps(path: Path) -> dict[str, Map]:
    project = load_project(path)
    if project.kind != "haunted":
        raise ProjectError("not a Haunted Tiles project", file=path, hint="give a haunted project's .toml")
    try:
        return maps_of(project.body)
    except ProjectError as exc:
        raise exc.with_file(path) from None


def _pair(text: str) -> tuple[Policy, Policy]:
    """``HOME:AWAY``; away is mirrored, so that a policy against itself plays alike on both ends."""
    from studio.engines.haunted.sim.fairness import parse_policy

    hint = "write HOME:AWAY with policies random, safe, greedy, lookahead and ~NOISE, e.g. greedy~0.2:safe"
    home, colon, away = text.partition(":")
    if not colon or not home or not away:
        raise ProjectError(f"bad --pair {text!r}: no HOME:AWAY", hint=hint)
    try:
        return parse_policy(home), parse_policy(away).mirror()
    except ValueError as exc:
        raise ProjectError(f"bad --pair {text!r}: {exc}", hint=hint) from None


@command("map-check", _arguments)
def _map_check(args: argparse.Namespace) -> int:
    from studio.engines.haunted.sim.fairness import check, summary

    project = Path(args.project) if args.project else None
    maps = _project_maps(project) if project else builtin_maps()
    if args.map not in maps:
        where = "the project" if project else "the built-in maps (or give --project P.toml)"
        raise ProjectError(f"no map named {args.map!r} in {where}", file=project,
                           hint="maps: " + ", ".join(maps))
    pairs = [_pair(text) for text in args.pair] if args.pair else None
    board = maps[args.map]
    rounds = max(1, args.rounds)
    if not jit.available():  # said before the wait, not only in the result
        print(f"studio: {jit.reason()}: the plain path plays the rounds, about 100 times slower "
              "(--rounds sets how many)", file=sys.stderr)
    results = check(board, rounds, args.seed, pairs)
    path = "numba" if jit.available() else f"plain Python ({jit.reason()})"
    if args.json:
        print(json.dumps({"map": board.name, "symmetric": board.is_symmetric(), "path": path,
                          "pairs": [r.to_json() for r in results], "summary": summary(board, results)},
                         indent=2))
        return 0
    print(f"{board.name} ({board.size}x{board.size}), {rounds:,} rounds per pair, {path}:")
    for result in results:
        print("  " + result.line())
    print(summary(board, results))
    return 0
