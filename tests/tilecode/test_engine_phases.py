"""Never, press and change phases (§6.4–6.7) on tiny 8×8 games.

Kinds used throughout: b0 floor, b1 wall, b2 water, b3 goal; s0 player, s1 box, s2 enemy,
s3 watcher. Every game here also runs on the reference, fast and numpy paths (``run`` asserts
they agree round by round).
"""

from __future__ import annotations

import pytest

from tests.tilecode.build import firings, game, rec, rule, run, scores, sprites_of


def grid(*cells: tuple[int, int, str], size: int = 8) -> list[str]:
    rows = [["."] * size for _ in range(size)]
    for x, y, ch in cells:
        rows[y][x] = ch
    return ["".join(r) for r in rows]


def walls(*cells: tuple[int, int], size: int = 8, kind: str = "1") -> list[str]:
    rows = [["0"] * size for _ in range(size)]
    for x, y in cells:
        rows[y][x] = kind
    return ["".join(r) for r in rows]


PRESS_RIGHT = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]), button="right")
CHANGE_DOWN = rule(2, "change", rec(2, 2, include=["s0"], do=["move down"]))


# ---------------------------------------------------------------------------- press vs change

def test_press_shadows_change() -> None:
    g = game(sprites=grid((2, 2, "0")), rules=[PRESS_RIGHT, CHANGE_DOWN])
    state, history = run(g, [("right",)])
    # round 0: no button, all changed -> change moves down; round 1: press only -> right
    assert [f.phase for f in firings(history[0])] == ["change"]
    assert [f.phase for f in firings(history[1])] == ["press"]
    assert sprites_of(state) == [(0, 0, 3, 3, "right")]


def test_failed_press_view_does_not_shadow_change() -> None:
    blocked_right = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]),
                         rec(3, 2, exclude=["b1"]), button="right")
    g = game(background=walls((3, 3)), sprites=grid((2, 2, "0")),
             rules=[blocked_right, CHANGE_DOWN])
    state, history = run(g, [("right",)])
    assert [f.phase for f in firings(history[1])] == ["change"]
    assert sprites_of(state) == [(0, 0, 2, 4, "down")]


def test_press_only_fires_for_views_whose_button_is_pressed() -> None:
    four_way = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]), button="right",
                    transforms="rotate-3-way")
    g = game(sprites=grid((4, 4, "0")), rules=[four_way])
    state, history = run(g, [("up",), ("left",), ("down",), ()])
    assert sprites_of(state) == [(0, 0, 3, 4, "resting")]
    assert [f.view for h in history for f in firings(h)] == ["rotate-left", "rotate-180",
                                                             "rotate-right"]


def test_two_buttons_in_one_round_give_two_logged_moves() -> None:
    four_way = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]), button="right",
                    transforms="rotate-3-way")
    g = game(sprites=grid((4, 4, "0")), rules=[four_way])
    state, history = run(g, [("up", "right")], seed=3)
    assert len(firings(history[1])) == 2
    assert sprites_of(state)[0][2:4] in [(4, 3), (5, 4)]


# ---------------------------------------------------------------------------- change triggers

WATCHER = rule(9, "change", rec(2, 2, include=["s3"], do=["game score"]))
"""s3 scores 10 every round its 3×3 neighbourhood changed in the previous round."""


def test_change_needs_a_changed_neighbourhood_and_paint_same_kind_is_no_change() -> None:
    paint_own = rule(1, "change", rec(2, 2, include=["s1"], dir="resting", do=["paint b3"]))
    g = game(sprites=grid((4, 4, "1")), rules=[paint_own])
    _, history = run(g, rounds=4)
    # round 0 (all changed) paints b3; round 1 sees that change and paints b3 again (same
    # kind: no mark); from round 2 on nothing changed, so nothing fires
    assert [len(firings(h)) for h in history] == [1, 1, 0, 0]


