"""Turn resolution (spec haunted.md §5.2, §5.3, §5.4, §14.1-2): every step and every table row."""

from __future__ import annotations

import pytest

from studio.engines.haunted.rules import (
    BROKE_TILE,
    BROKEN_TILE,
    OFF_BOARD,
    PURGE,
    Death,
    Hit,
    Round,
    RoundEnd,
    describe,
    step,
)
from tests.haunted.helpers import board, open_map, state_with

N = "none"
# Far-away stand-ins that jump on full tiles and survive the turn, so the round goes on.
IDLE = [N, N, N]


def deaths(events):
    return [(e.side, e.index, e.pos, e.cause) for e in events if isinstance(e, Death)]


def hits(events):
    return [(e.side, e.index, e.tile, e.before, e.after) for e in events if isinstance(e, Hit)]


def setup(rows, home, away):
    return Round(board(rows, home, away)).initial_state()


OPEN7 = ["3333333"] * 7
HOME = [[0, 0], [0, 3], [0, 6]]
AWAY = [[6, 0], [6, 3], [6, 6]]


# --------------------------------------------------------------------------- §5.1 set-up


def test_placing_monsters_does_not_hit_their_tiles() -> None:
    state = Round(open_map()).initial_state()
    assert set(state.strengths) == {3}
    assert state.alive == (True,) * 6
    assert state.broken == (0, 0) and state.turn == 1 and state.end is None
    assert state.positions == ((0, 0), (0, 3), (0, 6), (6, 0), (6, 3), (6, 6))


# --------------------------------------------------------------------------- §5.3 table


def _two_step_into(strength: str):
    """H0 at (3,2) and A0 at (3,4) both step into T = (3,3) of the given strength."""
    rows = ["3333333"] * 3 + ["333" + strength + "333"] + ["3333333"] * 3
    state = setup(rows, [[3, 2], [0, 0], [0, 6]], [[3, 4], [6, 0], [6, 6]])
    return step(state, ["east", N, N], ["west", N, N])


def test_two_step_into_strength_3_both_live() -> None:
    state, events = _two_step_into("3")
    assert state.strength(3, 3) == 1
    assert state.alive[0] and state.alive[3]
    assert hits(events)[-2:] == [("home", 0, (3, 3), 3, 2), ("away", 0, (3, 3), 2, 1)]
    assert state.broken == (3, 3)  # two jumps each plus the two steps


def test_two_step_into_strength_2_first_dies_in_purge() -> None:
    state, events = _two_step_into("2")
    assert state.strength(3, 3) == 0
    assert not state.alive[0] and not state.alive[3]
    assert deaths(events) == [("away", 0, (3, 3), BROKE_TILE), ("home", 0, (3, 3), PURGE)]
    assert state.broken == (3, 3)  # both hits counted


def test_two_step_into_strength_1_second_falls_into_the_hole() -> None:
    state, events = _two_step_into("1")
    assert deaths(events) == [("home", 0, (3, 3), BROKE_TILE), ("away", 0, (3, 3), BROKEN_TILE)]
    assert state.broken == (3, 2)  # only the breaking hit counts for the steps


def _step_while_jump(strength: str):
    """A = A0 steps from (3,4) into T = (3,3) where B = H0 jumps."""
    rows = ["3333333"] * 3 + ["333" + strength + "333"] + ["3333333"] * 3
    state = setup(rows, [[3, 3], [0, 0], [0, 6]], [[3, 4], [6, 0], [6, 6]])
    return step(state, [N, N, N], ["west", N, N])


def test_step_into_a_jumped_tile_of_strength_2() -> None:
    state, events = _step_while_jump("2")
    # B's jump first (2 -> 1), then A's step breaks it: A dies; B dies in the purge.
    assert hits(events)[0] == ("home", 0, (3, 3), 2, 1)
    assert ("away", 0, (3, 3), 1, 0) in hits(events)
    assert deaths(events) == [("away", 0, (3, 3), BROKE_TILE), ("home", 0, (3, 3), PURGE)]


def test_step_into_a_jumped_tile_of_strength_3() -> None:
    state, _ = _step_while_jump("3")
    assert state.strength(3, 3) == 1
    assert state.alive[0] and state.alive[3]


def test_two_jumps_on_one_tile_act_like_two_steps_in_processing_order() -> None:
    rows = ["3333333"] * 3 + ["3332333"] + ["3333333"] * 3
    state = setup(rows, [[3, 3], [0, 0], [0, 6]], [[3, 3], [6, 0], [6, 6]])
    state, events = step(state, [N, N, N], [N, N, N])
    assert hits(events)[0] == ("home", 0, (3, 3), 2, 1)
    assert ("away", 0, (3, 3), 1, 0) in hits(events)
    assert deaths(events) == [("away", 0, (3, 3), BROKE_TILE), ("home", 0, (3, 3), PURGE)]


