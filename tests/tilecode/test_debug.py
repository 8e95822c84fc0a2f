"""The play debugger: one sprite, one round — firings, logs, resolution, outcome, wording."""

from __future__ import annotations

import pytest

from studio.engines.tilecode.debug import describe, sprite_report, sprites_at
from studio.engines.tilecode.model import ArtKind
from studio.engines.tilecode.session import PlaySession

from .build import game, rec, rule

# Round 1 (buttons right + A) on this map does everything the panel must explain:
#   #0 player at (1,1) pushes #1 box into the wall at (3,1): the box stops in pass 1, the player
#      (following it) in pass 2;
#   #2 apple at (6,1): nothing touches it;
#   #3 player at (1,3) walks into #4 apple at (2,3): the apple is destroyed, +10;
#   #5 ghost at (5,5): two press rules log up and down (a draw), a third creates #6 apple on
#      its left with a move left.
BACKGROUND = ["00000000", "00010000"] + ["00000000"] * 6
SPRITES = ["........", ".01...2.", "........", ".02.....", "........", ".....3..",
           "........", "........"]
RULES = [
    rule(0, "press", rec(2, 2, include=["s0"], do=["move right"]), rec(3, 2, exclude=["b1"]),
         button="right", transforms="rotate-3-way"),
    rule(1, "press", rec(2, 2, include=["s0"]), rec(3, 2, include=["s1"], do=["move right"]),
         button="right", transforms="rotate-3-way"),
    rule(3, "press", rec(2, 2, include=["s3"], do=["move up"]), button="A"),
    rule(4, "press", rec(2, 2, include=["s3"], do=["move down"]), button="A"),
    rule(5, "press", rec(2, 2, include=["s3"]), rec(1, 2, do=["create s2", "move left"]),
         button="A"),
    rule(6, "smash", rec(2, 2, include=["s0"], dir="right"),
         rec(3, 2, include=["s2"], do=["destroy", "game score"])),
    rule(7, "smash", rec(2, 2, include=["s0"], dir="right", do=["move stop"]),
         rec(3, 2, include=["s1"])),
    rule(8, "smash", rec(2, 2, include=["s1"], dir="right", do=["move stop"]),
         rec(3, 2, include=["b1"])),
]


def named(g):
    names = ("player", "box", "apple", "ghost")
    return type(g)(**{**g.__dict__, "sprites": tuple(ArtKind(n) for n in names),
                      "backgrounds": tuple(ArtKind(n) for n in ("floor", "wall", "b2", "b3"))})


@pytest.fixture(params=[0, 1, 2, 3])
def played(request):
    g = named(game(BACKGROUND, SPRITES, RULES))
    session = PlaySession(g, request.param)
    session.press("right")
    session.press("A")
    events = session.step()
    return g, session, events


def report(played, sprite_id):
    _, session, events = played
    return sprite_report(events, sprite_id, session.previous, session.state)


def test_press_centre_and_smash_stop_in_pass_2(played) -> None:
    r = report(played, 0)
    assert (r.round, r.kind, r.dir) == (1, 0, "resting")
    assert [(f.phase, f.rule, f.view, f.roles) for f in r.firings] == [
        ("press", 0, "none", ("centre",)), ("press", 1, "none", ("centre",)),
        ("smash", 7, "none", ("centre",))]
    assert r.firings[2].smash_pass == 2
    assert [e.command.text for e in r.log] == ["move right", "move stop"]
    res = r.resolution
    assert (res.moves, res.chosen, res.draw, res.stop_pass, res.stopped_by, res.kept) == (
        ("right",), "right", None, 2, (7,), "stopped")
    assert (r.outcome.kind, r.outcome.start, r.outcome.end) == ("rested", (1, 1), (1, 1))
    assert describe(r, played[0]) == [
        "#0 player at (1,1), resting",
        "rule 0 (press right) fired with it as centre: move right",
        "rule 1 (press right) fired with it as centre: move right #1",
        "rule 7 (smash, pass 2) fired with it as centre: stop",
        "move logged: right → kept right",
        "stopped by rule 7 in pass 2",
        "rested at (1,1)",
    ]


def test_witness_stopped_in_pass_1(played) -> None:
    r = report(played, 1)
    assert [(f.rule, f.roles) for f in r.firings] == [(1, ("witness",)), (8, ("centre",)),
                                                       (7, ("collider",))]
    assert r.resolution.stop_pass == 1 and r.resolution.stopped_by == (8,)
    lines = describe(r, played[0])
    assert lines[0] == "#1 box at (2,1), resting"
    assert "rule 1 (press right) fired with it as witness: move right" in lines
    assert "rule 7 (smash, pass 2) fired with it as collider: stop #0" in lines
    assert lines[-2:] == ["stopped by rule 8 in pass 1", "rested at (2,1)"]


