"""The rule editor's menus against the validator (§3.4) on random rules and random edits: what
they offer never makes an error beyond the known breakages."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.engines.tilecode.model import (
    BUTTONS, CORNERS, KIND_CODES, RULE_TYPES, Command, Rule, TileRecord,
)
from studio.engines.tilecode.rule_do import (
    arg_choices, delete_command, do_rows, row_errors, set_command, verb_choices,
)
from studio.engines.tilecode.rule_edit import (
    attribute_choices, direction_choices, editable_tiles, kind_choices, reset_tile, set_button,
    set_direction, set_transforms, toggle_attribute, transform_choices,
)
from studio.engines.tilecode.selector import SELECTOR_CELLS, new_rule, put_rule
from studio.storage.tilecode.kind import body_to_game, game_to_body
from studio.storage.tilecode.check import has_witness, rule_problems
from tests.tilecode.test_rule_edit import ALL9, CENTRE, GAME, made


# ---------------------------------------------------------------- the §3.4 agreement


codes = st.sampled_from(KIND_CODES)
commands = st.sampled_from([
    "move left", "move up", "move stop", "destroy", "paint b1", "create s2", "portal b3",
    "block s0", "game win", "game score",
]).map(Command.parse)


@st.composite
def any_record(draw, col: int, row: int) -> TileRecord:
    chosen = draw(st.lists(codes, unique=True, max_size=4))
    cut = draw(st.integers(0, len(chosen)))
    return TileRecord(col, row, frozenset(chosen[:cut]), frozenset(chosen[cut:]),
                      do=tuple(draw(st.lists(commands, max_size=4))))


@st.composite
def any_rule(draw) -> Rule:
    kind = draw(st.sampled_from(RULE_TYPES))
    positions = draw(st.lists(st.sampled_from(ALL9), unique=True, max_size=5))
    return Rule(0, kind, tuple(draw(any_record(c, r)) for c, r in positions),
                "A" if kind == "press" else None)


@settings(max_examples=400)
@given(any_rule())
def test_row_errors_agree_with_the_validator(r: Rule) -> None:
    problems = [p for p in rule_problems(r) if p.is_error]
    for j, record in enumerate(r.tiles):
        theirs = {p.path[3] for p in problems if p.path[:3] == ("tiles", j, "do")
                  and len(p.path) == 4}
        mine = set(row_errors(r, record.col, record.row))
        if record.position in CORNERS:
            assert mine == set(range(len(record.do)))
            assert any(p.path == ("tiles", j, "do") for p in problems) == bool(record.do)
        else:
            assert mine == theirs, (record, problems)


# ------------------------------------------------------------ the editing invariant


def known_breakage(r: Rule, message: str, path: tuple) -> bool:
    """The two ways of the module docstring: a first move/destroy without witness, or a never
    rule's centre without sprite."""
    if r.type == "never" and path[-1] == "include" and "needs a sprite kind" in message:
        return True
    if len(path) == 4 and path[2] == "do" and path[3] == 0:
        record = r.tiles[path[1]]
        return (record.do[0].verb in ("move", "destroy") and not has_witness(record)
                and "declares no sprite witness" in message)
    return False


@st.composite
def an_edit(draw, r: Rule):
    """One editor action, every argument drawn from what the menus offer."""
    actions = ["toggle", "reset", "transforms"]
    aimed = [t for t in editable_tiles(r) if direction_choices(r, *t)]
    slots = [(t, i) for t in do_rows(r) for i in range(len(r.tile(*t).do if r.tile(*t) else ()) + 1)
             if verb_choices(r, *t, i)]
    filled = [(t, i) for t in do_rows(r) for i in range(len(r.tile(*t).do if r.tile(*t) else ()))]
    actions += ["direction"] * bool(aimed) + ["command"] * 3 * bool(slots)
    actions += ["delete"] * bool(filled) + ["button"] * (r.type == "press")
    action = draw(st.sampled_from(actions))
    if action == "toggle":
        # The centre carries most constraints (witness, never include, smash), so aim there often.
        tile = draw(st.sampled_from(editable_tiles(r) + (CENTRE,) * 3))
        attribute = draw(st.sampled_from(attribute_choices(r, *tile)))
        code = draw(st.sampled_from(kind_choices(r, *tile, attribute)))
        return toggle_attribute(r, *tile, code, attribute)
    if action == "reset":
        return reset_tile(r, *draw(st.sampled_from(editable_tiles(r))))
    if action == "transforms":
        return set_transforms(r, draw(st.sampled_from(transform_choices())))
    if action == "direction":
        tile = draw(st.sampled_from(aimed))
        return set_direction(r, *tile, draw(st.sampled_from(direction_choices(r, *tile))))
    if action == "button":
        return set_button(r, draw(st.sampled_from(BUTTONS)))
    if action == "delete":
        tile, index = draw(st.sampled_from(filled))
        return delete_command(r, *tile, index)
    tile, index = draw(st.sampled_from(slots))
    verb = draw(st.sampled_from(verb_choices(r, *tile, index)))
    args = arg_choices(r, verb)
    arg = draw(st.sampled_from(args)) if args else None
    return set_command(r, *tile, index, Command(verb, arg))


IGNORED = ("is ignored on a tile without a sprite witness", "smash rules only look at",
           "at a smash rule's centre are ignored")


def one_step_edits(r: Rule):
    """Every single edit the menus offer on ``r`` (attribute, reset, direction, command)."""
    for tile in editable_tiles(r):
        for attribute in attribute_choices(r, *tile):
            for code in kind_choices(r, *tile, attribute):
                yield toggle_attribute(r, *tile, code, attribute)
        for direction in direction_choices(r, *tile):
            yield set_direction(r, *tile, direction)
    for tile in do_rows(r):
        for verb in verb_choices(r, *tile, 0):
            for arg in arg_choices(r, verb) or (None,):
                yield set_command(r, *tile, 0, Command(verb, arg))


@pytest.mark.parametrize("kind", [0, 1])
@pytest.mark.parametrize("cell", SELECTOR_CELLS, ids=lambda c: f"{c.quadrant}-{c.key}")
def test_every_single_offered_edit_of_a_new_rule_is_clean(cell, kind) -> None:
    """Exhaustive, one edit deep; the property test below goes deep at random."""
    for r in one_step_edits(made(kind, cell.rule_type, cell.key)):
        problems = rule_problems(r)
        assert all(known_breakage(r, p.message, p.path) for p in problems if p.is_error), r
        assert not any(text in p.message for p in problems for text in IGNORED), r


@settings(max_examples=300)
@given(st.data())
def test_offered_choices_never_make_an_error_beyond_the_known_breakages(data) -> None:
    never = SELECTOR_CELLS[-1]  # one cell among 17, yet with the most constraints: weight it
    cell = data.draw(st.sampled_from(SELECTOR_CELLS + (never,) * 3))
    game, r = new_rule(GAME, data.draw(st.integers(0, 3)), cell.rule_type, cell.key)
    for _ in range(data.draw(st.integers(1, 30))):
        r = data.draw(an_edit(r))
        for problem in rule_problems(r):
            if problem.is_error:
                assert known_breakage(r, problem.message, problem.path), problem
            else:
                assert not any(text in problem.message for text in IGNORED), problem
        assert all(len(t.do) <= 4 for t in r.tiles)
        assert len({t.position for t in r.tiles}) == len(r.tiles)
    game = put_rule(game, r)
    assert body_to_game(game_to_body(game), game.name).rule(r.id) == r  # no vacuous records
