#!/usr/bin/env python3
"""btree runtime speed: turns/s with random players, and choice enumeration; fast vs plain path.

    .venv/bin/python bench/btree.py [--corpus ../shared/corpus/btree] [--quick]

Baseline measured in the same run: the same engine with the plain-Python reference matcher
(``Engine(..., reference=True)``), playing the same games with the same random choices, timed the
same way (best of the same number of runs). Turn rates are also set against the reference
engine's figures of btree.md §10 (V8 running engine.js, random players; "turn" = one player
choice; the issue's target is 3x those): published figures, not measured here, so that column is
context rather than a measured ratio. Choice enumeration compares the fast matcher (tile index,
built fresh each time) with the reference matcher on the same board, the same number of times;
the target is under 1 ms on Block Dude.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from studio.engines.btree.runtime import match
from studio.engines.btree.runtime.boardstate import BoardState
from studio.engines.btree.runtime.engine import Engine, Program

ROOT = Path(__file__).resolve().parent.parent
# name, games, turn cap per game (None: play to the end), V8 turns/s of btree.md §10. Both
# paths play these games; the counts keep a plain run to about half a minute in all (the plain
# path takes some 0.1 s per turn on Block Dude and 0.3 s on trogue), so the fast path's runs are
# short, and the best of several runs is taken on both sides.
GAMES = [
    ("games_yaml__ttt", 100, None, 17802),
    ("games_yaml__connect4", 20, None, 11461),
    ("games_yaml__checkers", 10, None, 4962),
    ("games_yaml__sokoban-level1", 10, 30, 7322),
    ("games_yaml__blockdude_levels__blockdude_8", 1, 150, 129),  # §10 used 11 (not in corpus)
    ("games_json__trogue", 1, None, 71.5),
    ("games_json__sweeper", 2, None, 81.7),
]
ENUMERATIONS = 20
"""Times each enumeration is run on each path (the figure is the mean)."""


def turn_rate(
    program: Program, games: int, cap: int | None, reference: bool = False
) -> tuple[int, int, float]:
    """Play ``games`` seeded games with uniform random players; (turns, steps, seconds)."""
    chooser = random.Random(0)
    turns = steps = 0
    start = time.perf_counter()
    for game in range(games):
        engine = Engine(program, reference=reference)
        engine.seed(game + 1)
        played = 0
        while engine.run_to_choice() == "choice" and (cap is None or played < cap):
            steps += engine.step_count
            engine.choose(chooser.randrange(len(engine.choices)))
            played += 1
        steps += engine.step_count
        turns += played
    return turns, steps, time.perf_counter() - start


def enumeration(corpus: Path, name: str, runs: int) -> tuple[float, float, int, str]:
    """Milliseconds for one player's choice enumeration: (fast, reference, rewrites, board size)."""
    program = Program(json.loads((corpus / "expanded" / f"{name}.json").read_text(encoding="utf-8")))
    engine = Engine(program)
    engine.seed(1)
    engine.run_to_choice()
    player = program.nodes[engine.path()[-1]]
    lhss = [program.nodes[c].patterns["lhs"] for c in player.children if program.nodes[c].type == "rewrite"]
    board = engine.board
    state = BoardState()
    state.load(board.layers)
    layers = {n: list(g) for n, g in board.layers.items()}
    start = time.perf_counter()
    for _ in range(runs):
        state._index = None  # include the index build: a fresh board each time
        fast = [state.find(p) for p in lhss]
    fast_ms = (time.perf_counter() - start) / runs * 1000
    start = time.perf_counter()
    for _ in range(runs):
        ref = [match.find(layers, board.rows, board.cols, p.source) for p in lhss]
    ref_ms = (time.perf_counter() - start) / runs * 1000
    assert fast == ref
    size = f"{board.rows}x{board.cols}x{len(board.layers)}"
    return fast_ms, ref_ms, len(lhss), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "btree")
    parser.add_argument("--quick", action="store_true",
                        help="one run per measurement, fewer games and enumerations")
    args = parser.parse_args()
    corpus, repeats = args.corpus, 1 if args.quick else 3
    if not (corpus / "expanded").is_dir():
        raise SystemExit(f"needs the corpus at {corpus} (../shared beside the checkout)")
    print(f"random playouts: both paths play the same seeded games; best of {repeats} run(s) each")
    print(f"{'game':42} {'games':>5} {'turns':>6} {'turns/s':>9} {'plain/s':>9} {'fast/plain':>10}"
          f" {'V8 §10':>8} {'vs V8*':>6}")
    for name, games, cap, reference in GAMES:
        program = Program(json.loads((corpus / "expanded" / f"{name}.json").read_text(encoding="utf-8")))
        if args.quick:
            games = max(1, games // 4)
        # Best of several runs on both sides: the machine may be shared, and the best run is the
        # least disturbed one.
        turns, _steps, seconds = min(
            (turn_rate(program, games, cap) for _ in range(repeats)), key=lambda run: run[2]
        )
        plain_turns, _, plain_seconds = min(
            (turn_rate(program, games, cap, reference=True) for _ in range(repeats)),
            key=lambda run: run[2],
        )
        assert plain_turns == turns, f"{name}: the paths played different games"
        rate, plain = turns / seconds, plain_turns / plain_seconds
        print(
            f"{name:42} {games:5} {turns:6} {rate:9.0f} {plain:9.0f} {rate / plain:9.1f}x "
            f"{reference:8} {rate / reference:5.1f}x"
        )
    print("* context, not a measured ratio: the V8 turn rates are btree.md §10's published "
          "figures")
    print()
    runs = 5 if args.quick else ENUMERATIONS
    print(f"choice enumeration: mean of {runs} runs on each path, the same board")
    print(f"{'':42} {'board':>10} {'rewrites':>8} {'fast ms':>8} {'plain ms':>8} {'ratio':>7}")
    for name in ("games_yaml__blockdude_levels__blockdude_8", "games_json__trogue", "games_json__conway",
                 "games_yaml__checkers", "games_yaml__sokoban-level1"):
        fast_ms, ref_ms, count, size = enumeration(corpus, name, runs)
        print(f"{name:42} {size:>10} {count:8} {fast_ms:8.3f} {ref_ms:8.3f} {ref_ms / fast_ms:6.1f}x")


if __name__ == "__main__":
    main()