def test_two_jumps_on_a_tile_of_strength_1_the_second_falls_and_counts_nothing() -> None:
    # As two steps into a tile of strength 1 (§5.3): the first breaks it and dies, the second
    # finds a hole. The tile never goes below 0 and only one hit is counted.
    rows = ["3333333"] * 3 + ["3331333"] + ["3333333"] * 3
    state = setup(rows, [[3, 3], [3, 3], [0, 6]], [[6, 0], [6, 3], [6, 6]])
    state, events = step(state, [N, N, N], [N, N, N])
    assert state.strength(3, 3) == 0
    assert hits(events)[:2] == [("home", 0, (3, 3), 1, 0), ("home", 1, (3, 3), 0, 0)]
    assert deaths(events) == [("home", 0, (3, 3), BROKE_TILE), ("home", 1, (3, 3), BROKEN_TILE)]
    assert state.broken == (2, 3)  # H0's break and H2's jump; the three away jumps
    assert [describe(e) for e in events][:4] == [
        "H0 jumped on (3,3) 1→0", "H0 broke (3,3) and fell", "H1 jumped on the hole at (3,3)",
        "H1 fell into the hole at (3,3)"]


def test_swap_lowers_both_tiles_once_and_nothing_else() -> None:
    state = setup(OPEN7, [[3, 2], [0, 0], [0, 6]], [[3, 3], [6, 0], [6, 6]])
    state, events = step(state, ["east", N, N], ["west", N, N])
    assert state.strength(3, 2) == 2 and state.strength(3, 3) == 2
    assert state.positions[0] == (3, 3) and state.positions[3] == (3, 2)
    assert state.alive[0] and state.alive[3]
    assert deaths(events) == []


def test_leaving_a_tile_while_another_breaks_it_only_the_breaker_dies() -> None:
    rows = ["3333333"] * 3 + ["3313333"] + ["3333333"] * 3
    # H0 leaves T = (3,2) eastwards; A0 steps into T from (3,1) and breaks it.
    state = setup(rows, [[3, 2], [0, 0], [0, 6]], [[3, 1], [6, 0], [6, 6]])
    state, events = step(state, ["east", N, N], ["east", N, N])
    assert deaths(events) == [("away", 0, (3, 2), BROKE_TILE)]
    assert state.alive[0] and state.positions[0] == (3, 3)
    assert state.strength(3, 2) == 0  # only B's hit lowered it: leaving does nothing


def test_three_or_more_on_one_tile_are_allowed() -> None:
    start = [[3, 3], [3, 3], [3, 3]]
    state = setup(OPEN7, start, [[3, 2], [6, 0], [6, 6]])
    state, events = step(state, ["south", "south", "west"], ["east", N, N])
    # H0, H1 to (4,3); H2 to (3,2); A0 to (3,3): the tile is shared, nobody collides.
    assert state.positions[0] == state.positions[1] == (4, 3)
    assert all(state.alive)
    assert state.strength(4, 3) == 1 and state.strength(3, 3) == 2


# ------------------------------------------------------------------------ §5.2 and §14.1


@pytest.mark.parametrize(
    ("start", "move", "dest"),
    [([0, 3], "north", (-1, 3)), ([6, 0], "south", (7, 0)), ([2, 0], "west", (2, -1)),
     ([4, 6], "east", (4, 7))],
)
def test_stepping_off_each_edge_kills_without_a_hit(start, move, dest) -> None:
    state = setup(OPEN7, [start, [0, 0], [0, 6]], [[6, 3], [6, 1], [6, 6]])
    state, events = step(state, [move, N, N], IDLE)
    assert deaths(events) == [("home", 0, dest, OFF_BOARD)]
    assert state.positions[0] == dest and not state.alive[0]
    assert state.broken[0] == 2  # only the two jumps of H1 and H2


def test_stepping_onto_a_broken_tile_kills_without_counting() -> None:
    rows = ["3333333", "3333333", "3033333"] + ["3333333"] * 4
    state = setup(rows, [[1, 1], [0, 0], [0, 6]], AWAY)
    state, events = step(state, ["south", N, N], IDLE)
    assert deaths(events) == [("home", 0, (2, 1), BROKEN_TILE)]
    assert state.broken[0] == 2 and state.strength(2, 1) == 0


def test_jump_on_strength_1_kills_and_counts() -> None:
    rows = ["1333333"] + ["3333333"] * 6
    state = setup(rows, HOME, AWAY)
    state, events = step(state, IDLE, IDLE)
    assert deaths(events) == [("home", 0, (0, 0), BROKE_TILE)]
    assert state.broken == (3, 3)


def test_jumps_resolve_before_steps_whatever_the_team_order() -> None:
    # A0 jumps on (3,3) (strength 2 -> 1) before H0's step breaks it, although home goes first.
    rows = ["3333333"] * 3 + ["3332333"] + ["3333333"] * 3
    state = setup(rows, [[3, 2], [0, 0], [0, 6]], [[3, 3], [6, 0], [6, 6]])
    state, events = step(state, ["east", N, N], [N, N, N])
    first = [h for h in hits(events) if h[2] == (3, 3)]
    assert first == [("away", 0, (3, 3), 2, 1), ("home", 0, (3, 3), 1, 0)]


