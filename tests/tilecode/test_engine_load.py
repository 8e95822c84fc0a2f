"""``load`` refuses games the VM cannot run faithfully; exposes the de-duplicated views."""

from __future__ import annotations

from dataclasses import replace

import pytest

from studio.engines.tilecode.engine import TilecodeError, load
from studio.engines.tilecode.model import SpritePlacement
from tests.tilecode.build import game, rec, rule


@pytest.mark.parametrize("bad", [
    rule(1, "press", rec(2, 2, include=["s0"], do=["move stop"]), button="A"),
    rule(1, "smash", rec(2, 2, include=["s0"], dir="right", do=["move left"]),
         rec(3, 2, include=["s1"])),
    rule(1, "smash", rec(2, 2, include=["s0"], dir="any"), rec(3, 2, include=["s1"])),
    rule(1, "never", rec(2, 2, include=["s0"], do=["paint b1"])),
    rule(1, "never", rec(2, 2, include=["b0", "s1"], do=["game win"])),
    rule(1, "press", rec(2, 2, include=["s0"]), rec(1, 1, do=["paint b1"]), button="A"),
    rule(1, "press", rec(2, 2, include=["s0"], exclude=["s0"]), button="A"),
    rule(1, "press", rec(2, 2, include=["s0"]), button="B"),
])
def test_unrunnable_rules_raise(bad) -> None:
    with pytest.raises(TilecodeError):
        load(game(rules=[bad]))


def test_bad_maps_raise() -> None:
    g = game()
    with pytest.raises(TilecodeError):
        load(replace(g, map=replace(g.map, sprites=(SpritePlacement(8, 0, 0),))))
    with pytest.raises(TilecodeError):
        load(replace(g, map=replace(g.map, sprites=(SpritePlacement(0, 0, 4),))))
    with pytest.raises(TilecodeError):
        load(game(background=["0" * 7] * 7))
    with pytest.raises(TilecodeError):
        load(game(background=["0" * 8] * 7 + ["4" * 8]))


def test_views_are_deduplicated_in_rule_and_view_order() -> None:
    tg = load(game(rules=[
        rule(7, "press", rec(2, 2, include=["s0"], do=["game score"]), button="A",
             transforms="rotate-3-way"),
        rule(2, "change", rec(2, 2, include=["s0"]), rec(3, 2, include=["s3"], do=["destroy"]),
             transforms="rotate-3-way"),
        rule(4, "never", rec(2, 2, include=["b0"], do=["game win"]), enabled=False),
    ]))
    assert [(v.rule_id, v.transform) for v in tg.views] == [
        (2, "none"), (2, "rotate-left"), (2, "rotate-180"), (2, "rotate-right"), (7, "none")]