def test_a_sprite_nothing_touched(played) -> None:
    r = report(played, 2)
    assert not r.involved and r.firings == () and r.log == ()
    assert r.resolution.kept == "rested" and r.outcome.kind == "rested"
    assert describe(r, played[0]) == ["#2 apple at (6,1), resting",
                                      "nothing involved it this round", "rested at (6,1)"]


def test_walker_and_the_apple_it_destroys(played) -> None:
    walker = report(played, 3)
    assert (walker.outcome.kind, walker.outcome.direction, walker.outcome.end) == (
        "moved", "right", (2, 3))
    assert describe(walker, played[0])[-1] == "moved right from (1,3) to (2,3)"
    assert "rule 6 (smash) fired with it as centre: destroy #4, +10" in describe(walker,
                                                                             played[0])
    apple = report(played, 4)
    assert [(f.rule, f.roles) for f in apple.firings] == [(6, ("collider",))]
    assert apple.resolution.destroyed_by == (6,) and apple.resolution.kept == "destroyed"
    assert (apple.outcome.kind, apple.outcome.start, apple.outcome.end) == (
        "destroyed", (2, 3), None)
    assert describe(apple, played[0]) == [
        "#4 apple at (2,3), resting",
        "rule 6 (smash) fired with it as collider: destroy, +10",
        "destroyed at (2,3) by rule 6",
    ]


def test_move_conflict_resolved_by_a_draw(played) -> None:
    r = report(played, 5)
    res = r.resolution
    assert res.moves == ("up", "down") and res.draw is not None and res.draw[1] == 2
    assert res.chosen == res.moves[res.draw[0]] and res.kept == "moved"
    assert r.outcome.direction == res.chosen
    lines = describe(r, played[0])
    assert f"moves logged: up, down → drew {res.chosen} ({res.draw[0] + 1} of 2)" in lines
    assert "rule 5 (press A) fired with it as centre: create apple, move left #6" in lines


def test_the_draw_goes_both_ways_over_seeds() -> None:
    g = named(game(BACKGROUND, SPRITES, RULES))
    chosen = set()
    for seed in range(12):
        session = PlaySession(g, seed)
        session.press("A")
        chosen.add(sprite_report(session.step(), 5, session.previous,
                                 session.state).resolution.chosen)
    assert chosen == {"up", "down"}


def test_a_sprite_created_this_round(played) -> None:
    r = report(played, 6)
    assert r.kind == 2 and r.dir is None
    assert (r.resolution.created_by, r.resolution.created_phase) == (5, "press")
    assert [(f.rule, f.roles) for f in r.firings] == [(5, ("created",))]
    assert (r.outcome.kind, r.outcome.start, r.outcome.end) == ("created", (4, 5), (3, 5))
    assert describe(r, played[0]) == [
        "#6 apple, new this round",
        "rule 5 (press A) created it: create apple, move left",
        "move logged: left → kept left",
        "created at (4,5), moved left to (3,5)",
    ]


def test_views_are_named_and_unknown_sprites_said_plainly(played) -> None:
    g, session, _ = played
    session.press("up")
    events = session.step()
    r = sprite_report(events, 3, session.previous, session.state)
    lines = describe(r, g)
    assert "rule 0 (press right, view rotate-left) fired with it as centre: move up" in lines
    assert lines[-1] == "moved up from (2,3) to (2,2)"
    nobody = sprite_report(events, 99, session.previous, session.state)
    assert nobody.outcome.kind == "absent"
    assert describe(nobody, g) == ["#99: no such sprite this round"]


def test_without_events_the_outcome_still_comes_from_the_states() -> None:
    g = named(game(BACKGROUND, SPRITES, RULES))
    session = PlaySession(g, 0, record=False)
    session.press("right")
    session.step()
    walker = sprite_report([], 3, session.previous, session.state)
    assert walker.outcome.kind == "moved" and walker.outcome.direction == "right"
    apple = sprite_report([], 4, session.previous, session.state)
    assert apple.outcome.kind == "destroyed"


def test_sprites_at_lists_the_topmost_first() -> None:
    g = game(sprites=["........", ".2......"] + ["........"] * 6,
             extra=[(1, 1, 0), (1, 1, 3), (1, 1, 0)])
    state = PlaySession(g, 0).state
    assert [(s.kind, s.id) for s in sprites_at(state, 1, 1)] == [(0, 1), (0, 3), (2, 0), (3, 2)]
    assert sprites_at(state, 0, 0) == []
