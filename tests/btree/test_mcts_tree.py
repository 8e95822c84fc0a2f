"""The computer seat's tree on the kernel (``tree_states.KernelStates``) searches exactly as on
the plain engine: same move, playouts, positions, per-move stats and proof for a seed and budget.
"""

from __future__ import annotations

import pytest

from studio.engines import jit
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.search import tree_states
from studio.engines.btree.search.mcts import Computer
from studio.engines.common.splitmix import SplitMix64
from tests.btree.corpus import load_json
from tests.btree.test_mcts import coin_game, dice_game, program

needs_numba = pytest.mark.skipif(not jit.available(), reason=f"numba is not in use: {jit.reason()}")


def position(prog: Program, moves: int, seed: int) -> Engine:
    """A game after ``moves`` random choices (seeded), or where it ended before."""
    engine = Engine(prog)
    engine.seed(seed)
    engine.run_to_choice()
    rng = SplitMix64(seed)
    for _ in range(moves):
        if engine.waiting != "choice":
            break
        engine.choose(rng.below(len(engine.choices)))
        engine.run_to_choice()
    return engine


def same_search(prog: Program, playouts: int, positions: list[tuple[int, int]]) -> None:
    kernel, plain = Computer(prog), Computer(prog, tree=False)
    searched = 0
    for moves, seed in positions:
        engine = position(prog, moves, seed)
        if engine.waiting != "choice":
            continue
        snap = engine.snapshot()
        got = kernel.search(snap, seed=seed, seconds=None, playouts=playouts)
        want = plain.search(snap, seed=seed, seconds=None, playouts=playouts)
        assert got.tree == "kernel" and want.tree == "plain"
        assert (got.index, got.playouts, got.positions, got.proof, got.moves) == \
            (want.index, want.playouts, want.positions, want.proof, want.moves), (moves, seed)
        searched += 1
    assert searched


@needs_numba
@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_the_kernel_tree_searches_as_the_engine_on_bundled_games(name: str) -> None:
    # Tic-tac-toe from four moves in is proven within the budget: the proofs must agree too
    same_search(program(name), 400, [(0, 1), (1, 2), (3, 3), (4, 4), (6, 5)])


@needs_numba
def test_the_kernel_tree_searches_as_the_engine_on_checkers() -> None:
    prog = Program(load_json("expanded/games_yaml__checkers.json"))  # skips without the corpus
    same_search(prog, 200, [(0, 1), (6, 2), (20, 3)])


@needs_numba
@pytest.mark.parametrize("game", [coin_game, dice_game])
def test_the_kernel_tree_samples_chance_as_the_engine(game) -> None:
    prog = Program(game())
    same_search(prog, 200, [(0, seed) for seed in range(3)])


@needs_numba
def test_a_kernel_fallback_searches_again_on_the_engine(monkeypatch) -> None:
    prog = program("tic-tac-toe")
    snap = position(prog, 1, 1).snapshot()
    want = Computer(prog, tree=False).search(snap, seed=5, seconds=None, playouts=300)
    calls = [0]
    step = tree_states.KernelStates.step

    def failing(self, *args):  # a node the kernel leaves alone, met in the middle of a search
        calls[0] += 1
        if calls[0] == 50:
            raise tree_states.KernelFallback("a node for the plain engine")
        return step(self, *args)

    monkeypatch.setattr(tree_states.KernelStates, "step", failing)
    computer = Computer(prog)
    got = computer.search(snap, seed=5, seconds=None, playouts=300)
    assert got.tree == "plain" and computer.tree_reason == "a node for the plain engine"
    assert (got.index, got.playouts, got.moves, got.proof) == \
        (want.index, want.playouts, want.moves, want.proof)
