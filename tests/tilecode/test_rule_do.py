"""The rule editor's Do side (§8.8): the command menu of each row, its arguments, and adding,
replacing and deleting commands against §3.4."""

from __future__ import annotations

import pytest

from studio.engines.tilecode.model import CORNERS, DIRECTIONS, Command
from studio.engines.tilecode.rule_do import arg_choices, delete_command, set_command, verb_choices
from studio.engines.tilecode.rule_edit import toggle_attribute
from tests.tilecode.test_rule_edit import (
    ALL_VERBS, CENTRE, DOWN, LEFT, NO_SPRITE_VERBS, RIGHT, UP, cmds, errors, made,
)

def test_command_menu_on_an_empty_row_depends_on_the_witness() -> None:
    r = made(1, "press", "right")
    assert verb_choices(r, *CENTRE, 0) == ALL_VERBS
    assert verb_choices(r, *RIGHT, 0) == NO_SPRITE_VERBS
    r = toggle_attribute(r, *RIGHT, "s2", "include")
    assert verb_choices(r, *RIGHT, 0) == ALL_VERBS
    for corner in CORNERS:
        assert verb_choices(r, *corner, 0) == ()
    assert verb_choices(r, *CENTRE, 1) == ()  # beyond the append slot
    assert verb_choices(r, *CENTRE, -1) == ()


def test_move_and_destroy_only_first_each_verb_once_and_move_after_create() -> None:
    r = set_command(made(0, "change", "any"), *CENTRE, 0, Command("move", "up"))
    assert verb_choices(r, *CENTRE, 1) == NO_SPRITE_VERBS
    r = set_command(r, *CENTRE, 1, Command("paint", "b1"))
    assert verb_choices(r, *CENTRE, 2) == ("create", "block", "portal", "game")
    r = set_command(r, *CENTRE, 2, Command("create", "s2"))
    assert verb_choices(r, *CENTRE, 3) == ("move", "block", "portal", "game")
    r = set_command(r, *CENTRE, 3, Command("move", "left"))
    assert r.centre.do == cmds("move up", "paint b1", "create s2", "move left")
    assert verb_choices(r, *CENTRE, 4) == ()  # the row is full
    assert errors(r) == []
    # Replacing: the create at slot 2 carries the move after it, so only create fits there.
    assert verb_choices(r, *CENTRE, 2) == ("create",)
    assert verb_choices(r, *CENTRE, 0) == ("move", "destroy", "block", "portal", "game")
    assert verb_choices(r, *CENTRE, 3) == ("move", "block", "portal", "game")
    edge = set_command(made(0, "press", "A"), *UP, 0, Command("create", "s1"))
    assert verb_choices(edge, *UP, 1) == ("move", "paint", "block", "portal", "game")
    with pytest.raises(ValueError):
        set_command(edge, *UP, 1, Command("destroy"))


def test_never_rules_offer_game_and_block_once_each() -> None:
    r = made(3, "never", "never")
    assert verb_choices(r, *CENTRE, 0) == ("block", "game")
    assert verb_choices(r, *UP, 0) == ()
    r = set_command(r, *CENTRE, 0, Command("game", "win"))
    assert verb_choices(r, *CENTRE, 1) == ("block",)
    r = set_command(r, *CENTRE, 1, Command("block", "s0"))
    assert verb_choices(r, *CENTRE, 2) == ()
    assert arg_choices(r, "game") == ("win", "lose", "score")
    assert errors(r) == []


def test_smash_rules_move_only_means_stop() -> None:
    r = made(0, "smash", "left")
    assert arg_choices(r, "move") == ("stop",)
    assert arg_choices(made(0, "press", "A"), "move") == DIRECTIONS
    assert verb_choices(r, *CENTRE, 0) == ALL_VERBS
    assert verb_choices(r, *LEFT, 0) == NO_SPRITE_VERBS
    assert verb_choices(r, *UP, 0) == ()
    with pytest.raises(ValueError):
        set_command(r, *CENTRE, 0, Command("move", "left"))
    r = set_command(r, *CENTRE, 0, Command("move", "stop"))
    r = toggle_attribute(r, *LEFT, "s1", "include")
    r = set_command(r, *LEFT, 0, Command("destroy"))
    assert errors(r) == []
    with pytest.raises(ValueError):
        set_command(made(0, "press", "A"), *CENTRE, 0, Command("move", "stop"))


def test_arguments_of_each_verb() -> None:
    r = made(0, "press", "A")
    assert arg_choices(r, "paint") == arg_choices(r, "portal") == ("b0", "b1", "b2", "b3")
    assert arg_choices(r, "create") == arg_choices(r, "block") == ("s0", "s1", "s2", "s3")
    assert arg_choices(r, "destroy") == ()
    with pytest.raises(ValueError):
        arg_choices(r, "jump")
    with pytest.raises(ValueError):
        set_command(r, *CENTRE, 0, Command("destroy", "s1"))
    with pytest.raises(ValueError):
        set_command(r, *CENTRE, 0, Command("paint", "s1"))


def test_set_command_replaces_and_appends() -> None:
    r = set_command(made(0, "press", "A"), *DOWN, 0, Command("paint", "b1"))
    assert [t.position for t in r.tiles] == [CENTRE, DOWN]
    r = set_command(r, *DOWN, 0, Command("paint", "b3"))
    r = set_command(r, *DOWN, 1, Command("game", "score"))
    assert r.tile(*DOWN).do == cmds("paint b3", "game score")


def test_deleting_a_create_also_deletes_its_move() -> None:
    r = made(0, "change", "any")
    for i, text in enumerate(("paint b1", "create s2", "move left", "game score")):
        r = set_command(r, *CENTRE, i, Command.parse(text))
    assert delete_command(r, *CENTRE, 1).centre.do == cmds("paint b1", "game score")
    assert delete_command(r, *CENTRE, 2).centre.do == cmds("paint b1", "create s2", "game score")
    assert delete_command(r, *CENTRE, 0).centre.do == cmds("create s2", "move left", "game score")
    assert errors(delete_command(r, *CENTRE, 0)) == []
    with pytest.raises(IndexError):
        delete_command(r, *CENTRE, 4)
    only = set_command(made(0, "press", "A"), *UP, 0, Command("paint", "b1"))
    assert delete_command(only, *UP, 0) == made(0, "press", "A")  # the empty record goes
