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


def generator(times: int, board: str = "M _ _ _") -> Program:
    """A level generator: a layer-template (left to the plain engine), then ``times`` draws
    (a one-match rewrite draws too) before the first choice."""
    template = node("layer-template", layer="shade", **{"with": "s"})
    return Program(game(node(
        "order", set_board(board), template,
        node("loop-times", rewrite("M", "M"), rewrite("_", "M"), times=times),
        node("loop-until-all", node("player", rewrite("_", "P"), pid="1")),
        node("win", node("match", pattern=pat("P")), pid="1"))))


def test_the_kernel_takes_over_a_start_that_draws_before_its_first_wait() -> None:
    # Each seed gives another first wait (mines placed at random), so it cannot be kept; the
    # kernel starts just before the first draw, after the node it leaves to the plain engine.
    program = generator(2, "M _ _ _ _ _ _ _")
    player = Playouts(program)
    for seed in range(6):
        same(*both(program, seed, None, player=player))
    for seed in range(3):
        engine = Engine(program)
        engine.seed(seed)
        assert player.run(engine, SplitMix64(seed)).path == ("kernel" if jit.available() else "plain")
        if jit.available():
            assert engine.waiting is None and engine.board is None  # the plain engine never ran
    assert player.fallbacks == 0


def test_the_kernel_carries_the_steps_spent_before_it_took_over() -> None:
    # Three steps a turn of the loop: the first wait comes at step 99_998 with 33_330 turns,
    # at 100_001 (a stepout) with one more; counted from the take-over it would come at 99_995.
    for times, end in ((33_330, "win"), (33_331, "stepout")):
        program = Program(game(node(
            "order", set_board("M _ _ _"), node("layer-template", layer="shade", **{"with": "s"}),
            node("loop-times", rewrite("M", "M"), times=times),
            node("loop-until-all", node("player", rewrite("_", "P"), pid="1")),
            node("win", node("match", pattern=pat("P")), pid="1"))))
        plain, kernel = both(program, 1, None)
        same(plain, kernel)
        assert plain[0].result["result"] == end


def test_a_take_over_the_kernel_cannot_finish_goes_back_to_the_first_wait() -> None:
    # A layer-template after the first draw: the kernel stops there, the playout is played
    # again from the first wait (reached on the plain engine), and later ones start there.
    template = node("layer-template", layer="more", **{"with": "m"})
    program = Program(game(node(
        "order", set_board("M _ _ _ _"), node("layer-template", layer="shade", **{"with": "s"}),
        rewrite("_", "M"), template,
        node("loop-until-all", node("player", rewrite("_", "P"), pid="1")),
        node("win", node("match", pattern=pat("P")), pid="1"))))
    player = Playouts(program)
    for seed in range(4):
        same(*both(program, seed, None, player=player))
    engine = Engine(program)
    engine.seed(5)
    assert player.run(engine, SplitMix64(5)).path == ("kernel" if jit.available() else "plain")
    assert player.fallbacks == 0


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
