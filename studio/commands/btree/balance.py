"""``studio balance``: the computer plays a two-player (or any) game against itself; each seat's
win / draw / loss rate with a 95% interval, and the mean game length (issue 32)."""

from __future__ import annotations

import argparse
import json
import sys

from studio.commands import command
from studio.commands.btree.formats import load_compiled
from studio.commands.btree.play import project_body
from studio.engines.btree.play.balance import BalanceReport, balance, report_lines
from studio.storage import ProjectError


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="GAME", help="a btree project or trrbt game file")
    parser.add_argument("--games", type=int, default=20, metavar="N",
                        help="games to play (default 20), seeds SEED, SEED+1, …")
    parser.add_argument("--seconds", type=float, default=1.0, metavar="S",
                        help="the computer's time per move (default 1)")
    parser.add_argument("--playouts", type=int, default=None, metavar="P",
                        help="a playout budget per move instead of a time: the same report on "
                             "any machine")
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: the project's)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress line on stderr")


def report_json(report: BalanceReport) -> dict:
    seats = {}
    for pid, record in report.seats.items():
        seats[pid] = {"first": record.first, "games": record.games}
        for outcome in ("win", "draw", "loss"):
            rate, low, high = record.rate(outcome)
            seats[pid][outcome] = {"rate": rate, "low": low, "high": high}
    return {"games": report.games, "seats": seats, "mean_length": report.mean_length,
            "lengths": report.lengths, "results": report.results}


@command("balance", _arguments)
def _balance(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise ProjectError("--games must be 1 or more")
    if args.playouts is None and not 0 < args.seconds <= 600:
        raise ProjectError("--seconds must be in (0, 600]")
    if args.playouts is not None and args.playouts < 1:
        raise ProjectError("--playouts must be 1 or more")
    body = project_body(args.project)
    compiled = load_compiled(args.project)
    seed = args.seed if args.seed is not None else int(body.get("btree", {}).get("seed", 0))

    def progress(done: int, _report: BalanceReport) -> None:
        if not args.quiet:
            sys.stderr.write(f"\rgame {done}/{args.games}")
            sys.stderr.flush()

    seconds = None if args.playouts is not None else args.seconds
    report = balance(compiled, args.games, seconds, args.playouts, seed, progress=progress)
    if not args.quiet:
        sys.stderr.write("\n")
    if args.json:
        print(json.dumps(report_json(report), indent=2))
        return 0
    how = f"{args.playouts} playouts a move" if args.playouts is not None else f"{args.seconds:g} s a move"
    name = getattr(compiled, "name", "") or args.project
    print("\n".join(report_lines(str(name), report, f"{how}, seeds {seed}–{seed + args.games - 1}")))
    return 0
