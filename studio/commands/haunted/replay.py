"""``studio replay FILE``: play a Haunted Tiles replay back in the plain terminal, turn by turn;
``--verify`` (or ``studio replay verify FILE``) re-simulates it and checks every recorded result.
"""

from __future__ import annotations

import argparse
import sys
import time

from studio.commands import command
from studio.engines.common.words import counted
from studio.engines.haunted import replay as replays
from studio.engines.haunted.match_data import tally
from studio.engines.haunted.rules import RoundState, label
from studio.sessions.haunted.replays import describe_result
from studio.storage import ProjectError
from studio.storage.haunted.replay import load_replay

_SHADES = {3: "3", 2: "2", 1: "1", 0: "."}


def render(state: RoundState) -> list[str]:
    """The board as text: a digit per strength, ``.`` for a hole, ``H0``..``A2`` for monsters
    (``+`` marks a tile with several)."""
    n = state.size
    here: dict[tuple[int, int], list[str]] = {}
    for k in range(6):
        if state.alive[k]:
            here.setdefault(state.positions[k], []).append(label(k))
    lines = []
    for r in range(n):
        cells = []
        for c in range(n):
            who = here.get((r, c))
            if who:
                cells.append(who[0] + ("+" if len(who) > 1 else " "))
            else:
                cells.append(" " + _SHADES[state.strengths[r * n + c]] + " ")
        lines.append("".join(cells).rstrip())
    return lines


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a replay (.json or .json.gz)")
    parser.add_argument("extra", nargs="?", help=argparse.SUPPRESS)  # `studio replay verify FILE`
    parser.add_argument("--verify", action="store_true",
                        help="re-simulate every round and check the recorded results")
    parser.add_argument("--round", type=int, metavar="K", help="show only round K")
    parser.add_argument("--delay", type=float, default=0.0, metavar="S",
                        help="seconds to wait between turns (default 0)")


@command("replay", _arguments)
def _replay(args: argparse.Namespace) -> int:
    path, verify = args.file, args.verify
    if args.file == "verify" and args.extra:
        path, verify = args.extra, True
    elif args.extra:
        raise ProjectError(f"unexpected argument {args.extra!r}")
    document = load_replay(path)
    if verify:
        problems = replays.verify(document)
        if problems:
            for problem in problems:
                print(f"{path}: {problem}", file=sys.stderr)
            raise ProjectError(replays.MISMATCH, hint=f"{counted(len(problems), 'problem')} above")
        print(f"{path}: ok, {counted(len(document['rounds']), 'round')} re-simulated")
        return 0
    teams = document["teams"]
    print(f"{teams['A']['name']} (A) vs {teams['B']['name']} (B), seed {document['seed']}")
    numbers = [args.round] if args.round else range(1, len(document["rounds"]) + 1)
    for number in numbers:
        if not 1 <= number <= len(document["rounds"]):
            raise ProjectError(f"the replay has no round {number}")
        _play_round(document, number, args.delay)
    result = document["result"]
    if result["winner"] is None:  # an aborted match has no winner
        print(describe_result(document))
        return 0
    toss = " after a coin toss" if result.get("coin_toss") else ""
    print(f"{teams[result['winner']]['name']} wins "
          f"{tally(result['wins'], result['ties'], result['winner'], '-')}{toss}")
    return 0


def _play_round(document: dict, number: int, delay: float) -> None:
    record = document["rounds"][number - 1]
    if "map" not in record:
        print(f"\n=== round {number}: aborted before it began ===")
        return
    teams = document["teams"]
    home = teams[record["home"]]["name"]
    away = teams["B" if record["home"] == "A" else "A"]["name"]
    print(f"\n=== round {number}: {record['map']}, {home} home vs {away} away ===")
    for frame in replays.frames(document, number):
        if frame.record is None:
            print("start")
        else:
            moves = {s: frame.record[s].get("moves") or [] for s in ("home", "away")}
            print(f"\nturn {frame.turn}: home {' '.join(m or '-' for m in moves['home'])}"
                  f" | away {' '.join(m or '-' for m in moves['away'])}")
            for side in ("home", "away"):
                for warning in frame.record[side].get("warnings", []):
                    print(f"  warning: {warning}")
            for line in frame.record.get("events", []):
                print(f"  {line}")
        print("\n".join("  " + line for line in render(frame.state)))
        if delay:
            time.sleep(delay)
    for turn in record["turns"]:
        for side in ("home", "away"):
            if turn[side].get("failure"):
                print(f"turn {turn['turn']}: {side} failed ({turn[side]['failure']}): "
                      f"{turn[side].get('error', '')}")
    for team, load in record.get("load", {}).items():
        if not load.get("ok", True):
            print(f"{teams[team]['name']} failed to load ({load.get('failure')}): {load.get('error', '')}")
    if record.get("aborted"):
        print(f"round {number}: the match was stopped here, after {len(record['turns'])} turns")
        return
    result = record["result"]
    winner = result["winner"] or "nobody"
    print(f"round {number}: {winner} wins ({result['reason']}) after {result['turns']} turns, "
          f"broken {result['broken']['home']}-{result['broken']['away']}")
