#!/usr/bin/env python3
"""btree runtime speed: random playouts on the kernel, the plain engine and engine.js; choice listing.

    .venv/bin/python bench/btree.py [--corpus ../shared/corpus/btree] [--engine-js PATH] [--quick]

Random playouts (issue 32): whole games from the start, every choice uniform, to the end or a
cap of turns for puzzles random moves never finish. Game g is seeded g + 1 (engine and chooser,
a SplitMix64) on every path, so all paths play the very same games: the kernel
(``search.playout.Playouts``, which plays the set KERNEL_TIMES times over as its runs are short),
the plain engine (``plain_playout``, its reference) and, when node and trrbt's ``docs/engine.js``
are there (``--engine-js`` or ``$TRRBT_ENGINE_JS``; the studio does not ship it), engine.js
through ``bench/trrbt_playouts.js`` driven as the reference's scripts drive it, with the same
SplitMix64 draws (their time, measured apart, is taken out of engine.js's). The bench checks
that the kernel and the plain engine play the same games and says whether engine.js did (an
engine.js that shuffles otherwise than Fisher-Yates plays other games from the same seeds).
Rates are playouts a second of the same games; the rounds run the paths in turn and each path
keeps its best round. Without engine.js the last column sets the kernel's turn rate against
btree.md §10's published V8 figures: context, not a measurement. Choice enumeration compares
the fast matcher (tile index, built fresh each time) with the reference matcher on the same
board, the same number of times.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import time
from functools import partial
from pathlib import Path

from studio.engines.btree.runtime import match
from studio.engines.btree.runtime.boardstate import BoardState
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.search.playout import Playouts, plain_playout
from studio.engines.common.splitmix import SplitMix64

ROOT = Path(__file__).resolve().parent.parent
# name, games (the same set on every path), turn cap per game (None: to the end), V8 turns/s of
# btree.md §10. The kernel plays the set KERNEL_TIMES times over (its runs are short); the counts
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


def playouts(program: Program, games: int, cap: int | None, kernel: bool,
             times: int = 1) -> tuple[int, list[int], float, str]:
    """Play games 0..games-1 from the start (engine and chooser seeded ``g + 1``), ``times``
    times over: (playouts, the first round's turns per game, seconds, the last one's path)."""
    player = Playouts(program) if kernel else None
    engine = Engine(program)
    fresh = engine.snapshot()
    lengths = []
    path = "plain"
    start = time.perf_counter()
    for _ in range(times):
        for game in range(games):
            engine.restore(fresh)
            engine.seed(game + 1)
            chooser = SplitMix64(game + 1)
            out = player.run(engine, chooser, cap) if player else plain_playout(engine, chooser, cap)
            lengths.append(out.moves)
            path = out.path
    return games * times, lengths[:games], time.perf_counter() - start, path


def engine_js(script: Path, corpus: Path, name: str, games: int, cap: int | None) -> tuple[int, list[int], float]:
    """(games, each one's turns, seconds without the chooser's draws) of engine.js under node."""
    here = Path(__file__).resolve().parent / "trrbt_playouts.js"
    done = subprocess.run(["node", str(here), str(script), str(corpus / "expanded" / f"{name}.json"),
                           str(games), str(cap or 0), "splitmix"], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    return out["games"], out["lengths"], out["seconds"] - out["draw_seconds"]


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


def rounds(count: int, *measures):
    """Each measure's least disturbed of ``count`` rounds (the shortest), the measures taken in
    turn within a round, so a busy spell on the shared machine does not fall on one path only."""
    runs = [[m() for m in measures] for _ in range(count)]
    return [min((r[i] for r in runs), key=lambda run: run[2]) for i in range(len(measures))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "btree")
    parser.add_argument("--engine-js", type=Path, default=os.environ.get("TRRBT_ENGINE_JS"),
                        help="trrbt's docs/engine.js, to measure it under node in the same run")
    parser.add_argument("--quick", action="store_true",
                        help="one round per measurement, fewer games and enumerations")
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
    print(f"random playouts from the start: playouts/s of the same games on every path "
          f"(best of {repeats} round(s), the paths in turn)")
    base = "js/s" if js else "V8 §10 t/s"
    print(f"{'game':42} {'turns':>6} {'kernel/s':>9} {'plain/s':>8} {'k/plain':>8} {base:>10} "
          f"{'same':>4} {'k/js':>6} {'path':>6}")
    for name, games, cap, published in GAMES:
        program = Program(json.loads((corpus / "expanded" / f"{name}.json").read_text(encoding="utf-8")))
        if args.quick:
            games = max(1, games // 4)
        playouts(program, 1, 1, kernel=True)  # load or compile the kernel outside the timing
        measures = [partial(playouts, program, games, cap, kernel=True, times=KERNEL_TIMES),
                    partial(playouts, program, games, cap, kernel=False)]
        if js:
            measures.append(partial(engine_js, script, corpus, name, games, cap))
        got = rounds(repeats, *measures)
        (k_games, k_lengths, k_seconds, path), (p_games, p_lengths, p_seconds, _) = got[:2]
        assert k_lengths == p_lengths, f"{name}: the kernel and the plain engine played different games"
        kernel, plain = k_games / k_seconds, p_games / p_seconds
        turns = sum(k_lengths) / len(k_lengths)
        if js:
            j_games, j_lengths, j_seconds = got[2]
            other, same = j_games / j_seconds, "yes" if j_lengths == k_lengths else "no"
            ratio = kernel / other
        else:  # per turn against the published figure
            other, same = published, "-"
            ratio = kernel * turns / published
        print(f"{name:42} {turns:6.1f} {kernel:9.0f} {plain:8.1f} {kernel / plain:7.1f}x {other:10.1f} "
              f"{same:>4} {ratio:5.1f}x {path:>6}")
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
