"""The rule editor's model (§8.8): attribute, direction and command menus against §3.4. Random
rules and edits against the validator are in test_rule_edit_properties.py."""

from __future__ import annotations

import pytest

from studio.engines.tilecode.model import (
    DIR_PREDICATES, KIND_CODES, SPRITE_CODES, TRANSFORMS, Command, Rule, TileRecord,
)
from studio.engines.tilecode.rule_do import (
    describe_command, do_rows, row_errors, set_command, verb_choices,
)
from studio.engines.tilecode.rule_edit import (
    attribute_choices, button_choices, describe_tile, direction_choices, editable_tiles,
    kind_choices, reset_tile, set_button, set_direction, set_transforms, toggle_attribute,
    transform_choices, witness,
)
from studio.engines.tilecode.selector import new_rule
from studio.storage.tilecode.kind import new_game
from studio.storage.tilecode.check import rule_problems
from tests.tilecode.build import rec, rule

GAME = new_game("E")  # backgrounds brick grass water dirt; sprites player player2 cat snake head
ALL9 = tuple((c, r) for r in (1, 2, 3) for c in (1, 2, 3))
UP, LEFT, CENTRE, RIGHT, DOWN = (2, 1), (1, 2), (2, 2), (3, 2), (2, 3)
ALL_VERBS = ("move", "destroy", "paint", "create", "block", "portal", "game")
NO_SPRITE_VERBS = ("paint", "create", "block", "portal", "game")


def made(kind: int, rule_type: str, key: str) -> Rule:
    return new_rule(GAME, kind, rule_type, key)[1]


def cmds(*texts: str) -> tuple[Command, ...]:
    return tuple(Command.parse(t) for t in texts)


def errors(r: Rule) -> list[str]:
    return [p.message for p in rule_problems(r) if p.is_error]


# ------------------------------------------------------------------------ attribute menu


@pytest.mark.parametrize("code", KIND_CODES)
@pytest.mark.parametrize("attribute", ["include", "include2", "exclude"])
def test_toggling_an_attribute_sets_it_and_toggling_again_clears_it(attribute, code) -> None:
    start = made(1, "change", "any")
    once = toggle_attribute(start, 3, 3, code, attribute)
    assert once.tile(3, 3).attribute(code) == attribute
    assert once.tiles[0] == start.tiles[0] and once.tiles[1].position == (3, 3)
    assert toggle_attribute(once, 3, 3, code, attribute) == start  # vacuous record dropped
    for other in ("include", "include2", "exclude"):
        record = toggle_attribute(once, 3, 3, code, other).tile(3, 3)
        if other == attribute:
            assert record is None
        else:
            assert record.attribute(code) == other
            assert [code in getattr(record, s) for s in ("include", "include2", "exclude")
                    ].count(True) == 1


def test_toggles_keep_the_stored_record_order_and_other_kinds() -> None:
    r = made(1, "press", "up")
    r = toggle_attribute(r, 1, 1, "b1", "exclude")
    r = toggle_attribute(r, 3, 2, "s2", "include")
    r = toggle_attribute(r, 1, 1, "s3", "include2")
    r = toggle_attribute(r, 2, 2, "b0", "exclude")
    assert [t.position for t in r.tiles] == [CENTRE, (1, 1), RIGHT]
    assert r.tile(1, 1).exclude == {"b1"} and r.tile(1, 1).include2 == {"s3"}
    assert r.centre.include == {"s1"} and r.centre.exclude == {"b0"}


def test_smash_rules_edit_only_the_centre_and_the_collide_tile_with_include() -> None:
    for direction, collide in (("up", UP), ("left", LEFT), ("right", RIGHT), ("down", DOWN)):
        r = made(2, "smash", direction)
        assert set(editable_tiles(r)) == {CENTRE, collide}
        assert attribute_choices(r, *CENTRE) == ("include",)
        assert attribute_choices(r, *collide) == ("include",)
        assert kind_choices(r, *CENTRE) == SPRITE_CODES
        assert kind_choices(r, *collide) == KIND_CODES
        other = DOWN if collide != DOWN else UP
        assert attribute_choices(r, *other) == () and kind_choices(r, *other) == ()
        with pytest.raises(ValueError):
            toggle_attribute(r, *other, "s1", "include")
        with pytest.raises(ValueError):
            toggle_attribute(r, *collide, "s1", "exclude")
        with pytest.raises(ValueError):
            toggle_attribute(r, *CENTRE, "b0", "include")
    assert len(editable_tiles(made(0, "press", "A"))) == 9
    assert attribute_choices(made(0, "never", "never"), 1, 3) == ("include", "include2", "exclude")


