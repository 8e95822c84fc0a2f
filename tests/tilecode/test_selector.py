"""The rule selector's model (§8.7): its cells, the rules each cell makes, counts, prev/next."""

from __future__ import annotations

from dataclasses import replace

import pytest

from studio.engines.tilecode.model import Game, Rule
from studio.engines.tilecode.selector import (
    QUADRANTS, SELECTOR_CELLS, add_like, cell_for, counts, delete_rule, free_rule_id,
    neighbours, new_rule, put_rule, rule_key, rules_at, rules_for_kind,
)
from studio.storage.tilecode.kind import body_to_game, game_to_body, new_game
from studio.storage.tilecode.check import rule_problems
from tests.tilecode.build import rec, rule


def with_rules(*rules: Rule, player_kind: int = 0) -> Game:
    return replace(new_game("S"), rules=tuple(sorted(rules, key=lambda r: r.id)),
                   player_kind=player_kind)


# ------------------------------------------------------------------------------ the cells


def test_the_cells_are_laid_out_as_in_the_spec() -> None:
    grid = {(c.quadrant, c.col, c.row): (c.key, c.caption) for c in SELECTOR_CELLS}
    assert grid == {
        ("change", 1, 0): ("up", "moved up"),
        ("change", 0, 1): ("left", "moved left"),
        ("change", 1, 1): ("any", "any"),
        ("change", 2, 1): ("right", "moved right"),
        ("change", 1, 2): ("down", "moved down"),
        ("change", 0, 2): ("resting", "rested"),
        ("change", 2, 2): ("moving", "moved"),
        ("press", 1, 0): ("up", "dpad up"),
        ("press", 0, 1): ("left", "dpad left"),
        ("press", 1, 1): ("A", "A button"),
        ("press", 2, 1): ("right", "dpad right"),
        ("press", 1, 2): ("down", "dpad down"),
        ("smash", 1, 0): ("up", "smash up"),
        ("smash", 0, 1): ("left", "smash left"),
        ("smash", 2, 1): ("right", "smash right"),
        ("smash", 1, 2): ("down", "smash down"),
        ("misc", 0, 0): ("never", "never"),
    }
    assert [c.quadrant for c in SELECTOR_CELLS] == sorted(
        (c.quadrant for c in SELECTOR_CELLS), key=QUADRANTS.index)
    smash_labels = {c.label for c in SELECTOR_CELLS if c.quadrant == "smash"}
    assert smash_labels == {"↑", "←", "→", "↓"}
    assert cell_for("never", "never").quadrant == "misc"
    assert cell_for("smash", "any") is None


# ----------------------------------------------------------------------- making new rules


@pytest.mark.parametrize("kind", [0, 2])
@pytest.mark.parametrize("cell", SELECTOR_CELLS, ids=lambda c: f"{c.quadrant}-{c.key}")
def test_every_cell_creates_the_rule_the_spec_describes(cell, kind) -> None:
    game, made = new_rule(new_game("S"), kind, cell.rule_type, cell.key)
    assert made.type == cell.rule_type and made.id == 0 and game.rules == (made,)
    assert len(made.tiles) == 1 and made.centre.position == (2, 2)
    assert made.centre.include == {f"s{kind}"}
    assert not (made.centre.include2 or made.centre.exclude or made.centre.do)
    assert made.button == (cell.key if cell.rule_type == "press" else None)
    direction = cell.key if cell.rule_type in ("change", "smash") else "any"
    assert made.centre.dir == direction
    assert made.transforms == ("rotate-3-way" if kind == 0 else "none")
    assert rule_key(made) == (cell.rule_type, cell.key)
    assert rule_problems(made) == []  # not even a warning
    assert body_to_game(game_to_body(game), game.name) == game


def test_the_player_kind_of_the_game_gets_the_4_way_rotation() -> None:
    game = with_rules(player_kind=2)
    assert new_rule(game, 2, "press", "up")[1].transforms == "rotate-3-way"
    assert new_rule(game, 0, "press", "up")[1].transforms == "none"


def test_new_rules_take_the_smallest_free_id() -> None:
    game = with_rules(rule(0, "never", rec(2, 2, ["s1"])), rule(1, "never", rec(2, 2, ["s1"])),
                      rule(3, "never", rec(2, 2, ["s1"])))
    assert free_rule_id(game) == 2
    game, made = new_rule(game, 1, "smash", "left")
    assert made.id == 2 and [r.id for r in game.rules] == [0, 1, 2, 3]
    game, made = new_rule(game, 1, "smash", "left")
    assert made.id == 4
    assert free_rule_id(delete_rule(game, 0)) == 0


def test_new_rule_rejects_what_no_cell_offers() -> None:
    with pytest.raises(ValueError):
        new_rule(new_game("S"), 4, "press", "up")
    with pytest.raises(ValueError):
        new_rule(new_game("S"), 0, "smash", "any")
    with pytest.raises(ValueError):
        new_rule(new_game("S"), 0, "press", "B")