@pytest.mark.parametrize("name, sprites, extra_rules, inputs, expected", [
    ("move in", grid((4, 4, "3"), (6, 4, "0")),
     [rule(1, "press", rec(2, 2, include=["s0"], do=["move left"]), button="left")],
     [("left",), ()], [10, 10, 20]),
    ("move far away", grid((4, 4, "3"), (7, 7, "0")),
     [rule(1, "press", rec(2, 2, include=["s0"], do=["move left"]), button="left")],
     [("left",), ()], [10, 10, 10]),
    ("create", grid((4, 4, "3"), (6, 4, "0")),
     [rule(1, "press", rec(2, 2, include=["s0"]), rec(1, 2, do=["create s1"]), button="A")],
     [("A",), ()], [10, 10, 20]),
    ("destroy", grid((4, 4, "3"), (5, 5, "1"), (6, 5, "0")),
     [rule(1, "press", rec(2, 2, include=["s0"]), rec(1, 2, include=["s1"], do=["destroy"]),
           button="A")],
     [("A",), ()], [10, 10, 20]),
    ("paint", grid((4, 4, "3"), (6, 4, "0")),
     [rule(1, "press", rec(2, 2, include=["s0"]), rec(1, 2, do=["paint b2"]), button="A")],
     [("A",), ()], [10, 10, 20]),
    ("paint same kind", grid((4, 4, "3"), (6, 4, "0")),
     [rule(1, "press", rec(2, 2, include=["s0"]), rec(1, 2, do=["paint b0"]), button="A")],
     [("A",), ()], [10, 10, 10]),
    ("came to rest", grid((4, 4, "3"), (5, 1, "0")),
     [rule(1, "press", rec(2, 2, include=["s0"], do=["move down"]), button="down")],
     [("down",), ("down",), (), ()], [10, 10, 10, 20, 30]),
    ("stopped while resting (ChangeBug)", grid((4, 4, "3"), (5, 5, "0"), (5, 6, "1")),
     [rule(1, "press", rec(2, 2, include=["s0"], do=["move down"]), button="down"),
      rule(2, "smash", rec(2, 2, include=["s0"], dir="down", do=["move stop"]),
           rec(2, 3, include=["s1"]))],
     [("down",), ()], [10, 10, 20]),
])
def test_change_triggers(name, sprites, extra_rules, inputs, expected) -> None:
    g = game(sprites=sprites, rules=[*extra_rules, WATCHER])
    assert scores(g, inputs) == expected, name


def test_change_centre_direction_is_last_rounds_move() -> None:
    # s2 keeps going right once moving; a resting s2 starts moving down
    keep = rule(1, "change", rec(2, 2, include=["s2"], dir="right", do=["move right"]))
    start = rule(2, "change", rec(2, 2, include=["s2"], dir="resting", do=["move down"]))
    nudge = rule(3, "press", rec(2, 2, include=["s0"]), rec(3, 2, include=["s2"],
                 do=["move right"]), button="right")
    g = game(sprites=grid((1, 1, "0"), (2, 1, "2")), rules=[keep, start, nudge])
    state, _ = run(g, [("right",), (), ()])
    # round 0: s2 rests -> moves down to (2,2); round 1: s2's dir is down: nothing matches, and
    # the press rule no longer sees s2 to the right of s0 -> s2 comes to rest; round 2: resting
    # -> down again; round 3: down -> nothing
    assert sprites_of(state)[1] == (1, 2, 2, 3, "resting")


def test_moving_and_any_centre_predicates() -> None:
    moving = rule(1, "change", rec(2, 2, include=["s1"], dir="moving", do=["game score"]))
    start = rule(2, "press", rec(2, 2, include=["s1"], do=["move right"]), button="right")
    g = game(sprites=grid((2, 2, "1")), rules=[moving, start])
    # round 0: s1 resting (no score); round 1: pressed -> moves; round 2: moving -> score
    assert scores(g, [("right",), ()]) == [0, 0, 10]


# ---------------------------------------------------------------------------- When sections

def test_off_map_record_is_false() -> None:
    score_if_no_wall = rule(1, "press", rec(2, 2, include=["s0"], do=["game score"]),
                            rec(3, 2, exclude=["b1"]), button="A")
    assert scores(game(sprites=grid((7, 3, "0")), rules=[score_if_no_wall]), [("A",)]) == [0, 0]
    assert scores(game(sprites=grid((6, 3, "0")), rules=[score_if_no_wall]), [("A",)]) == [0, 10]


def test_off_map_record_without_attributes_is_true_and_its_paint_is_skipped() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["game score"]),
             rec(3, 2, do=["paint b2"]), button="A")
    state, _ = run(game(sprites=grid((7, 3, "0")), rules=[r]), [("A",)])
    assert state.score == 10
    assert all(k == 0 for row in state.background for k in row)


def test_include2_and_exclude_read_backgrounds_and_sprites() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["game score"]),
             rec(3, 2, include2=["b3", "s1"], exclude=["s2"]), button="A")
    assert scores(game(background=walls((4, 3), kind="3"), sprites=grid((3, 3, "0")),
                       rules=[r]), [("A",)]) == [0, 10]
    assert scores(game(sprites=grid((3, 3, "0"), (4, 3, "1")), rules=[r]), [("A",)]) == [0, 10]
    assert scores(game(sprites=grid((3, 3, "0"), (4, 3, "2")), rules=[r]), [("A",)]) == [0, 0]
    assert scores(game(sprites=grid((3, 3, "0")), rules=[r]), [("A",)]) == [0, 0]


def test_witness_is_the_first_candidate_that_satisfies_the_direction() -> None:
    # (4,4) holds a resting s1 (id 1) and an s2 that moved down into it in round 0 (id 0);
    # the record accepts s1 or s2 "moving": s1 comes first by kind but fails, s2 is chosen
    fall = rule(1, "change", rec(2, 2, include=["s2"], dir="resting", do=["move down"]))
    zap = rule(2, "press", rec(2, 2, include=["s0"]),
               rec(3, 2, include=["s1", "s2"], dir="moving", do=["destroy"]), button="A")
    g = game(sprites=grid((4, 3, "2"), (3, 4, "0"), (4, 4, "1")), rules=[fall, zap])
    state, history = run(g, [("A",)])
    press = firings(history[1], "press")
    assert press[0].witnesses == (((2, 2), 1), ((3, 2), 0))
    assert [s[0] for s in sprites_of(state)] == [1, 2]


