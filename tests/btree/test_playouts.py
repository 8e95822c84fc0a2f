"""Random playouts on the kernel against the plain engine (issue 32).

The same seed must give the same playout on both paths: the same choices in the same order, the
same length and end, and the chooser left in the same state (the kernel draws as
``SplitMix64.below`` does). The bundled games need nothing beside the checkout; every game of
the corpus is checked when ../shared is there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.commands.btree.formats import load_compiled
from studio.engines import jit
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.search.playout import CHECK_EVERY, Playouts, plain_playout
from studio.engines.common.splitmix import SplitMix64
from tests.btree.corpus import BTREE, load_json
from tests.btree.trees import game, node, pat, rewrite, set_board

GAMES = Path(__file__).resolve().parents[2] / "games"
BUNDLED = sorted(p.stem for p in GAMES.glob("*.toml") if 'kind = "btree"' in p.read_text(encoding="utf-8"))
CORPUS = sorted(p.stem for p in (BTREE / "expanded").glob("*.json")) if BTREE.exists() else ["absent"]
"""Without ../shared one case, which skips saying why."""
SLOW = {"games_yaml__rust-old": 6, "games_yaml__path-arrow": 12}
"""Corpus games whose plain playouts take seconds: fewer moves (tens of thousands of steps each)."""
needs_numba = pytest.mark.skipif(not jit.available(), reason=f"numba is not in use: {jit.reason()}")


def both(program: Program, seed: int, cap: int | None, display_reset: bool = False,
         stop_after: int | None = None, player: Playouts | None = None) -> tuple:
    """The plain and the kernel playout from the game's start with ``seed`` (engine and chooser).

    ``player``: one kept over several calls, so later games start from its cached start.
    """
    runs = []
    for play in (plain_playout, (player or Playouts(program)).run):
        engine = Engine(program)
        engine.seed(seed)
        chooser = SplitMix64(seed)
        asked = []

        def stop() -> bool:
            asked.append(1)
            return stop_after is not None and len(asked) >= stop_after

        out = play(engine, chooser, cap, display_reset, stop if stop_after else None, record=True)
        runs.append((out, chooser.state, len(asked)))
    return runs[0], runs[1]


def same(plain: tuple, kernel: tuple) -> None:
    (a, state_a, asked_a), (b, state_b, asked_b) = plain, kernel
    assert (b.result, b.moves, b.choices) == (a.result, a.moves, a.choices)
    assert len(a.choices) == a.moves
    assert state_b == state_a  # the chooser moved on by the same draws
    assert asked_b == asked_a


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("display_reset", [False, True])
def test_bundled_games_play_the_same_on_both_paths(name: str, display_reset: bool) -> None:
    program = Program(load_compiled(GAMES / f"{name}.toml"))
    player = Playouts(program)
    for seed in range(4):
        same(*both(program, seed, 60, display_reset, player=player))


@needs_numba
@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four", "sokoban"])
def test_bundled_games_run_on_the_kernel(name: str) -> None:
    program = Program(load_compiled(GAMES / f"{name}.toml"))
    playouts = Playouts(program)
    engine = Engine(program)
    engine.seed(3)
    assert playouts.run(engine, SplitMix64(3), 30).path == "kernel"
    assert playouts.path == "kernel" and playouts.reason == ""


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_games_play_the_same_on_both_paths(name: str) -> None:
    program = Program(load_json(f"expanded/{name}.json"))
    player = Playouts(program)
    for seed in range(3):
        same(*both(program, seed, SLOW.get(name, 40), player=player))


def test_playouts_to_the_end_agree() -> None:
    program = Program(load_compiled(GAMES / "connect-four.toml"))
    for seed in range(10):
        plain, kernel = both(program, seed, None, display_reset=True)
        same(plain, kernel)
        assert plain[0].result is not None  # Connect Four always ends


def test_stop_is_asked_at_the_same_moves() -> None:
    program = Program(load_compiled(GAMES / "sokoban.toml"))  # random moves never end it
    plain, kernel = both(program, 1, 200, stop_after=2)
    same(plain, kernel)
    assert plain[0].moves == 2 * CHECK_EVERY - 1 and plain[0].result is None


def test_a_node_the_kernel_leaves_alone_sends_the_playout_to_the_plain_engine() -> None:
    template = node("layer-template", layer="shade", **{"with": "s"})
    move = node("player", rewrite("P _", "_ P"), pid="1")
    tree = game(node("order", set_board("P _ _ _"), node("loop-until-all", node("all", move, template)),
                     node("win", node("match", pattern=pat("_ _ _ P")), pid="1")))
    program = Program(tree)
    for seed in range(4):
        same(*both(program, seed, 20))
    playouts = Playouts(program)
    for seed in range(4):
        engine = Engine(program)
        engine.seed(seed)
        assert playouts.run(engine, SplitMix64(seed), 20).path == "plain"
    assert playouts.path == "plain"
    if jit.available():
        assert "leaves to the plain engine" in playouts.reason


def test_without_the_kernel_playouts_are_plain() -> None:
    program = Program(load_compiled(GAMES / "tic-tac-toe.toml"))
    playouts = Playouts(program, kernel=False)
    engine = Engine(program)
    assert playouts.run(engine, SplitMix64(0)).path == "plain"
    assert playouts.reason


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_the_search_is_the_same_on_either_path(name: str) -> None:
    from studio.engines.btree.search.mcts import Computer  # noqa: PLC0415

    program = Program(load_compiled(GAMES / f"{name}.toml"))
    engine = Engine(program)
    engine.seed(2)
    engine.run_to_choice()
    snap = engine.snapshot()
    found = [Computer(program, kernel=kernel).search(snap, seed=9, seconds=None, playouts=400)
             for kernel in (False, True)]
    plain, kernel = found
    assert plain.path == "plain"
    assert kernel.path == ("kernel" if jit.available() else "plain")
    assert (kernel.index, kernel.playouts, kernel.positions, kernel.proof, kernel.moves) == \
        (plain.index, plain.playouts, plain.positions, plain.proof, plain.moves)
