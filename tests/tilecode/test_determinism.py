"""Determinism and snapshots (§10 item 6): same (game, seed, inputs) -> same run."""

from __future__ import annotations

import pytest

from studio.engines.tilecode.engine import TilecodeError, dump_state, load
from tests.tilecode.build import game, rec, rule
from tests.tilecode.test_engine_phases import grid

WANDER = [
    rule(1, "change", rec(2, 2, include=["s2"], dir="resting", do=["move right"]),
         transforms="rotate-3-way"),
    rule(2, "change", rec(2, 2, include=["s2"], dir="moving", do=["move up"]),
         rec(2, 1, exclude=["b1"]), transforms="rotate-3-way"),
    rule(3, "press", rec(2, 2, include=["s0"], do=["move right"]), button="right",
         transforms="rotate-3-way"),
    rule(4, "smash", rec(2, 2, include=["s2"], dir="right", do=["game score"]),
         rec(3, 2, include=["s2", "s0"]), transforms="rotate-3-way"),
    rule(5, "change", rec(2, 2, include=["s2"]), rec(3, 2, include=["b0"], do=["paint b3"])),
]
INPUTS = ["right", "-", "up", "up", "left", "-", "down", "right", "A", "-"] * 3


def world():
    return game(sprites=grid((1, 1, "2"), (6, 6, "2"), (3, 3, "0"), (5, 2, "2")), rules=WANDER)


def play(tg, state, inputs):
    dumps = []
    for token in inputs:
        if state.status != "play":
            break
        state, _ = tg.step(state, () if token == "-" else (token,))
        dumps.append(dump_state(state))
    return state, dumps


def test_same_seed_and_inputs_same_dumps() -> None:
    a = play(load(world()), load(world()).initial_state(11), INPUTS)[1]
    b = play(load(world()), load(world()).initial_state(11), INPUTS)[1]
    c = play(load(world()), load(world()).initial_state(12), INPUTS)[1]
    assert a == b
    assert a != c  # the seed matters (random moves at junctions)


def test_snapshot_restore_gives_identical_continuation() -> None:
    tg = load(world())
    state, _ = play(tg, tg.initial_state(3), INPUTS[:10])
    snapshot = state
    first = play(tg, snapshot, INPUTS[10:])[1]
    second = play(tg, snapshot, INPUTS[10:])[1]
    assert first == second
    assert snapshot == state  # stepping never mutated it


def test_step_leaves_its_input_untouched() -> None:
    tg = load(world())
    state = tg.initial_state(5)
    before = dump_state(state), state
    after, _ = tg.step(state, ("right",))
    assert (dump_state(state), state) == before and after is not state


def test_dump_format() -> None:
    tg = load(game(sprites=grid((4, 5, "0"), (2, 3, "2")), background=["0" * 8] * 7 + ["1" * 8]))
    text = dump_state(tg.initial_state(0))
    lines = text.splitlines()
    assert lines[0] == "round 0 state play score 0 high 0"
    assert lines[1] == "background" and lines[9] == "11111111"
    assert lines[10:] == ["sprites", "0 s2 2 3 resting", "1 s0 4 5 resting"]
    assert text.endswith("\n")


def test_seed_range_and_game_over() -> None:
    tg = load(game(rules=[rule(1, "never", rec(2, 2, include=["s1"], do=["game win"]))]))
    with pytest.raises(TilecodeError):
        tg.initial_state(-1)
    with pytest.raises(TilecodeError):
        tg.initial_state(1 << 63)
    state, _ = tg.step(tg.initial_state((1 << 63) - 1), ())
    assert state.status == "won"
    with pytest.raises(TilecodeError):
        tg.step(state, ())
    with pytest.raises(TilecodeError):
        tg.step(tg.initial_state(0), ("B",))


def test_buttons_may_be_given_as_text() -> None:
    tg = load(world())
    state = tg.step(tg.initial_state(4), ())[0]
    assert tg.step(state, "right")[0] == tg.step(state, ("right",))[0]
    assert tg.step(state, "up+A")[0] == tg.step(state, ("A", "up"))[0]