def test_a_never_rules_centre_include_takes_only_sprites() -> None:
    r = made(1, "never", "never")
    assert kind_choices(r, *CENTRE, "include") == SPRITE_CODES
    assert kind_choices(r, *CENTRE, "include2") == KIND_CODES
    assert kind_choices(r, *CENTRE) == KIND_CODES
    with pytest.raises(ValueError):
        toggle_attribute(r, *CENTRE, "b1", "include")
    r = toggle_attribute(r, *CENTRE, "b1", "include2")  # Sokoban2: a box on plain floor
    assert errors(r) == []


def test_reset_tile_clears_attributes_keeps_commands_and_the_centre_dir() -> None:
    r = made(0, "smash", "right")
    r = toggle_attribute(r, *RIGHT, "s1", "include")
    r = set_direction(r, *RIGHT, "resting")
    r = set_command(r, *RIGHT, 0, Command("paint", "b2"))
    r = reset_tile(r, *RIGHT)
    assert r.tile(*RIGHT) == TileRecord(3, 2, do=cmds("paint b2"))
    r = reset_tile(r, *CENTRE)
    assert r.centre == TileRecord(2, 2, dir="right")
    assert errors(r) == []
    with pytest.raises(ValueError):
        reset_tile(r, *UP)
    change = toggle_attribute(made(1, "change", "down"), 1, 1, "b2", "include")
    assert reset_tile(change, 1, 1) == made(1, "change", "down")


def test_a_tile_that_loses_its_witness_gets_dir_any_back() -> None:
    r = toggle_attribute(made(1, "change", "any"), *UP, "s2", "include")
    r = set_direction(r, *UP, "left")
    assert r.tile(*UP).dir == "left"
    assert toggle_attribute(r, *UP, "b0", "include").tile(*UP).dir == "any"
    assert toggle_attribute(r, *UP, "s3", "include").tile(*UP).dir == "left"  # still a witness
    assert toggle_attribute(r, *UP, "s2", "include") == made(1, "change", "any")
    centre = set_direction(made(1, "change", "any"), *CENTRE, "moving")
    assert toggle_attribute(centre, *CENTRE, "s1", "include").centre.dir == "moving"


# ------------------------------------------------------------------------ direction menu


def test_direction_menu_cases() -> None:
    for kind, key in (("press", "A"), ("change", "up"), ("never", "never")):
        r = made(1, kind, key)
        assert direction_choices(r, *CENTRE) == DIR_PREDICATES
        assert direction_choices(r, *UP) == ()  # no witness
        with_witness = toggle_attribute(r, *UP, "s2", "include")
        assert direction_choices(with_witness, *UP) == (
            "left", "up", "right", "down", "resting", "moving", "any")
        mixed = toggle_attribute(with_witness, *UP, "b1", "include")
        assert direction_choices(mixed, *UP) == ()
        only_include2 = toggle_attribute(r, *UP, "s2", "include2")
        assert direction_choices(only_include2, *UP) == ()
        corner = toggle_attribute(r, 1, 1, "s2", "include")
        assert direction_choices(corner, 1, 1) == ()
    smash = made(0, "smash", "down")
    assert direction_choices(smash, *CENTRE) == ()
    assert direction_choices(smash, *DOWN) == ()
    sprite = toggle_attribute(smash, *DOWN, "s1", "include")
    assert direction_choices(sprite, *DOWN) == ("resting", "moving", "any")
    assert direction_choices(toggle_attribute(smash, *DOWN, "b0", "include"), *DOWN) == ()
    assert set_direction(sprite, *DOWN, "moving").tile(*DOWN).dir == "moving"
    with pytest.raises(ValueError):
        set_direction(sprite, *DOWN, "left")
    with pytest.raises(ValueError):
        set_direction(smash, *CENTRE, "up")
    with pytest.raises(ValueError):
        set_direction(made(1, "press", "A"), *UP, "up")


def test_buttons_and_transforms() -> None:
    assert button_choices() == ("left", "up", "right", "down", "A")
    r = made(0, "press", "left")
    assert set_button(r, "A").button == "A"
    with pytest.raises(ValueError):
        set_button(r, "B")
    with pytest.raises(ValueError):
        set_button(made(0, "change", "up"), "up")
    assert "rotate-180" not in transform_choices() and set(transform_choices()) < set(TRANSFORMS)
    assert len(transform_choices()) == 6
    assert set_transforms(r, "flip-vertical").transforms == "flip-vertical"
    with pytest.raises(ValueError):
        set_transforms(r, "rotate-180")
    old = rule(3, "change", rec(2, 2, ["s1"]), transforms="rotate-180")
    assert set_transforms(old, "rotate-180") == old  # a stored value may stay


