"""Uniform resolution (§6.2, §6.8, §10 item 5): statistics over many seeds, draw order."""

from __future__ import annotations

from collections import Counter

from studio.engines.common.splitmix import SplitMix64
from studio.engines.tilecode.events import Draw
from tests.tilecode.build import game, load, rec, rule, run
from tests.tilecode.test_engine_phases import grid, walls

SEEDS = 10_000


def outcomes(g, buttons, pick, seeds: int = SEEDS) -> Counter:
    tg = load(g)
    counts: Counter = Counter()
    for seed in range(seeds):
        state = tg.initial_state(seed)
        state, _ = tg.step(state, buttons, record=False)
        counts[pick(state)] += 1
    return counts


def test_left_left_right_gives_left_two_thirds() -> None:
    rules = [rule(i, "change", rec(2, 2, include=["s1"], do=[f"move {d}"]))
             for i, d in enumerate(("left", "left", "right"))]
    counts = outcomes(game(sprites=grid((4, 4, "1")), rules=rules), (),
                      lambda s: s.sprites[0].dir)
    assert set(counts) == {"left", "right"}
    assert abs(counts["left"] / SEEDS - 2 / 3) < 0.02


def test_three_paints_each_one_third() -> None:
    rules = [rule(i, "change", rec(2, 2, include=["s1"], do=[f"paint b{i}"])) for i in (1, 2, 3)]
    counts = outcomes(game(sprites=grid((4, 4, "1")), rules=rules), (),
                      lambda s: s.background[4][4])
    assert set(counts) == {1, 2, 3}
    assert all(abs(c / SEEDS - 1 / 3) < 0.02 for c in counts.values())


def test_portal_choice_is_uniform_over_eligible_tiles() -> None:
    r = rule(1, "change", rec(2, 2, include=["s0"], do=["portal b3", "create s1"]))
    g = game(background=walls((1, 6), (6, 6), (3, 1), (4, 4), kind="3"),
             sprites=grid((0, 0, "0"), (4, 4, "2")), rules=[r])
    counts = outcomes(g, (), lambda s: s.sprites[-1][2:4], seeds=6000)
    assert set(counts) == {(1, 6), (6, 6), (3, 1)}  # (4,4) holds a sprite
    assert all(abs(c / 6000 - 1 / 3) < 0.025 for c in counts.values())


def test_draw_order_and_consumed_state_follow_splitmix() -> None:
    # two sprites with two logged moves each, then a three-way paint: draws in that order
    rules = [rule(1, "change", rec(2, 2, include=["s1"], do=["move left", "paint b1"])),
             rule(2, "change", rec(2, 2, include=["s1"], do=["move right", "paint b2"])),
             rule(3, "change", rec(2, 2, include=["s2"], do=["paint b3"]))]
    g = game(sprites=grid((2, 2, "1"), (5, 5, "1"), (2, 2, "1")), rules=rules,
             extra=[(2, 2, 2)])
    state, history = run(g, seed=42)
    draws = [e for e in history[0] if isinstance(e, Draw)]
    rng = SplitMix64(42)
    expected = [("move", 2, rng.below(2)), ("move", 2, rng.below(2)),
                ("paint", 3, rng.below(3)), ("paint", 2, rng.below(2))]
    assert [(d.site, len(d.candidates), d.choice) for d in draws] == expected
    assert state.rng == rng.state


def test_single_candidates_draw_nothing() -> None:
    r = rule(1, "change", rec(2, 2, include=["s1"], do=["move left", "paint b1"]))
    state, history = run(game(sprites=grid((2, 2, "1")), rules=[r]), seed=9)
    assert not [e for e in history[0] if isinstance(e, Draw)]
    assert state.rng == 9
