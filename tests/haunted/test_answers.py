"""The AI's view and the reading of its answer (spec haunted.md §7.1, §7.2, §14.3)."""

from __future__ import annotations

import pytest

from studio.engines.haunted.answers import game_state, interpret
from studio.engines.haunted.rules import Round, step
from tests.haunted.helpers import open_map

ALL = [True, True, True]


def test_game_state_has_the_original_shape() -> None:
    state = Round(open_map()).initial_state()
    snap = game_state(state)
    assert snap["boardSize"] == [7, 7]
    assert snap["tileStates"] == [[3] * 7 for _ in range(7)]
    assert snap["teamStates"]["home"] == [
        {"coord": [0, 0], "isDead": False}, {"coord": [0, 3], "isDead": False},
        {"coord": [0, 6], "isDead": False}]
    assert [m["coord"] for m in snap["teamStates"]["away"]] == [[6, 0], [6, 3], [6, 6]]


def test_game_state_shows_dead_monsters_where_they_died_and_is_a_fresh_copy() -> None:
    state = Round(open_map()).initial_state()
    state, _ = step(state, ["north", "none", "none"], ["none"] * 3)
    snap = game_state(state)
    assert snap["teamStates"]["home"][0] == {"coord": [-1, 0], "isDead": True}
    assert snap["tileStates"][0][3] == 2
    snap["tileStates"][0][3] = 0
    assert game_state(state)["tileStates"][0][3] == 2


def test_three_entries_drive_monsters_by_index_dead_entries_ignored() -> None:
    reading = interpret(["east", "bogus", "west"], [True, False, True], "T (home)", 4)
    assert reading.moves == ["east", None, "west"]
    assert reading.warnings == []


def test_as_many_entries_as_living_monsters_drive_them_in_order() -> None:
    assert interpret(["south"], [False, True, False], "T", 1).moves == [None, "south", None]
    assert interpret(["south", "east"], [True, False, True], "T", 1).moves == ["south", None, "east"]


@pytest.mark.parametrize("answer", [[], ["none"], ["none"] * 2, ["none"] * 4])
def test_other_lengths_are_bad_shape(answer) -> None:
    reading = interpret(answer, ALL, "T", 1)
    assert reading.moves is None
    assert f"got a list of {len(answer)}" in reading.error


def test_a_length_that_matches_neither_3_nor_the_living_count() -> None:
    reading = interpret(["none", "none"], [True, False, False], "T", 1)
    assert reading.moves is None and "3 or 1" in reading.error


@pytest.mark.parametrize("answer", [None, "north", 3, {"0": "north"}, True, 2.5])
def test_non_lists_are_bad_shape(answer) -> None:
    reading = interpret(answer, ALL, "T", 1)
    assert reading.moves is None and "expected a list" in reading.error


def test_tuples_count_as_lists() -> None:
    assert interpret(("north", "none", "west"), ALL, "T", 1).moves == ["north", "none", "west"]


@pytest.mark.parametrize("value", ["up", "North", "NONE", 1, None, ["north"], "jump"])
def test_unknown_entries_jump_with_a_warning_naming_team_turn_monster_value(value) -> None:
    reading = interpret(["east", value, "west"], ALL, "Greedy Ghosts (home)", 7)
    assert reading.moves == ["east", "none", "west"]
    assert len(reading.warnings) == 1
    warning = reading.warnings[0]
    assert "Greedy Ghosts (home)" in warning and "turn 7" in warning and "monster 1" in warning
    assert repr(value) in warning
