"""Smash detection (§6.9): collision cases, background smash, the stop fixpoint."""

from __future__ import annotations

import pytest

from studio.engines.tilecode.events import StopPass
from tests.tilecode.build import firings, game, rec, rule, run, scores, sprites_of
from tests.tilecode.test_engine_phases import grid, walls

# s0 steps right on "right"; s1 and s2 move on A in the direction their rule says.
STEP_RIGHT = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]), button="right")


def a_mover(kind: str, direction: str, rule_id: int) -> object:
    return rule(rule_id, "press", rec(2, 2, include=[kind], do=[f"move {direction}"]), button="A")


def smash_score(collide_kinds=("s1", "s2"), dir: str = "any", rule_id: int = 5) -> object:
    """s0 moving right into a collider of these kinds scores 10."""
    return rule(rule_id, "smash", rec(2, 2, include=["s0"], dir="right", do=["game score"]),
                rec(3, 2, include=list(collide_kinds), dir=dir))


@pytest.mark.parametrize("name, sprites, movers, hits", [
    ("(a) into a resting sprite", grid((2, 4, "0"), (3, 4, "1")), [], True),
    ("(a') head-on swap", grid((2, 4, "0"), (3, 4, "2")), [("s2", "left")], True),
    ("(b) converging from above", grid((2, 4, "0"), (3, 3, "2")), [("s2", "down")], True),
    ("(b) converging from below", grid((2, 4, "0"), (3, 5, "2")), [("s2", "up")], True),
    ("(b) converging head-on from beyond", grid((2, 4, "0"), (4, 4, "2")), [("s2", "left")],
     True),
    ("following", grid((2, 4, "0"), (3, 4, "1")), [("s1", "right")], False),
    ("perpendicular exit", grid((2, 4, "0"), (3, 4, "1")), [("s1", "up")], False),
    ("moving elsewhere", grid((2, 4, "0"), (3, 3, "2")), [("s2", "right")], False),
    ("leaving beyond", grid((2, 4, "0"), (4, 4, "2")), [("s2", "right")], False),
])
def test_collision_cases(name, sprites, movers, hits) -> None:
    rules = [STEP_RIGHT, smash_score()]
    rules += [a_mover(kind, d, 10 + i) for i, (kind, d) in enumerate(movers)]
    state, history = run(game(sprites=sprites, rules=rules), [("right", "A")])
    smashes = firings(history[1], "smash")
    assert bool(smashes) == hits, name
    if hits:
        kinds = {s.id: s.kind for s in state.sprites}
        (centre_pos, centre), (collide_pos, other) = smashes[0].witnesses
        assert (centre_pos, kinds[centre], collide_pos) == ((2, 2), 0, (3, 2))
        assert kinds[other] in (1, 2) and smashes[0].centre == centre
        assert state.score == 10


@pytest.mark.parametrize("collide_dir, resting_hit, moving_hit", [
    ("resting", True, False), ("moving", False, True), ("any", True, True),
    ("left", False, True), ("right", False, False),
])
def test_collide_tile_direction_is_honoured(collide_dir, resting_hit, moving_hit) -> None:
    rules = [STEP_RIGHT, smash_score(dir=collide_dir)]
    resting = game(sprites=grid((2, 4, "0"), (3, 4, "2")), rules=rules)
    moving = game(sprites=grid((2, 4, "0"), (3, 4, "2")), rules=[*rules, a_mover("s2", "left", 9)])
    assert (run(resting, [("right", "A")])[0].score == 10) == resting_hit
    assert (run(moving, [("right", "A")])[0].score == 10) == moving_hit


def test_background_smash_pre_empts_sprite_checks() -> None:
    r = rule(5, "smash", rec(2, 2, include=["s0"], dir="right", do=["game score"]),
             rec(3, 2, include=["b1", "s1"]))
    g = game(background=walls((3, 4)), sprites=grid((2, 4, "0"), (3, 4, "1")),
             rules=[STEP_RIGHT, r])
    _, history = run(g, [("right",)])
    smashes = firings(history[1], "smash")
    assert len(smashes) == 1 and smashes[0].witnesses == (((2, 2), 0),)