def test_witness_order_is_kind_then_id() -> None:
    zap = rule(2, "press", rec(2, 2, include=["s0"]),
               rec(3, 2, include=["s1", "s2"], do=["destroy"]), button="A")
    g = game(sprites=grid((3, 4, "0"), (4, 4, "2")), rules=[zap], extra=[(4, 4, 1), (4, 4, 1)])
    state, history = run(g, [("A",)])
    # ids: 0 player, 1 s2, 2 and 3 the two s1: the first s1 (id 2) is the witness
    assert firings(history[1])[0].witnesses[1] == ((3, 2), 2)
    assert [s[0] for s in sprites_of(state)] == [0, 1, 3]


def test_mixed_include_binds_no_witness() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"]),
             rec(3, 2, include=["b3", "s1"], do=["destroy"]), button="A")
    state, history = run(game(sprites=grid((3, 4, "0"), (4, 4, "1")), rules=[r]), [("A",)])
    assert firings(history[1])[0].witnesses == (((2, 2), 0),)
    assert len(state.sprites) == 2  # destroy had no target


def test_rule_applies_only_to_centre_kinds() -> None:
    r = rule(1, "press", rec(2, 2, include=["s1"], do=["move up"]), button="A")
    state, _ = run(game(sprites=grid((3, 4, "0"), (5, 5, "1")), rules=[r]), [("A",)])
    assert sprites_of(state) == [(0, 0, 3, 4, "resting"), (1, 1, 5, 4, "up")]


# ---------------------------------------------------------------------------- never

def test_never_over_two_kinds() -> None:
    win = rule(1, "never", rec(2, 2, include=["s1", "s2"], do=["game win"]))
    assert run(game(sprites=grid((3, 3, "2")), rules=[win]), rounds=2)[0].status == "play"
    assert run(game(sprites=grid((3, 3, "1")), rules=[win]), rounds=2)[0].status == "play"
    assert run(game(sprites=grid((3, 3, "0")), rules=[win]))[0].status == "won"


def test_never_with_a_condition_sokoban_goal() -> None:
    # win when no box stands off a goal
    win = rule(1, "never", rec(2, 2, include=["s1"], exclude=["b3"], do=["game win"]))
    on_goal = game(background=walls((2, 2), (5, 5), kind="3"),
                   sprites=grid((2, 2, "1"), (5, 5, "1")), rules=[win])
    off_goal = game(background=walls((2, 2), kind="3"),
                    sprites=grid((2, 2, "1"), (5, 5, "1")), rules=[win])
    assert run(on_goal)[0].status == "won"
    assert run(off_goal, rounds=3)[0].status == "play"


def test_never_with_empty_domain_fires_every_round() -> None:
    tick = rule(1, "never", rec(2, 2, include=["s2"], do=["game score"]))
    assert scores(game(sprites=grid((1, 1, "0")), rules=[tick]), rounds=3) == [10, 20, 30]


def test_direction_free_never_fires_once_after_dedup() -> None:
    tick = rule(1, "never", rec(2, 2, include=["s0"], do=["game score"]),
                transforms="rotate-3-way")
    assert scores(game(rules=[tick]), rounds=2) == [10, 20]


def test_disabled_never_rule_is_skipped() -> None:
    off = rule(1, "never", rec(2, 2, include=["b1"], do=["game win"]), enabled=False)
    assert run(game(rules=[off]), rounds=2)[0].status == "play"


def test_win_and_lose_in_one_round_is_lost() -> None:
    win = rule(1, "never", rec(2, 2, include=["s2"], do=["game win"]))
    lose = rule(2, "never", rec(2, 2, include=["s3"], do=["game lose"]))
    state, history = run(game(rules=[win, lose]))
    assert state.status == "lost" and state.round == 1
    assert history[-1][-1].status == "lost"


def test_firing_events_name_phase_rule_view_centre_and_commands() -> None:
    win = rule(3, "never", rec(2, 2, include=["s2"], do=["game score", "block s1"]))
    step = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]), button="right",
                transforms="rotate-3-way")
    _, history = run(game(sprites=grid((3, 3, "0")), rules=[win, step]), [("up",)])
    never, press = firings(history[1])
    assert (never.phase, never.rule, never.view, never.centre, never.witnesses) == (
        "never", 3, "none", None, ())
    assert [(i.command.text, i.target) for i in never.commands] == [("game score", None),
                                                                    ("block s1", None)]
    assert (press.phase, press.rule, press.view, press.centre) == ("press", 1, "rotate-left", 0)
    assert [(i.row, i.command.text, i.target) for i in press.commands] == [
        ((2, 2), "move up", 0)]
