"""Snapshot → restore → identical continuation; ``key()`` identifies states (§8)."""

from __future__ import annotations

import random

from studio.engines.btree.runtime.engine import Engine, Program
from tests.btree.corpus import corpus_dir, load_json
from tests.btree.trees import game, node, pat, rewrite, set_board

RANDOM_GAME = game(
    node(
        "order",
        set_board("_ _ _ _; _ _ _ _"),
        node(
            "loop-until-all",
            node("random-try", rewrite("_", "A"), rewrite("_", "B"), rewrite("A", "C")),
            node("player", rewrite("_", "P"), rewrite("A", "Q"), pid=1),
            node("display-board"),
            node("win", node("match", pattern=pat("P P")), pid=1),
        ),
    )
)


def _play(engine: Engine, moves: int, rnd: random.Random) -> list:
    seen = []
    for _ in range(moves):
        if engine.run_to_choice() != "choice":
            break
        seen.append((engine.board, len(engine.choices), engine.key()))
        engine.choose(rnd.randrange(len(engine.choices)))
    seen.append((engine.board, engine.result, engine.key()))
    return seen


def _continuation_is_identical(program, seed: int, warmup: int) -> None:
    engine = Engine(program)
    engine.seed(seed)
    _play(engine, warmup, random.Random(1))
    for _ in range(7):  # stop in the middle of a turn, with locals on the stack
        engine.step()
    snap = engine.snapshot()
    key = engine.key()
    first = _play(engine, 30, random.Random(2))
    engine.restore(snap)
    assert engine.key() == key
    assert _play(engine, 30, random.Random(2)) == first
    engine.restore(snap)  # a snapshot can be restored again
    assert _play(engine, 30, random.Random(2)) == first


def test_snapshot_restore_continues_identically_on_a_small_game() -> None:
    for seed in range(5):
        _continuation_is_identical(Program(RANDOM_GAME), seed, 2)


def test_snapshot_restore_continues_identically_on_trogue() -> None:
    corpus_dir()
    _continuation_is_identical(Program(load_json("expanded/games_json__trogue.json")), 3, 3)


def test_snapshots_share_rows_and_are_isolated() -> None:
    engine = Engine(RANDOM_GAME)
    engine.run_to_choice()
    snap = engine.snapshot()
    before = engine.board
    engine.choose(0)
    assert engine.board != before
    assert snap.board.layers["main"][1] is engine._board.layers["main"][1]  # untouched row shared
    engine.restore(snap)
    assert engine.board == before


def test_equal_states_have_equal_keys_whatever_the_step_count() -> None:
    one, two = Engine(RANDOM_GAME), Engine(RANDOM_GAME)
    one.seed(4)
    two.seed(4)
    one.run_to_choice()
    two.run_to_choice()
    assert one.key() == two.key()
    hash(one.key())
    two.step_count += 17
    assert one.key() == two.key()
    one.choose(0)
    two.choose(1)
    assert one.key() != two.key()
    three = Engine(RANDOM_GAME)
    three.seed(5)
    three.run_to_choice()
    assert three.key() != Engine(RANDOM_GAME).key()


def test_path_lists_the_stack_root_first() -> None:
    engine = Engine(RANDOM_GAME)
    assert engine.path() == []
    engine.run_to_choice()
    # root order (0) → loop-until-all (2) → player (7)
    assert engine.path() == [0, 2, 7]
    assert engine.nodes[7].type == "player"
