#!/usr/bin/env python3
"""Haunted Tiles speed: the rules engine and whole in-process matches (spec haunted.md §12).

    .venv/bin/python bench/haunted.py [--seconds S] [--quick] [NAME ...]
    .venv/bin/python bench/haunted.py ai        # the rollout AI's win rate (a few minutes)

Measurements (one function each; add yours to MEASUREMENTS - the AI runner benchmarks live in
``bench/haunted_ai.py``):

* ``engine``: turns per second of ``rules.step`` alone, on random but valid moves over the
  original maps (target >= 100,000 turns/s). The baseline, measured in the same run on the same
  rounds and timed the same way, is a naive reference turn (nested lists deep-copied every turn,
  dict lookups) that must agree with the engine on every round. The original's pace (an assumed
  3 s per turn) is printed as context, not as a measured ratio.
* ``matches``: full best-of-5 matches between built-in AIs run in process with the default map
  rotation (target < 1 s per match), with their turn rate (and, as context, the original's pace).
* ``sim``: turns per second of the batch simulator's numba kernel on one core, rounds between
  simple policies, against its plain path (the same policies on ``rules.step``): both run the
  same seeded rounds (sized so a plain run takes about ``--seconds``), best of the same number of
  runs, and must give the same outcomes. The target (>= 5,000,000 turns/s) is checked on the
  kernel alone over 20,000 rounds (an absolute rate: no baseline in it).
* ``fairness``: the map editor's and ``studio map-check``'s check, 10,000 rounds per policy pair
  on each original map after warm-up (target <= 1 s per map, all pairs).
* ``ai`` (only when named: minutes): ``builtin:montecarlo`` against ``builtin:lookahead``, 50
  seeded best-of-5 matches on the default rotation, half of them at home (target: wins >= 70%),
  in process (the same moves as in its worker: it is deterministic), with its time per move.
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
"""The original game's pace, assumed (not measured): only ever printed as context."""
REPEATS = 3
"""Runs of each timed piece of work; the best is kept, on both sides of every ratio."""
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
    work = [(boards[i % len(boards)], script) for i, script in enumerate(pool)]
    # Agreement first: the baseline is only a baseline if it plays the same game.
    for i, (board, script) in enumerate(work):
        assert engine_round(board, script) == naive_round(board, script), f"disagree on script {i}"
    # Both sides play the same rounds, as many passes over them as the naive turn fits in about
    # ``seconds``, best of REPEATS runs each.
    start = time.perf_counter()
    turns = sum(naive_round(board, script)[1] for board, script in work)
    passes = max(1, round(seconds / (time.perf_counter() - start)))

    def rate(play) -> float:
        best = float("inf")
        for _ in range(REPEATS):
            start = time.perf_counter()
            for _ in range(passes):
                for board, script in work:
                    play(board, script)
            best = min(best, time.perf_counter() - start)
        return turns * passes / best

    fast, naive = rate(engine_round), rate(naive_round)
    bulk = rate(lambda board, script: engine_round(board, script, record=False))
    return {
        f"work (each side, best of {REPEATS} runs)": f"{passes} pass(es) over {len(work)} "
                                                     f"rounds, {turns * passes:,} turns",
        "engine turns/s (with events)": f"{fast:,.0f}",
        "engine turns/s (record=False)": f"{bulk:,.0f}",
        "naive reference turns/s": f"{naive:,.0f}",
        "engine vs naive": f"{fast / naive:.1f}x",
        "context (not measured)": f"{fast * ORIGINAL_SECONDS_PER_TURN:,.0f}x the original's pace "
                                  "at an assumed 3 s/turn",
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
        out[f"{a} vs {b}"] = (f"{per_match * 1000:.1f} ms/match, {turns / elapsed:,.0f} turns/s "
                              f"(context: {original / per_match:,.0f}x the original's pace at "
                              "an assumed 3 s/turn)")
    out["target < 1 s per match"] = "met" if worst < 1.0 else "NOT met"
    return out


def _sim_rate(board, home, away, seeds, plain: bool) -> tuple[float, object]:
    from studio.engines.haunted.sim.batch import play, start_of  # noqa: PLC0415

    start = time.perf_counter()
    out = play(start_of(board), home, away, seeds, plain=plain)
    return int(out.turns.sum()) / (time.perf_counter() - start), out


def measure_sim(seconds: float) -> dict:
    from studio.engines import jit  # noqa: PLC0415
    from studio.engines.haunted.sim.batch import Policy, seeds_for, warm_up  # noqa: PLC0415

    if not jit.available():
        return {"numba": f"not available ({jit.reason()}): only the plain path runs"}
    warm_up()
    board = original_maps()[0]
    pairs = {"greedy~0.2 vs greedy~0.2": (Policy("greedy", 0.2), Policy("greedy", 0.2).mirror()),
             "safe vs safe": (Policy("safe"), Policy("safe").mirror()),
             "random vs safe": (Policy("random"), Policy("safe").mirror()),
             "lookahead~0.2 vs lookahead~0.2": (Policy("lookahead", 0.2), Policy("lookahead", 0.2).mirror())}
    out: dict = {}
    worst = float("inf")
    for label, (home, away) in pairs.items():
        # Size the work so that one plain run takes about ``seconds``; then both paths run those
        # same rounds REPEATS times each, and must agree on every outcome.
        slow, _ = _sim_rate(board, home, away, seeds_for(1, 20), plain=True)
        count = max(20, int(seconds * slow / 17))  # rounds last some 17 turns
        seeds = seeds_for(1, count)
        plain_runs = [_sim_rate(board, home, away, seeds, plain=True) for _ in range(REPEATS)]
        kernel_runs = [_sim_rate(board, home, away, seeds, plain=False) for _ in range(REPEATS)]
        reference, same = plain_runs[0][1], kernel_runs[0][1]
        assert (same.winner == reference.winner).all() and (same.turns == reference.turns).all(), label
        slow = max(rate for rate, _ in plain_runs)
        fast = max(rate for rate, _ in kernel_runs)
        # The target is an absolute rate: the kernel alone, on enough rounds to dwarf the call.
        rounds = 20_000 if "lookahead" not in label else 4_000
        alone = max(_sim_rate(board, home, away, seeds_for(2 + i, rounds), plain=False)[0]
                    for i in range(REPEATS))
        simple = "lookahead" not in label
        if simple:
            worst = min(worst, alone)
        out[label] = (f"{count:,} rounds: kernel {fast:,.0f} turns/s, plain {slow:,.0f} turns/s: "
                      f"{fast / slow:,.0f}x; kernel alone on {rounds:,} rounds {alone:,.0f} turns/s"
                      + ("" if simple else "  (not a simple policy: flood fills every move)"))
    out["target >= 5,000,000 turns/s (simple pairs, one core)"] = (
        f"met (slowest {worst:,.0f})" if worst >= 5_000_000 else f"NOT met (slowest {worst:,.0f})")
    return out


def measure_fairness(seconds: float) -> dict:
    from studio.engines import jit  # noqa: PLC0415
    from studio.engines.haunted.sim.batch import warm_up  # noqa: PLC0415
    from studio.engines.haunted.sim.fairness import check  # noqa: PLC0415

    if not jit.available():
        return {"numba": f"not available ({jit.reason()}): the check runs plain, with fewer rounds"}
    warm_up()
    out: dict = {}
    worst = 0.0
    for board in original_maps():
        start = time.perf_counter()
        results = check(board, 10_000)
        took = time.perf_counter() - start
        worst = max(worst, took)
        dearest = max(results, key=lambda r: r.seconds)
        out[board.name] = (f"{took:.2f} s for {len(results)} pairs x 10,000 rounds "
                           f"(dearest: {dearest.home} vs {dearest.away}, {dearest.seconds:.2f} s)")
    out["target <= 1 s per map after warm-up"] = "met" if worst <= 1.0 else f"NOT met (worst {worst:.2f} s)"
    return out


AI_MATCHES = 50


def measure_ai(seconds: float) -> dict:
    """``builtin:montecarlo`` against ``builtin:lookahead``: share of best-of-5 matches won."""
    from studio.engines import jit  # noqa: PLC0415
    from studio.engines.haunted.sim.batch import warm_up  # noqa: PLC0415

    if jit.available():
        warm_up()
    maps = builtin_maps()
    timed: list[float] = []

    class Timed(InProcessPlayer):
        def request(self, turn, state, side):
            start = time.perf_counter()
            super().request(turn, state, side)
            timed.append(time.perf_counter() - start)

    won = rounds_won = rounds_lost = rounds_tied = 0
    started = time.perf_counter()
    outcomes = {}
    for seed in range(AI_MATCHES):
        ours = Entrant("montecarlo", lambda: Timed("montecarlo"))
        theirs = Entrant("lookahead", lambda: InProcessPlayer("lookahead"))
        home_first = seed % 2 == 0  # A is home in every round: half the matches each way
        a, b = (ours, theirs) if home_first else (theirs, ours)
        result = run_match(a, b, maps, MatchConfig(), seed=seed)
        outcomes[seed] = _outcome(result)
        mine = "A" if home_first else "B"
        won += result.winner == mine
        rounds_won += result.wins[mine]
        rounds_lost += result.wins["B" if home_first else "A"]
        rounds_tied += result.ties
    elapsed = time.perf_counter() - started
    share = won / AI_MATCHES
    timed.sort()
    in_workers = _ai_in_workers(maps, outcomes) if jit.available() else "skipped (no numba)"
    return {
        "numba": "yes" if jit.available() else f"no ({jit.reason()}): it played as lookahead",
        "matches won": f"{won} of {AI_MATCHES} ({share:.0%}), half of them at home",
        "rounds won-lost-tied": f"{rounds_won}-{rounds_lost}-{rounds_tied}",
        "time per move": (f"median {timed[len(timed) // 2] * 1000:.0f} ms, "
                          f"max {timed[-1] * 1000:.0f} ms (limit 2,000 ms)"),
        "whole run": f"{elapsed:.0f} s",
        "in sandboxed workers (seeds 0, 1)": in_workers,
        "target >= 70% of matches won": "met" if share >= 0.7 else "NOT met",
    }


def _outcome(result) -> list:
    return [(r.map, r.winner, r.reason, r.turns) for r in result.rounds]


def _ai_in_workers(maps, outcomes: dict) -> str:
    """Two of the matches again with each AI in its sandboxed worker: same rounds, move times."""
    from studio.sessions.haunted.entrants import resolve_entrant  # noqa: PLC0415

    config = MatchConfig()
    times: list[float] = []
    same = True
    for seed in (0, 1):
        ours = resolve_entrant("builtin:montecarlo", config)
        theirs = resolve_entrant("builtin:lookahead", config)
        a, b = (ours, theirs) if seed % 2 == 0 else (theirs, ours)
        result = run_match(a, b, maps, config, seed=seed)
        same &= _outcome(result) == outcomes[seed]
        for played in result.rounds:
            side = "home" if (played.home == "A") == (seed % 2 == 0) else "away"
            times += [turn[side]["ms"] for turn in played.record.get("turns", []) if side in turn]
    times.sort()
    verdict = "the same rounds as in process" if same else "DIFFERENT rounds from in process"
    return (f"{verdict}; time per move median {times[len(times) // 2]:.0f} ms, "
            f"max {times[-1]:.0f} ms")


MEASUREMENTS = {"engine": measure_engine, "matches": measure_matches, "sim": measure_sim,
                "fairness": measure_fairness, "ai": measure_ai}
ON_REQUEST = {"ai"}
"""Run only when named: they take minutes."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--quick", action="store_true", help="0.3 s per measurement")
    parser.add_argument("only", nargs="*", metavar="NAME",
                        help=f"measurements to run (default all but {', '.join(ON_REQUEST)}: "
                             f"{', '.join(MEASUREMENTS)})")
    args = parser.parse_args()
    unknown = set(args.only) - set(MEASUREMENTS)
    if unknown:
        parser.error(f"unknown measurement(s): {', '.join(sorted(unknown))}")
    seconds = 0.3 if args.quick else args.seconds
    for name, measure in MEASUREMENTS.items():
        if (args.only and name not in args.only) or (not args.only and name in ON_REQUEST):
            continue
        print(f"== {name}")
        for key, value in measure(seconds).items():
            print(f"  {key:<42} {value}")


if __name__ == "__main__":
    main()
