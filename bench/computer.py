#!/usr/bin/env python3
"""The computer seat (issue 32): MCTS playouts per second at a time per move, and its strength.

    .venv/bin/python bench/computer.py [--corpus ../shared/corpus/btree] [--seconds 1]
                                       [--games 10] [--quick] [--self]
                                       [--part speed|strength|self|tenth]

Speed: playouts per second of the search at ``--seconds`` a move (default 1, as the issue asks)
from the start and from a position ten random moves in, on Tic-tac-toe (the start only),
Connect Four and Checkers, with its tree's moves and playouts on the kernel. Baselines in the same
run: the same search with its tree on the engine and playouts on the kernel ('tree/s', the search
before its tree went to the kernel), the same search on the plain engine, and bare kernel
playouts from the same position (no tree: the ratio is what the tree costs). A search that proves
its position stops early: its rate is over the time it took. Strength: the computer against the
``random`` seat, ``--games`` games with the computer on each side (seeds 0, 1, …), on
Tic-tac-toe and Connect Four, and with ``--self`` the computer against itself, at the same time
on Tic-tac-toe (best play draws) and at a tenth of the time on Connect Four; figures printed,
never asserted (tests use playout budgets). ``--part`` runs one part alone (``self``: Tic-tac-toe
against itself, ``--games`` games: the issue's all-draws check, without the rest; ``tenth``:
Connect Four at ``--seconds`` against a tenth of it, ``--games`` games with each side first).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from studio.commands.btree.formats import load_compiled
from studio.engines.btree.play.balance import player_pids
from studio.engines.btree.play.session import GameOver, PlaySession
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.search.mcts import Computer
from studio.engines.btree.search.outcome import outcome_of
from studio.engines.btree.search.playout import Playouts
from studio.engines.common.splitmix import SplitMix64

ROOT = Path(__file__).resolve().parent.parent


def position(program: Program, random_moves: int, seed: int = 1) -> Engine:
    engine = Engine(program)
    engine.seed(seed)
    engine.run_to_choice()
    rng = SplitMix64(seed)
    for _ in range(random_moves):
        if engine.waiting != "choice":
            break
        engine.choose(rng.below(len(engine.choices)))
        engine.run_to_choice()
    return engine


def bare_playouts(program: Program, snapshot, seconds: float, kernel: bool) -> float:
    """Random playouts per second from ``snapshot``, nothing else (on the kernel or the plain
    engine: ``search.playout``, as the search plays them)."""
    engine = Engine(program)
    player = Playouts(program, kernel)
    rng = SplitMix64(7)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        engine.restore(snapshot)
        player.run(engine, rng)
        done += 1
    return done / (time.perf_counter() - start)


def speed(name: str, program: Program, seconds: float) -> None:
    for moves in (0, 10):
        engine = position(program, moves)
        if engine.waiting != "choice":
            continue
        snap = engine.snapshot()
        found = Computer(program).search(snap, seed=1, seconds=seconds)
        tree = Computer(program, tree=False).search(snap, seed=1, seconds=seconds)
        plain = Computer(program, kernel=False).search(snap, seed=1, seconds=seconds)
        rate = found.playouts / found.seconds
        tree_rate, plain_rate = tree.playouts / tree.seconds, plain.playouts / plain.seconds
        bare = bare_playouts(program, snap, seconds, kernel=True)
        print(f"{name:14} {moves:>5} {len(engine.choices):>7} {found.playouts:>9} {rate:>10.0f} "
              f"{tree_rate:>9.0f} {rate / tree_rate:>7.1f}x {plain_rate:>9.0f} "
              f"{rate / plain_rate:>7.1f}x {bare:>10.0f} {rate / bare:>7.2f}x "
              f"{found.positions:>9} {found.tree:>6} {'proven' if found.proof else '':>6}")


def strength(name: str, program: Program, seconds: float, games: int) -> None:
    pids = player_pids(program)
    for pid in pids:
        counts = {"win": 0, "draw": 0, "loss": 0}
        start = time.perf_counter()
        for seed in range(games):
            seats = {other: "random" for other in pids}
            seats[pid] = f"computer:{seconds:g}"
            session = PlaySession(program, seed, seats)
            while not isinstance(wait := session.advance(show_displays=False, show_auto=False), GameOver):
                raise RuntimeError(f"a human seat in {name}: {wait}")
            counts[outcome_of(wait.result, pid)] += 1
        print(f"{name:14} computer as {pid:<3} vs random: {counts['win']:>3} won {counts['draw']:>3} "
              f"drawn {counts['loss']:>3} lost of {games}  ({time.perf_counter() - start:.0f} s)")


def against_itself(name: str, program: Program, seconds: float, games: int) -> None:
    """The computer at ``seconds`` a move against itself at a tenth of that, each side in turn."""
    pids = player_pids(program)
    fast = seconds / 10
    counts = {"win": 0, "draw": 0, "loss": 0}
    start = time.perf_counter()
    for pid in pids:
        for seed in range(games):
            seats = {other: f"computer:{fast:g}" for other in pids}
            seats[pid] = f"computer:{seconds:g}"
            session = PlaySession(program, seed, seats)
            wait = session.advance(show_displays=False, show_auto=False)
            assert isinstance(wait, GameOver)
            counts[outcome_of(wait.result, pid)] += 1
    total = games * len(pids)
    print(f"{name:14} {seconds:g} s against {fast:g} s: {counts['win']:>3} won {counts['draw']:>3} "
          f"drawn {counts['loss']:>3} lost of {total} ({counts['win'] / total:.0%} won; "
          f"{time.perf_counter() - start:.0f} s)")


def equal_self(name: str, program: Program, seconds: float, games: int) -> None:
    """The computer against itself at the same time a move (``games`` seeds): on a game whose
    best play is a draw, anything but a draw is a mistake of one side."""
    pids = player_pids(program)
    results: dict[str, int] = {}
    start = time.perf_counter()
    for seed in range(games):
        session = PlaySession(program, seed, {pid: f"computer:{seconds:g}" for pid in pids})
        wait = session.advance(show_displays=False, show_auto=False)
        assert isinstance(wait, GameOver)
        key = "draw" if all(outcome_of(wait.result, p) == "draw" for p in pids) else next(
            f"{p} won" for p in pids if outcome_of(wait.result, p) == "win")
        results[key] = results.get(key, 0) + 1
    print(f"{name:14} {seconds:g} s against itself: " + ", ".join(
        f"{count} {what}" for what, count in sorted(results.items())) + f" of {games} "
        f"({time.perf_counter() - start:.0f} s)")


def load(path: Path) -> Program:
    if path.suffix == ".json":
        return Program(json.loads(path.read_text(encoding="utf-8")))
    return Program(load_compiled(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "btree")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per move (default 1)")
    parser.add_argument("--games", type=int, default=10, help="strength games per side (default 10)")
    parser.add_argument("--quick", action="store_true", help="0.2 s a move, 2 games a side")
    parser.add_argument("--self", action="store_true",
                        help="also the computer against itself: at the same time on "
                             "Tic-tac-toe (all draws expected), at a tenth of it on Connect Four")
    parser.add_argument("--part", choices=("speed", "strength", "self", "tenth"),
                        help="only this part (self: Tic-tac-toe against itself, --games games; "
                             "tenth: Connect Four against itself at a tenth of the time, "
                             "--games games a side)")
    args = parser.parse_args()
    seconds, games = (0.2, 2) if args.quick else (args.seconds, args.games)
    games_dir = ROOT / "games"
    if args.part == "self":
        equal_self("tic-tac-toe", load(games_dir / "tic-tac-toe.toml"), seconds, games)
        return
    if args.part == "tenth":
        against_itself("connect-four", load(games_dir / "connect-four.toml"), seconds, games)
        return
    speed_games = [(name, load(games_dir / f"{name}.toml")) for name in ("tic-tac-toe", "connect-four")]
    checkers = args.corpus / "expanded" / "games_yaml__checkers.json"
    if checkers.is_file():
        speed_games.append(("checkers", load(checkers)))
    else:
        print(f"(no corpus at {args.corpus}: Checkers left out)")
    print(f"MCTS at {seconds:g} s a move, tree and playouts on the kernel; 'tree' = its tree on "
          "the engine, playouts on the kernel; 'plain' = all on the plain engine; 'bare' = kernel "
          "random playouts alone from the same position")
    print(f"{'game':14} {'moves':>5} {'choices':>7} {'playouts':>9} {'mcts/s':>10} {'tree/s':>9} "
          f"{'ratio':>8} {'plain/s':>9} {'ratio':>8} {'bare/s':>10} {'ratio':>8} {'positions':>9} "
          f"{'tree':>6}")
    for name, program in speed_games:
        speed(name, program, seconds)
    if args.part == "speed":
        return
    print()
    print(f"strength at {seconds:g} s a move, {games} games with the computer on each side")
    for name in ("tic-tac-toe", "connect-four"):
        strength(name, load(games_dir / f"{name}.toml"), seconds, games)
    if args.self:
        equal_self("tic-tac-toe", load(games_dir / "tic-tac-toe.toml"), seconds, games)
        against_itself("connect-four", load(games_dir / "connect-four.toml"), seconds, games)


if __name__ == "__main__":
    main()