def test_add_like_copies_type_and_direction_for_the_given_kind() -> None:
    game, first = new_rule(new_game("S"), 0, "change", "resting")
    game, second = add_like(game, first, 3)
    assert (second.id, second.type, second.centre.dir) == (1, "change", "resting")
    assert second.centre.include == {"s3"} and second.transforms == "none"
    game, third = add_like(game, new_rule(game, 1, "press", "A")[1], 1)
    assert third.button == "A"
    odd = rule(9, "smash", rec(2, 2, ["s0"], dir="any"))
    with pytest.raises(ValueError):
        add_like(game, odd, 0)


# -------------------------------------------------------------------- storing and finding


def test_put_rule_replaces_by_id_or_inserts_in_order() -> None:
    a, b = rule(2, "never", rec(2, 2, ["s0"])), rule(7, "never", rec(2, 2, ["s1"]))
    game = with_rules(a, b)
    game = put_rule(game, rule(4, "never", rec(2, 2, ["s2"])))
    assert [r.id for r in game.rules] == [2, 4, 7]
    edited = rule(7, "never", rec(2, 2, ["s3"]))
    game = put_rule(game, edited)
    assert [r.id for r in game.rules] == [2, 4, 7] and game.rule(7) == edited
    assert game.rules[0] is a  # untouched rules are shared
    assert [r.id for r in put_rule(game, rule(0, "never", rec(2, 2, ["s0"]))).rules] == [0, 2, 4, 7]


def test_delete_rule() -> None:
    game = with_rules(rule(2, "never", rec(2, 2, ["s0"])), rule(7, "never", rec(2, 2, ["s1"])))
    assert [r.id for r in delete_rule(game, 2).rules] == [7]
    with pytest.raises(KeyError):
        delete_rule(game, 3)


def test_rule_key_by_type() -> None:
    assert rule_key(rule(0, "press", rec(2, 2, ["s0"], dir="left"), button="A")) == ("press", "A")
    assert rule_key(rule(0, "change", rec(2, 2, ["s0"], dir="moving"))) == ("change", "moving")
    assert rule_key(rule(0, "smash", rec(2, 2, ["s0"], dir="down"))) == ("smash", "down")
    assert rule_key(rule(0, "never", rec(2, 2, ["s0"], dir="up"))) == ("never", "never")
    assert rule_key(rule(0, "change")) == ("change", "any")  # no centre record: dir any


def test_rules_for_kind_counts_and_cells() -> None:
    both = rule(5, "change", rec(2, 2, ["s0", "s1"], dir="up"))
    game = with_rules(
        rule(9, "press", rec(2, 2, ["s0"]), button="left"),
        both,
        rule(1, "press", rec(2, 2, ["s0"]), button="left"),
        # No sprite kind in the centre include (include2 binds nothing): under every kind.
        rule(2, "press", rec(2, 2, [], include2=["s0"]), button="left"),
        rule(3, "smash", rec(2, 2, ["s0"], dir="any")),  # hand-edited: no cell shows it
    )
    assert [r.id for r in rules_for_kind(game, 0)] == [1, 2, 3, 5, 9]
    assert [r.id for r in rules_for_kind(game, 1)] == [2, 5]
    assert [r.id for r in rules_at(game, 0, "press", "left")] == [1, 2, 9]
    assert rules_at(game, 0, "press", "right") == []
    tally = counts(game, 0)
    assert tally[("press", "left")] == 3 and tally[("change", "up")] == 1
    assert tally[("smash", "any")] == 1
    assert sum(tally.values()) == 5
    assert all(tally[(c.rule_type, c.key)] == 0 for c in SELECTOR_CELLS
               if (c.rule_type, c.key) not in (("press", "left"), ("change", "up")))
    assert counts(game, 1)[("change", "up")] == 1 and counts(game, 2)[("change", "up")] == 0


def test_neighbours_walk_the_kinds_rules_by_id() -> None:
    game = with_rules(*(rule(i, "never", rec(2, 2, ["s0"])) for i in (1, 4, 6)),
                      rule(5, "never", rec(2, 2, ["s1"])))
    assert neighbours(game, 0, 1) == (None, 4)
    assert neighbours(game, 0, 4) == (1, 6)
    assert neighbours(game, 0, 6) == (4, None)
    assert neighbours(game, 0, 5) == (4, 6)  # a rule of another kind: nearest ids around it
    assert neighbours(game, 1, 5) == (None, None)
    assert neighbours(game, 2, 0) == (None, None)


def test_a_rule_whose_centre_lost_its_sprite_stays_in_the_selector_under_every_kind() -> None:
    # New rule, reset the centre tile: the rule was reachable only from the problems list.
    from studio.engines.tilecode.rule_edit import reset_tile

    game, made = new_rule(with_rules(), 0, "press", "right")
    orphan = reset_tile(made, 2, 2)
    game = with_rules(orphan)
    assert not orphan.centre.include
    for kind in range(4):
        assert rules_for_kind(game, kind) == [orphan]
        assert rules_at(game, kind, "press", "right") == [orphan]
        assert counts(game, kind)[("press", "right")] == 1
    # Given a sprite kind again, it is that kind's alone.
    owned = with_rules(replace(orphan, tiles=(rec(2, 2, ["s1"]),)))
    assert [len(rules_for_kind(owned, kind)) for kind in range(4)] == [0, 1, 0, 0]
