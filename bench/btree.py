#!/usr/bin/env python3
"""btree runtime speed: random playouts on the kernel, the plain engine and engine.js; choice listing.

    .venv/bin/python bench/btree.py [--corpus ../shared/corpus/btree] [--engine-js PATH] [--quick]

Random playouts (issue 32): whole games from the start, every choice uniform, to the end or a
cap of turns for puzzles random moves never finish. In the same run: the kernel
(``search.playout.Playouts``), the plain engine (``plain_playout``, its reference: both play the
same games, drawn from the same SplitMix64 seeds, which the bench checks) and, when node and
trrbt's ``web/engine.js`` are there (``--engine-js`` or ``$TRRBT_ENGINE_JS``; the studio does
not ship it), engine.js through ``bench/trrbt_playouts.js`` (its own random players, so its games
differ: rates are compared per playout with the mean length printed beside). Without engine.js
the last column sets the kernel's turn rate against btree.md §10's published V8 figures: context,
not a measurement. Choice enumeration compares the fast matcher (tile index, built fresh each
time) with the reference matcher on the same board, the same number of times.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from studio.engines.btree.runtime import match
from studio.engines.btree.runtime.boardstate import BoardState
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.search.playout import Playouts, plain_playout
from studio.engines.common.splitmix import SplitMix64

ROOT = Path(__file__).resolve().parent.parent
# name, games on the plain engine and engine.js, turn cap per game (None: to the end), V8
# turns/s of btree.md §10. The kernel plays KERNEL_TIMES as many (its runs are short); the counts
# keep a plain run to some 20 s in all.
GAMES = [
    ("games_yaml__ttt", 200, None, 17802),
    ("games_yaml__connect4", 40, None, 11461),
    ("games_yaml__checkers", 10, None, 4962),
    ("games_yaml__sokoban-level1", 10, 30, 7322),
    ("games_yaml__blockdude_levels__blockdude_8", 2, 150, 129),  # §10 used 11 (not in corpus)
    ("games_json__trogue", 2, None, 71.5),
    ("games_json__sweeper", 4, None, 81.7),
]
KERNEL_TIMES = 10
ENUMERATIONS = 20
"""Times each enumeration is run on each path (the figure is the mean)."""


def playouts(program: Program, games: int, cap: int | None, kernel: bool) -> tuple[int, list[int], float, str]:
    """Play ``games`` playouts from the start (engine and chooser seeded ``g + 1``):
    (games, each one's turns, seconds, the path the last one took)."""
    player = Playouts(program) if kernel else None
    engine = Engine(program)
    fresh = engine.snapshot()
    lengths = []
    path = "plain"
    start = time.perf_counter()
    for game in range(games):
        engine.restore(fresh)
        engine.seed(game + 1)
        chooser = SplitMix64(game + 1)
        out = player.run(engine, chooser, cap) if player else plain_playout(engine, chooser, cap)
        lengths.append(out.moves)
        path = out.path
    return games, lengths, time.perf_counter() - start, path


def engine_js(script: Path, corpus: Path, name: str, games: int, cap: int | None) -> tuple[int, int, float]:
    """(games, turns, seconds) of engine.js under node on the same game."""
    here = Path(__file__).resolve().parent / "trrbt_playouts.js"
    done = subprocess.run(["node", str(here), str(script), str(corpus / "expanded" / f"{name}.json"),
                           str(games), str(cap or 0)], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    return out["games"], out["turns"], out["seconds"]


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


def best(runs: int, measure) -> tuple:
    """The least disturbed of ``runs`` runs (the machine may be shared): the shortest."""
    return min((measure() for _ in range(runs)), key=lambda run: run[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "btree")
    parser.add_argument("--engine-js", type=Path, default=os.environ.get("TRRBT_ENGINE_JS"),
                        help="trrbt's web/engine.js, to measure it under node in the same run")
    parser.add_argument("--quick", action="store_true",
                        help="one run per measurement, fewer games and enumerations")
    args = parser.parse_args()
    corpus, repeats = args.corpus, 1 if args.quick else 3
    if not (corpus / "expanded").is_dir():
        raise SystemExit(f"needs the corpus at {corpus} (../shared beside the checkout)")
    script = args.engine_js
    js = script is not None and script.is_file() and shutil.which("node") is not None
    if not js:
        why = "no node" if shutil.which("node") is None else \
            f"no engine.js at {script}" if script is not None else "no --engine-js given"
        print(f"engine.js not measured ({why}): the last columns set the kernel against "
              "btree.md §10's published V8 turn rates (context, not measured here)")
    print(f"random playouts from the start: playouts/s (best of {repeats} run(s) each); "
          f"the kernel and the plain engine play the same games")
    base = "js/s" if js else "V8 §10 t/s"
    print(f"{'game':42} {'turns':>6} {'kernel/s':>9} {'plain/s':>8} {'k/plain':>8} {base:>10} "
          f"{'len js':>6} {'k/js':>6} {'path':>6}")
    for name, games, cap, published in GAMES:
        program = Program(json.loads((corpus / "expanded" / f"{name}.json").read_text(encoding="utf-8")))
        if args.quick:
            games = max(1, games // 4)
        playouts(program, 1, 1, kernel=True)  # load or compile the kernel outside the timing
        k_games, k_lengths, k_seconds, path = best(
            repeats, lambda: playouts(program, games * KERNEL_TIMES, cap, kernel=True))
        p_games, p_lengths, p_seconds, _ = best(repeats, lambda: playouts(program, games, cap, kernel=False))
        assert k_lengths[:games] == p_lengths, f"{name}: the paths played different games"
        kernel, plain = k_games / k_seconds, p_games / p_seconds
        turns = sum(k_lengths) / len(k_lengths)
        if js:
            j_games, j_turns, j_seconds = best(repeats, lambda: engine_js(script, corpus, name, games, cap))
            other, length = j_games / j_seconds, f"{j_turns / j_games:6.1f}"
            ratio = kernel / other
        else:  # per turn against the published figure
            other, length = published, "-"
            ratio = kernel * turns / published
        print(f"{name:42} {turns:6.1f} {kernel:9.0f} {plain:8.1f} {kernel / plain:7.1f}x {other:10.1f} "
              f"{length:>6} {ratio:5.1f}x {path:>6}")
    if not js:
        print("(k/js without engine.js: the kernel's turns/s over §10's V8 turns/s)")
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
