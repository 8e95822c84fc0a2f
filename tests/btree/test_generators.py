"""T6 (part): generator invariants over many seeds and the uniformity of ``rewrite``."""

from __future__ import annotations

from collections import Counter

from studio.engines.btree.runtime.engine import Engine, Program
from tests.btree.corpus import corpus_dir, load_json
from tests.btree.trees import game, node, rewrite, set_board

MINE = "💣️"


def test_rewrite_picks_uniformly_over_matches() -> None:
    program = Program(game(node("order", set_board("_ _ _ _ _"), rewrite("_", "X"))))
    counts: Counter[int] = Counter()
    seeds = 2000
    for seed in range(1, seeds + 1):
        engine = Engine(program)
        engine.seed(seed)
        engine.run_to_choice()
        counts[engine.board.layers["main"][0].index("X")] += 1
    expected = seeds / 5
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(5))
    assert sorted(counts) == [0, 1, 2, 3, 4]
    assert chi2 < 18.5  # 4 degrees of freedom, p = 0.001


def test_sweeper_places_five_mines_with_consistent_counts() -> None:
    corpus_dir()
    program = Program(load_json("expanded/games_json__sweeper.json"))
    layouts = set()
    for seed in range(1, 13):
        engine = Engine(program)
        engine.seed(seed)
        assert engine.run_to_choice() == "choice"
        mines = engine.board.layers["mine"]
        cells = {(r, c) for r, row in enumerate(mines) for c, t in enumerate(row) if t == MINE}
        assert len(cells) == 5
        layouts.add(frozenset(cells))
        for r, row in enumerate(mines):
            for c, tile in enumerate(row):
                if tile == MINE:
                    continue
                around = sum((r + dr, c + dc) in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                assert tile == (str(around) if around else "_"), (seed, r, c)
    assert len(layouts) > 6  # the seed matters