def test_background_smash_stops_at_a_wall() -> None:
    stop = rule(5, "smash", rec(2, 2, include=["s0"], dir="right", do=["move stop"]),
                rec(3, 2, include=["b1"]))
    g = game(background=walls((3, 4)), sprites=grid((2, 4, "0")), rules=[STEP_RIGHT, stop])
    state, _ = run(g, [("right",)])
    assert sprites_of(state) == [(0, 0, 2, 4, "resting")]


PUSH = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]),
            rec(3, 2, include=["s1"], do=["move right"]), button="right")
WALK = rule(2, "press", rec(2, 2, include=["s0"], do=["move right"]),
            rec(3, 2, exclude=["s1"]), button="right")
BOX_STOPS_AT_WALL = rule(3, "smash", rec(2, 2, include=["s1"], dir="right", do=["move stop"]),
                         rec(3, 2, include=["b1", "s1"], dir="resting"))
PLAYER_STOPS_AT_BOX = rule(4, "smash", rec(2, 2, include=["s0"], dir="right", do=["move stop"]),
                           rec(3, 2, include=["s1"], dir="resting"))
SOKOBAN = [PUSH, WALK, BOX_STOPS_AT_WALL, PLAYER_STOPS_AT_BOX]


def test_fixpoint_player_box_wall() -> None:
    g = game(background=walls((4, 4)), sprites=grid((2, 4, "0"), (3, 4, "1")), rules=SOKOBAN)
    state, history = run(g, [("right",)])
    assert sprites_of(state) == [(0, 0, 2, 4, "resting"), (1, 1, 3, 4, "resting")]
    passes = [e for e in history[1] if isinstance(e, StopPass)]
    assert [(p.index, p.stopped) for p in passes] == [(1, (1,)), (2, (0,)), (3, ())]


def test_push_without_wall_moves_both() -> None:
    g = game(sprites=grid((2, 4, "0"), (3, 4, "1")), rules=SOKOBAN)
    state, _ = run(g, [("right",)])
    assert sprites_of(state) == [(0, 0, 3, 4, "right"), (1, 1, 4, 4, "right")]


def test_fixpoint_chain_of_two_boxes() -> None:
    # boxes push the box on their right too: player -> box -> box -> wall stops in 3 passes
    box_pushes_box = rule(5, "press", rec(2, 2, include=["s1"]),
                          rec(3, 2, include=["s1"], do=["move right"]), button="right")
    g = game(background=walls((5, 4)), sprites=grid((2, 4, "0"), (3, 4, "1"), (4, 4, "1")),
             rules=[*SOKOBAN, box_pushes_box])
    state, history = run(g, [("right",)])
    assert [(s[2], s[4]) for s in sprites_of(state)] == [(2, "resting"), (3, "resting"),
                                                         (4, "resting")]
    passes = [(p.index, p.stopped) for p in history[1] if isinstance(p, StopPass)]
    assert passes == [(1, (2,)), (2, (1,)), (3, (0,)), (4, ())]
    open_ = game(sprites=grid((2, 4, "0"), (3, 4, "1"), (4, 4, "1")),
                 rules=[*SOKOBAN, box_pushes_box])
    assert [s[2] for s in sprites_of(run(open_, [("right",)])[0])] == [3, 4, 5]


def test_a_triple_fires_once_per_round() -> None:
    # s0 and s2 swap head-on; s2 stops in pass 1 and is then a resting sprite on s0's target
    s2_stops = rule(6, "smash", rec(2, 2, include=["s2"], dir="left", do=["move stop"]),
                    rec(1, 2, include=["s0"]))
    g = game(sprites=grid((2, 4, "0"), (3, 4, "2")),
             rules=[STEP_RIGHT, smash_score(), a_mover("s2", "left", 9), s2_stops])
    state, history = run(g, [("right", "A")])
    assert state.score == 10
    assert [p.index for p in history[1] if isinstance(p, StopPass)] == [1, 2]