# ---------------------------------------------------------------------- Do rows, witnesses


def test_do_rows_per_rule_type() -> None:
    assert do_rows(made(0, "press", "up")) == (LEFT, UP, CENTRE, DOWN, RIGHT)  # as they run
    assert do_rows(made(0, "change", "any")) == (LEFT, UP, CENTRE, DOWN, RIGHT)
    assert do_rows(made(0, "smash", "up")) == (UP, CENTRE)
    assert do_rows(made(0, "smash", "down")) == (CENTRE, DOWN)
    assert do_rows(made(0, "never", "never")) == (CENTRE,)
    imported = rule(4, "never", rec(2, 2, ["s1"]), rec(3, 2, do=["game win"]))
    assert do_rows(imported) == (CENTRE, RIGHT)


def test_witness_of_each_row() -> None:
    r = made(2, "press", "up")
    r = toggle_attribute(r, *CENTRE, "s0", "include")
    r = toggle_attribute(r, *CENTRE, "b1", "include")
    r = toggle_attribute(r, *LEFT, "s3", "include")
    r = toggle_attribute(r, *LEFT, "s1", "include")
    r = toggle_attribute(r, *RIGHT, "s1", "include2")
    r = toggle_attribute(r, *UP, "b2", "include")
    r = toggle_attribute(r, 1, 1, "s1", "include")
    assert witness(r, *CENTRE) == ("s0", "s2")
    assert witness(r, *LEFT) == ("s1", "s3")
    assert witness(r, *RIGHT) is None and witness(r, *UP) is None and witness(r, *DOWN) is None
    assert witness(r, 1, 1) is None
    assert witness(toggle_attribute(r, *LEFT, "b0", "include"), *LEFT) is None


# ------------------------------------------------------------------ the known breakages


@pytest.mark.parametrize("edit", [
    lambda r: toggle_attribute(r, *RIGHT, "s2", "include"),
    lambda r: toggle_attribute(r, *RIGHT, "s2", "exclude"),
    lambda r: toggle_attribute(r, *RIGHT, "b0", "include"),
    lambda r: reset_tile(r, *RIGHT),
])
def test_removing_the_witness_under_a_move_is_the_known_breakage(edit) -> None:
    r = toggle_attribute(made(0, "press", "right"), *RIGHT, "s2", "include")
    r = set_command(r, *RIGHT, 0, Command("move", "right"))
    broken = edit(r)
    assert row_errors(broken, *RIGHT) == (0,)
    assert [m for m in errors(broken)] == [
        "rule 0, tile (3,2), command 1 'move right': this tile declares no sprite witness to move"]
    # The row stays editable: other commands fit, and the move can be replaced.
    assert verb_choices(broken, *RIGHT, 1) == NO_SPRITE_VERBS
    assert verb_choices(broken, *RIGHT, 0) == NO_SPRITE_VERBS


def test_removing_the_centre_sprite_breaks_centre_destroy_and_never_rules() -> None:
    r = set_command(made(1, "change", "any"), *CENTRE, 0, Command("destroy"))
    assert row_errors(toggle_attribute(r, *CENTRE, "s1", "include"), *CENTRE) == (0,)
    never = set_command(made(1, "never", "never"), *CENTRE, 0, Command("game", "win"))
    broken = toggle_attribute(never, *CENTRE, "s1", "include2")
    assert errors(broken) == [
        "rule 0, tile (2,2): a never rule needs a sprite kind in the centre include"]
    assert row_errors(broken, *CENTRE) == ()


# ----------------------------------------------------------------------------- describing


def test_describe_tiles_and_commands_by_art_name() -> None:
    r = made(0, "press", "right")
    r = toggle_attribute(r, *CENTRE, "b0", "exclude")
    r = toggle_attribute(r, *CENTRE, "s3", "exclude")
    r = toggle_attribute(r, *RIGHT, "b1", "include2")
    assert describe_tile(r, *CENTRE, GAME) == (
        "include: player ✓; exclude: brick ⊘, snake head ⊘; dir any")
    assert describe_tile(r, *RIGHT, GAME) == "include′: grass ●"  # the menu's name for it
    assert describe_tile(r, 1, 1, GAME) == "don't care"
    r = set_direction(toggle_attribute(r, *UP, "s2", "include"), *UP, "resting")
    assert describe_tile(r, *UP, GAME) == "include: cat ✓; dir resting"
    said = [describe_command(c, GAME) for c in cmds(
        "move right", "move stop", "paint b1", "create s2", "portal b2", "block s1", "destroy",
        "game win", "game lose", "game score")]
    assert said == ["move right", "stop", "paint grass", "create cat", "portal water",
                    "block player2", "destroy", "game win", "game lose", "game +10"]
