"""Derived views (§5, §10 item 3): positions, directions, buttons, de-duplication."""

from __future__ import annotations

import json

import pytest

from studio.engines.tilecode.model import TRANSFORMS
from studio.engines.tilecode.views import (
    all_views, declared_views, default_transforms, derive_views, map_direction, map_position,
    view_of,
)
from tests.shared_data import requires_shared
from tests.tilecode.build import rec, rule

# (transform, where the right neighbour (3,2) goes, where the up neighbour (2,1) goes,
#  what "right" becomes, what "up" becomes)
CASES = [
    ("flip-horizontal", (1, 2), (2, 1), "left", "up"),
    ("flip-vertical", (3, 2), (2, 3), "right", "down"),
    ("rotate-left", (2, 1), (1, 2), "up", "left"),
    ("rotate-180", (1, 2), (2, 3), "left", "down"),
    ("rotate-right", (2, 3), (3, 2), "down", "right"),
]


@pytest.mark.parametrize("transform, right_to, up_to, right_dir, up_dir", CASES)
def test_positions_and_directions(transform, right_to, up_to, right_dir, up_dir) -> None:
    assert map_position(3, 2, transform) == right_to
    assert map_position(2, 1, transform) == up_to
    assert map_position(2, 2, transform) == (2, 2)
    assert map_direction("right", transform) == right_dir
    assert map_direction("up", transform) == up_dir


@pytest.mark.parametrize("transform", TRANSFORMS[:-1])
@pytest.mark.parametrize("name", ["stop", "resting", "moving", "any", "A"])
def test_non_directions_are_unchanged(transform, name) -> None:
    assert map_direction(name, transform) == name


def test_corner_positions_rotate() -> None:
    assert map_position(3, 1, "rotate-left") == (1, 1)
    assert map_position(3, 1, "rotate-right") == (3, 3)
    assert map_position(1, 1, "flip-vertical") == (1, 3)


def test_spec_example_rotate_left() -> None:
    # "press right; tile to the right includes grass -> move right" seen through rotate-left
    base = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]),
                rec(3, 2, include=["b1"], dir="right"), button="right", transforms="rotate-left")
    base_view, left = derive_views(base)
    assert base_view.transform == "none" and base_view.button == "right"
    assert left.transform == "rotate-left" and left.button == "up"
    assert left.record(2, 1).include == frozenset({"b1"})
    assert left.record(2, 1).dir == "up"
    assert left.record(3, 2) is None
    assert [c.text for c in left.record(2, 2).do] == ["move up"]


def test_rotate_3_way_order_and_count() -> None:
    r = rule(1, "change", rec(2, 2, include=["s2"], dir="right", do=["move right"]),
             rec(3, 2, include=["b1"]), transforms="rotate-3-way")
    views = derive_views(r)
    assert [v.transform for v in views] == ["none", "rotate-left", "rotate-180", "rotate-right"]
    assert [v.centre.dir for v in views] == ["right", "up", "left", "down"]
    assert [v.record(2, 2).do[0].arg for v in views] == ["right", "up", "left", "down"]
    assert declared_views(r) == 3


@pytest.mark.parametrize("transforms, count", [
    ("none", 0), ("flip-horizontal", 1), ("flip-vertical", 1), ("rotate-left", 1),
    ("rotate-180", 1), ("rotate-right", 1), ("rotate-3-way", 3),
])
def test_declared_views_before_dedup(transforms, count) -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]), button="right",
             transforms=transforms)
    assert declared_views(r) == count
    assert len(derive_views(r, dedup=False)) == count + 1


def test_dedup_press_a_on_player() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["game score"]), button="A",
             transforms="rotate-3-way")
    assert len(derive_views(r, dedup=False)) == 4
    assert [v.transform for v in derive_views(r)] == ["none"]
    assert [same for _, same in all_views(r)] == [None, 0, 0, 0]


def test_dedup_never_with_only_a_centre() -> None:
    r = rule(1, "never", rec(2, 2, include=["s3"], do=["game win"]), transforms="rotate-3-way")
    assert len(derive_views(r)) == 1


def test_dedup_change_any_with_only_a_centre() -> None:
    r = rule(1, "change", rec(2, 2, include=["s0"], do=["game score"]), transforms="rotate-3-way")
    assert len(derive_views(r)) == 1


def test_dedup_keeps_four_for_snake_on_my_right() -> None:
    r = rule(1, "change", rec(2, 2, include=["s0"], do=["game lose"]),
             rec(3, 2, include=["s3"]), transforms="rotate-3-way")
    assert len(derive_views(r)) == 4


def test_dedup_ignores_vacuous_records_and_record_order() -> None:
    r = rule(1, "change", rec(2, 2, include=["s0"], do=["game score"]), rec(1, 2),
             rec(1, 1), transforms="flip-horizontal")
    assert len(derive_views(r)) == 1
    # a flip that moves a symmetric pair onto itself is the same view
    pair = rule(2, "change", rec(2, 2, include=["s0"]), rec(1, 2, include=["b1"]),
                rec(3, 2, include=["b1"]), transforms="flip-horizontal")
    assert len(derive_views(pair)) == 1


def test_flip_keeps_different_commands_apart() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["move left"]), button="A",
             transforms="flip-horizontal")
    views = derive_views(r)
    assert len(views) == 2 and views[1].record(2, 2).do[0].arg == "right"


def test_view_of_base_drops_vacuous_records() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"]), rec(1, 1), button="up")
    assert [rec_.position for rec_ in view_of(r, "none").records] == [(2, 2)]


def test_rows_run_column_major() -> None:
    r = rule(1, "press", rec(3, 2, do=["paint b1"]), rec(2, 3, do=["paint b2"]),
             rec(2, 2, include=["s0"], do=["paint b3"]), rec(2, 1, do=["paint b0"]),
             rec(1, 2, do=["paint b1"]), button="A")
    assert [r_.position for r_ in derive_views(r)[0].rows] == [(1, 2), (2, 1), (2, 2), (2, 3),
                                                              (3, 2)]


def test_default_transforms_for_the_player() -> None:
    assert default_transforms({"s0"}) == "rotate-3-way"
    assert default_transforms({"s1", "s0"}) == "rotate-3-way"
    assert default_transforms({"s2"}) == "none"


def test_corpus_declared_views_match_the_summary() -> None:
    corpus = requires_shared("corpus", "tilecode")
    for path in sorted(corpus.glob("*.expected.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        total = 0
        for raw in data["rules"].values():
            r = rule(0, raw["type"], rec(2, 2, include=["s0"]),
                     button="A" if raw["type"] == "press" else None,
                     transforms=raw["transforms_name"])
            assert declared_views(r) == len(raw["derived_view_transforms"]), path.name
            total += declared_views(r)
        assert total == data["summary"]["derived_views"], path.name
