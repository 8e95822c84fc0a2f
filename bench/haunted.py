#!/usr/bin/env python3
"""Haunted Tiles speed: the rules engine and whole in-process matches (spec haunted.md §12).

    .venv/bin/python bench/haunted.py [--seconds S] [--quick]

Measurements (one function each; add yours to MEASUREMENTS - the AI runner benchmarks live in
``bench/haunted_ai.py``):

* ``engine``: turns per second of ``rules.step`` alone, on random but valid moves over the
  original maps (target >= 100,000 turns/s). The baseline, measured in the same run, is a naive
  reference turn (nested lists deep-copied every turn, dict lookups) that must agree with the
  engine on every round; the original's pace (>= 3 s per turn) is printed as a second ratio.
* ``matches``: full best-of-5 matches between built-in AIs run in process with the default map
  rotation (target < 1 s per match), with their turn rate.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from studio.engines.haunted.inprocess import InProcessPlayer  # noqa: E402
from studio.engines.haunted.maps import builtin_maps, original_maps  # noqa: E402
from studio.engines.haunted.match import Entrant, MatchConfig, run_match  # noqa: E402
from studio.engines.haunted.rules import DELTAS, Round, step  # noqa: E402

ORIGINAL_SECONDS_PER_TURN = 3.0
MOVES = ("north", "south", "east", "west", "none")


# ------------------------------------------------------------------------- naive baseline


def naive_round(board, script):
    """§5.2 written the obvious way: a deep-copied dict state per turn. Returns (end, turns)."""
    state = {
        "tiles": [list(board.strengths[r * board.size:(r + 1) * board.size]) for r in range(board.size)],
        "monsters": [{"pos": list(p), "alive": True} for p in board.starts],
        "broken": {"home": 0, "away": 0},
    }
    n = board.size
    for turn, moves in enumerate(script, 1):
        state = copy.deepcopy(state)

        def hit(k, r, c):
            side = "home" if k < 3 else "away"
            if state["tiles"][r][c] >= 1:
                state["tiles"][r][c] -= 1
                state["broken"][side] += 1
                if state["tiles"][r][c] == 0:
                    state["monsters"][k]["alive"] = False
            else:
                state["monsters"][k]["alive"] = False

        for k, m in enumerate(state["monsters"]):
            if m["alive"] and moves[k] == "none":
                hit(k, *m["pos"])
        for k, m in enumerate(state["monsters"]):
            if m["alive"] and moves[k] != "none":
                dr, dc = DELTAS[moves[k]]
                m["pos"] = [m["pos"][0] + dr, m["pos"][1] + dc]
                r, c = m["pos"]
                if 0 <= r < n and 0 <= c < n:
                    hit(k, r, c)
                else:
                    m["alive"] = False
        for m in state["monsters"]:
            if m["alive"] and state["tiles"][m["pos"][0]][m["pos"][1]] == 0:
                m["alive"] = False
        home = any(m["alive"] for m in state["monsters"][:3])
        away = any(m["alive"] for m in state["monsters"][3:])
        if not (home and away):
            b = state["broken"]
            if home or away:
                return ("home" if home else "away", "eliminated"), turn
            if b["home"] != b["away"]:
                return ("home" if b["home"] > b["away"] else "away", "tiebreak"), turn
            return (None, "tie"), turn
    raise AssertionError("script too short")


def scripts(count: int, seed: int = 1):
    """Random move scripts (6 moves per turn, 80 turns: longer than any round can last)."""
    rng = random.Random(seed)
    # Mostly jumps and steps inward-ish, so rounds last more than a couple of turns.
    weights = (2, 2, 3, 3, 4)
    return [[tuple(rng.choices(MOVES, weights)[0] for _ in range(6)) for _ in range(80)]
            for _ in range(count)]


def engine_round(board, script, record=True):
    state = Round(board).initial_state()
    for moves in script:
        state, _ = step(state, moves[:3], moves[3:], record=record)
        if state.end is not None:
            return (state.end.winner, state.end.reason), state.end.turns
    raise AssertionError("script too short")


# --------------------------------------------------------------------------- measurements


def measure_engine(seconds: float) -> dict:
    boards = original_maps()
    pool = scripts(200)
    # Agreement first: the baseline is only a baseline if it plays the same game.
    for i, script in enumerate(pool):
        board = boards[i % len(boards)]
        assert engine_round(board, script) == naive_round(board, script), f"disagree on script {i}"

    def rate(play) -> float:
        turns, start, i = 0, time.perf_counter(), 0
        while time.perf_counter() - start < seconds:
            turns += play(boards[i % len(boards)], pool[i % len(pool)])[1]
            i += 1
        return turns / (time.perf_counter() - start)

    fast, naive = rate(engine_round), rate(naive_round)
    bulk = rate(lambda board, script: engine_round(board, script, record=False))
    return {
        "engine turns/s (with events)": f"{fast:,.0f}",
        "engine turns/s (record=False)": f"{bulk:,.0f}",
        "naive reference turns/s": f"{naive:,.0f}",
        "engine vs naive": f"{fast / naive:.1f}x",
        "engine vs original pace (3 s/turn)": f"{fast * ORIGINAL_SECONDS_PER_TURN:,.0f}x",
        "target >= 100,000 turns/s (with events)": "met" if fast >= 100_000 else "NOT met",
    }


def measure_matches(seconds: float, pairs=(("greedy", "lookahead"), ("cautious", "greedy"),
                                           ("wander", "cautious"))) -> dict:
    maps = builtin_maps()
    out: dict = {}
    worst = 0.0
    for a, b in pairs:
        matches, turns, start = 0, 0, time.perf_counter()
        while time.perf_counter() - start < seconds or matches == 0:
            result = run_match(Entrant(a, lambda a=a: InProcessPlayer(a)),
                               Entrant(b, lambda b=b: InProcessPlayer(b)),
                               maps, MatchConfig(), seed=matches)
            matches += 1
            turns += sum(r.turns for r in result.rounds)
        elapsed = time.perf_counter() - start
        per_match = elapsed / matches
        worst = max(worst, per_match)
        original = turns / matches * ORIGINAL_SECONDS_PER_TURN
        out[f"{a} vs {b}"] = (f"{per_match * 1000:.1f} ms/match, {turns / elapsed:,.0f} turns/s, "
                              f"{original / per_match:,.0f}x the original's pace")
    out["target < 1 s per match"] = "met" if worst < 1.0 else "NOT met"
    return out


MEASUREMENTS = {"engine": measure_engine, "matches": measure_matches}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--quick", action="store_true", help="0.3 s per measurement")
    parser.add_argument("only", nargs="*", metavar="NAME",
                        help=f"measurements to run (default all: {', '.join(MEASUREMENTS)})")
    args = parser.parse_args()
    unknown = set(args.only) - set(MEASUREMENTS)
    if unknown:
        parser.error(f"unknown measurement(s): {', '.join(sorted(unknown))}")
    seconds = 0.3 if args.quick else args.seconds
    for name, measure in MEASUREMENTS.items():
        if args.only and name not in args.only:
            continue
        print(f"== {name}")
        for key, value in measure(seconds).items():
            print(f"  {key:<42} {value}")


if __name__ == "__main__":
    main()