def test_order_home_0_1_2_then_away_0_1_2_within_a_phase() -> None:
    state = Round(open_map()).initial_state()
    _, events = step(state, ["south"] * 3, ["north"] * 3)
    assert [(h[0], h[1]) for h in hits(events)] == [
        ("home", 0), ("home", 1), ("home", 2), ("away", 0), ("away", 1), ("away", 2)]


def test_a_stepper_is_not_killed_by_a_teammate_breaking_its_start_tile() -> None:
    rows = ["1333333"] + ["3333333"] * 6
    # H0 and H1 on (0,0) of strength 1: H1 jumps and breaks it, H0 steps away in the step phase.
    state = setup(rows, [[0, 0], [0, 0], [0, 6]], AWAY)
    state, events = step(state, ["south", N, N], IDLE)
    assert state.alive[0] and not state.alive[1]
    assert deaths(events) == [("home", 1, (0, 0), BROKE_TILE)]


def test_purge_happens_in_the_same_turn() -> None:
    _, events = _two_step_into("2")
    assert any(isinstance(e, Death) and e.cause == PURGE for e in events)


def test_state_is_immutable_and_untouched_by_step() -> None:
    state = Round(open_map()).initial_state()
    before = (state.strengths, state.positions, state.alive, state.broken, state.turn)
    new, _ = step(state, ["south"] * 3, ["north"] * 3)
    assert (state.strengths, state.positions, state.alive, state.broken, state.turn) == before
    assert new.turn == 2 and new is not state
    with pytest.raises(AttributeError):
        state.turn = 5  # type: ignore[misc]


# ---------------------------------------------------------------------------- round end


def test_elimination_ends_the_round() -> None:
    state = Round(open_map()).initial_state()
    state, events = step(state, ["north"] * 3, IDLE)
    assert state.end == RoundEnd("away", "eliminated", (0, 3), 1)
    assert events[-1] == state.end and state.turn == 1
    with pytest.raises(ValueError):
        step(state, IDLE, IDLE)


def test_drawn_round_goes_to_the_team_that_broke_more() -> None:
    state = setup(OPEN7, HOME, AWAY)
    # Turn 1: home 3 hits; away 2 hits (A2 walks off the board).
    state, _ = step(state, IDLE, [N, N, "east"])
    assert state.broken == (3, 2)
    # Turn 2 and 3: everybody jumps; home breaks its tiles at turn 3, away too.
    state, _ = step(state, IDLE, [N, N, None])
    state, events = step(state, IDLE, [N, N, None])
    assert not any(state.alive)
    assert state.end == RoundEnd("home", "tiebreak", (9, 6), 3)


def test_drawn_round_with_equal_broken_is_a_tie() -> None:
    state = Round(open_map()).initial_state()
    for _ in range(3):
        state, events = step(state, IDLE, IDLE)
    assert state.end == RoundEnd(None, "tie", (9, 9), 3)


def test_the_round_length_bound_is_asserted() -> None:
    state = Round(open_map()).initial_state()._replace(max_turns=1)
    with pytest.raises(AssertionError):
        step(state, ["south"] * 3, ["north"] * 3)
    assert Round(open_map()).initial_state().max_turns == (49 * 3 + 6) // 2 == 76


def test_living_monsters_need_valid_moves_dead_ones_are_ignored() -> None:
    state = Round(open_map()).initial_state()
    with pytest.raises(ValueError):
        step(state, ["up", N, N], IDLE)
    with pytest.raises(ValueError):
        step(state, [N, N], IDLE)
    dead = state_with(open_map(), alive=(False, True, True, True, True, True))
    new, _ = step(dead, [None, N, N], IDLE)
    assert new.strength(0, 0) == 3


def test_describe_names_every_event() -> None:
    assert describe(Hit("home", 0, (1, 0), 3, 2, "step")) == "H0 hit (1,0) 3→2"
    assert describe(Hit("away", 2, (5, 5), 2, 1, "jump")) == "A2 jumped on (5,5) 2→1"
    assert "off the board" in describe(Death("home", 1, (-1, 3), OFF_BOARD))
    assert "hole" in describe(Death("home", 1, (2, 2), BROKEN_TILE))
    assert "tie" in describe(RoundEnd(None, "tie", (4, 4), 3))


def test_drawn_round_tiebreak_can_go_to_away() -> None:
    state = setup(OPEN7, HOME, AWAY)
    state, _ = step(state, [N, N, "west"], IDLE)  # H2 steps west: a hit; nobody leaves
    state, _ = step(state, [N, N, "north"], IDLE)  # H2 walks off the board from (0,5)
    state, _ = step(state, [N, N, None], IDLE)
    assert state.end == RoundEnd("away", "tiebreak", (7, 9), 3)


def test_record_false_gives_the_same_states_and_only_the_round_end() -> None:
    script = [(["south", "none", "east"], ["north", "west", "none"])] * 2 + [(["none"] * 3, ["none"] * 3)] * 3
    full = quiet = Round(open_map()).initial_state()
    for home, away in script:
        if full.end is not None:
            break
        full, events = step(full, home, away)
        quiet, few = step(quiet, home, away, record=False)
        assert full == quiet
        assert few == ([events[-1]] if full.end is not None else [])
    assert full.end is not None
