#!/usr/bin/env python3
"""TileCode round speed: fast path vs the plain-Python reference path, measured in the same run.

    .venv/bin/python bench/tilecode.py [--rounds N] [--quick]

Games are built in code (no files needed): a 32×24 "mine" game with ~40 sprites and 14 rules
(views: 4-way player, gravity, wandering enemies, smash stops, a never rule), and 128×128
"crowd" maps with 500 / 1000 / 2000 wandering sprites to show how the cost grows. Targets
(issue): under 0.5 ms per round on 32×24, under 10 ms per round on 128×128 with 2,000 sprites,
cost growing linearly in sprites. Rounds run with ``record=False`` (no event objects) for the
headline figures; the per-round cost with events is printed beside them.

Every column of a row runs the same rounds (same game, seed and buttons), once each. The plain
path takes up to a few seconds per round on the crowded maps, so those rows run an eighth of
``--rounds`` on every path alike; the rounds run are printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from studio.engines.tilecode.engine import load  # noqa: E402
from studio.engines.tilecode.model import (  # noqa: E402
    ArtKind, Command, Game, Rule, SpritePlacement, TileMap, TileRecord,
)

BUTTONS = ("left", "up", "right", "down", "A")


def rec(col, row, include=(), include2=(), exclude=(), dir="any", do=()):
    return TileRecord(col, row, frozenset(include), frozenset(include2), frozenset(exclude), dir,
                      tuple(Command.parse(c) for c in do))


def build(width: int, height: int, sprites: list[tuple[int, int, int]], rules, seed: int) -> Game:
    rng = random.Random(seed)
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            border = x in (0, width - 1) or y in (0, height - 1)
            row.append(0 if border else rng.choice((1, 1, 1, 1, 1, 1, 2, 3)))
        rows.append(tuple(row))
    placements = tuple(sorted((SpritePlacement(x, y, k) for x, y, k in sprites),
                              key=lambda p: (p.y, p.x)))
    return Game("bench", tuple(ArtKind(f"b{i}") for i in range(4)),
                tuple(ArtKind(f"s{i}") for i in range(4)),
                TileMap(width, height, tuple(rows), placements), tuple(rules))


# b0 wall, b1 dirt, b2 space, b3 dirt2; s0 player, s1 boulder, s2 enemy, s3 diamond
RULES = [
    Rule(0, "press", (rec(2, 2, ["s0"], do=["move right"]), rec(3, 2, exclude=["b0", "s1"])),
         "right", "rotate-3-way"),
    Rule(1, "press", (rec(2, 2, ["s0"], do=["move right"]),
                      rec(3, 2, ["s1"], do=["move right"]), rec(3, 3, ["b1", "b3"])),
         "right", "flip-horizontal"),
    Rule(2, "change", (rec(2, 2, ["s0"], dir="moving", do=["paint b2"]),)),
    Rule(3, "change", (rec(2, 2, ["s1", "s3"], do=["move down"]),
                       rec(2, 3, ["b2"], exclude=["s0", "s1", "s2", "s3"]))),
    Rule(4, "change", (rec(2, 2, ["s1", "s3"], dir="resting", do=["move right"]),
                       rec(3, 2, ["b2"], exclude=["s1", "s3"]), rec(3, 3, ["b2"]),
                       rec(2, 3, ["s1", "s3"], dir="resting")), None, "flip-horizontal"),
    Rule(5, "change", (rec(2, 2, ["s2"], dir="right", do=["move right"]),
                       rec(3, 2, exclude=["b0", "s1", "s3"])), None, "rotate-3-way"),
    Rule(6, "change", (rec(2, 2, ["s2"], dir="resting", do=["move right"]),
                       rec(3, 2, exclude=["b0", "s1", "s3"])), None, "rotate-3-way"),
    Rule(7, "smash", (rec(2, 2, ["s1", "s3"], dir="down", do=["move stop"]),
                      rec(2, 3, ["b0", "b1", "b3", "s1", "s3", "s2"]))),
    Rule(8, "smash", (rec(2, 2, ["s0"], dir="right", do=["move stop"]),
                      rec(3, 2, ["s1"], dir="resting")), None, "rotate-3-way"),
    Rule(9, "smash", (rec(2, 2, ["s0"], dir="right"),
                      rec(3, 2, ["s3"], do=["destroy", "game score"])), None, "rotate-3-way"),
    Rule(10, "smash", (rec(2, 2, ["s2"], dir="right", do=["move stop"]),
                       rec(3, 2, ["s2"], dir="resting")), None, "rotate-3-way"),
    Rule(12, "smash", (rec(2, 2, ["s2"], dir="right"), rec(3, 2, ["s0"], do=["game score"])),
         None, "rotate-3-way"),
    Rule(13, "change", (rec(2, 2, ["s2"], dir="moving"), rec(2, 3, ["b1"], do=["paint b3"]))),
    Rule(14, "never", (rec(2, 2, ["s3"], do=["game win"]),)),
]


def small_game(seed: int = 1) -> Game:
    rng = random.Random(seed)
    sprites = [(16, 12, 0)]
    while len(sprites) < 40:
        x, y = rng.randrange(1, 31), rng.randrange(1, 23)
        if all((x, y) != s[:2] for s in sprites):
            sprites.append((x, y, rng.choice((1, 1, 2, 3, 3))))
    return build(32, 24, sprites, RULES, seed)


def crowd_game(count: int, seed: int = 2) -> Game:
    rng = random.Random(seed)
    cells = rng.sample([(x, y) for y in range(1, 127) for x in range(1, 127)], count)
    sprites = [(x, y, 0 if i == 0 else rng.choice((1, 2, 2, 2, 3))) for i, (x, y) in
               enumerate(cells)]
    return build(128, 128, sprites, RULES, seed)


def per_round(game: Game, rounds: int, reference: bool, record: bool = False) -> float:
    """Milliseconds per round over ``rounds`` rounds of random buttons (after round 0)."""
    tg = load(game, reference=reference)
    state = tg.initial_state(7)
    state, _ = tg.step(state, ())
    pick = random.Random(3)
    inputs = [(pick.choice(BUTTONS),) if pick.random() < 0.6 else () for _ in range(rounds)]
    start = time.perf_counter()
    done = 0
    for buttons in inputs:
        if state.status != "play":
            break
        state, _ = tg.step(state, buttons, record=record)
        done += 1
    return (time.perf_counter() - start) * 1000 / max(done, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds per measurement")
    parser.add_argument("--quick", action="store_true", help="fewer rounds (CI smoke run)")
    args = parser.parse_args()
    rounds = 20 if args.quick else args.rounds
    print("TileCode rounds: ms per round (lower is better); each path runs the same rounds")
    print(f"{'game':<28}{'rounds':>7}{'fast':>9}{'+events':>9}{'plain':>9}{'ratio':>8}  target")
    rows = [("32x24, 40 sprites", small_game(), 0.5)]
    rows += [(f"128x128, {n} sprites", crowd_game(n), 10.0 if n == 2000 else None)
             for n in (500, 1000, 2000)]
    crowd = {}
    for name, game, target in rows:
        big = game.map.width > 32
        n = max(rounds // (8 if big else 1), 3)
        fast = per_round(game, n, reference=False)
        events = per_round(game, n, reference=False, record=True)
        plain = per_round(game, n, reference=True)
        verdict = "" if target is None else f"< {target} ms: {'ok' if fast < target else 'MISSED'}"
        print(f"{name:<28}{n:>7}{fast:>9.3f}{events:>9.3f}{plain:>9.3f}{plain / fast:>7.1f}x  "
              f"{verdict}")
        if big:
            crowd[len(game.map.sprites)] = fast
    if crowd:
        base = crowd[min(crowd)] / min(crowd)
        growth = "  ".join(f"{n}: {ms / n / base:.2f}" for n, ms in sorted(crowd.items()))
        print(f"cost per sprite relative to {min(crowd)} sprites (1.00 = linear): {growth}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