def test_converging_sprite_stopped_in_pass_one_still_collided() -> None:
    # s2 converges from above and is stopped by its own wall rule; the collision with s0 stays
    s2_wall = rule(6, "smash", rec(2, 2, include=["s2"], dir="down", do=["move stop"]),
                   rec(2, 3, include=["s0"]))
    g = game(sprites=grid((2, 4, "0"), (3, 3, "2")),
             rules=[STEP_RIGHT, smash_score(), a_mover("s2", "down", 9), s2_wall])
    assert run(g, [("right", "A")])[0].score == 10


def test_created_with_move_sprite_collides() -> None:
    fire = rule(1, "press", rec(2, 2, include=["s0"]), rec(3, 2, do=["create s1", "move right"]),
                button="A")
    hit = rule(2, "smash", rec(2, 2, include=["s1"], dir="right", do=["game score"]),
               rec(3, 2, include=["s2"]))
    g = game(sprites=grid((2, 4, "0"), (4, 4, "2")), rules=[fire, hit])
    state, history = run(g, [("A",)])
    assert state.score == 10
    assert firings(history[1], "smash")[0].centre == 2  # the new sprite has the next id


def test_created_resting_sprite_is_a_collider() -> None:
    # an s1 creates an s3 on its right in phase 1; s0 steps right onto that tile
    drop = rule(7, "press", rec(2, 2, include=["s1"]), rec(3, 2, do=["create s3"]), button="A")
    hit = rule(2, "smash", rec(2, 2, include=["s0"], dir="right", do=["game score"]),
               rec(3, 2, include=["s3"]))
    on_target = game(sprites=grid((2, 4, "0"), (2, 2, "1")), rules=[drop, STEP_RIGHT, hit],
                     extra=[(2, 4, 1)])
    elsewhere = game(sprites=grid((2, 4, "0"), (2, 2, "1")), rules=[drop, STEP_RIGHT, hit])
    assert run(on_target, [("right", "A")])[0].score == 10
    assert run(elsewhere, [("right", "A")])[0].score == 0


def test_smash_created_sprite_is_not_a_collider() -> None:
    # s0 bumps s1 and leaves an s3 behind on its own tile; s2 falls onto that tile
    bump = rule(3, "smash", rec(2, 2, include=["s0"], dir="right", do=["create s3"]),
                rec(3, 2, include=["s1"]))
    into_s3 = rule(4, "smash", rec(2, 2, include=["s2"], dir="down", do=["game score"]),
                   rec(2, 3, include=["s3"]))
    g = game(sprites=grid((2, 4, "0"), (3, 4, "1"), (2, 3, "2")),
             rules=[STEP_RIGHT, a_mover("s2", "down", 9), bump, into_s3])
    state, history = run(g, [("right", "A")])
    assert state.score == 0
    assert len(firings(history[1], "smash")) == 1
    assert (3, 3, 2, 4, "resting") in sprites_of(state)  # the s3 joined at commit


def test_blocked_kind_is_no_mover_but_still_an_obstacle() -> None:
    block = rule(1, "press", rec(2, 2, include=["s0"], do=["block s2"]), button="A")
    s2_right = rule(2, "press", rec(2, 2, include=["s2"], do=["move right"]), button="right")
    s2_smash = rule(3, "smash", rec(2, 2, include=["s2"], dir="right", do=["game score"]),
                    rec(3, 2, include=["s1"]))
    g = game(sprites=grid((0, 0, "0"), (2, 4, "2"), (3, 4, "1")),
             rules=[block, s2_right, s2_smash])
    # round 1 blocks s2 for round 2: its press rule does not apply, so it does not move
    assert scores(g, [("A",), ("right",), ("right",)]) == [0, 0, 0, 10]
