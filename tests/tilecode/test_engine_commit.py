"""Do rows and the commit (§6.10, §6.11): create, destroy, paint, portal, block, game, ids."""

from __future__ import annotations

from studio.engines.tilecode.events import Commit, Draw, MoveResolved
from tests.tilecode.build import firings, game, load, rec, rule, run, scores, sprites_of
from tests.tilecode.test_engine_phases import grid, walls

ON_A = dict(button="A")


def test_destroy_and_move_on_one_sprite_removes_it() -> None:
    move = rule(1, "press", rec(2, 2, include=["s1"], do=["move right"]), **ON_A)
    kill = rule(2, "press", rec(2, 2, include=["s1"], do=["destroy"]), **ON_A)
    state, history = run(game(sprites=grid((3, 3, "1"), (0, 0, "0")), rules=[move, kill]),
                         [("A",)])
    assert sprites_of(state) == [(0, 0, 0, 0, "resting")]
    events = history[1]
    assert MoveResolved(1, "right") in events
    commit = events[-1]
    assert commit.destroyed == (1,) and commit.moved == () and (3, 3) in commit.changed


def test_destroyed_sprite_is_still_matched_in_its_round() -> None:
    kill = rule(1, "press", rec(2, 2, include=["s0"]), rec(3, 2, include=["s1"], do=["destroy"]),
                **ON_A)
    see = rule(2, "press", rec(2, 2, include=["s0"], do=["game score"]),
               rec(3, 2, include=["s1"]), **ON_A)
    state, _ = run(game(sprites=grid((3, 3, "0"), (4, 3, "1")), rules=[kill, see]), [("A",)])
    assert state.score == 10 and len(state.sprites) == 1


def test_created_sprites_get_the_next_ids_in_creation_order() -> None:
    spawn = rule(1, "press", rec(2, 2, include=["s0"]), rec(1, 2, do=["create s2"]),
                 rec(3, 2, do=["create s3", "move right"]), **ON_A)
    kill = rule(2, "press", rec(2, 2, include=["s0"], do=["destroy"]), button="down")
    g = game(sprites=grid((3, 3, "0"), (6, 6, "1")), rules=[spawn, kill])
    state, history = run(g, [("A",), ("down",), ("A",)])
    # left row runs before right row: ids 2 (s2 at 2,3) and 3 (s3 moving to 5,3); the
    # destroyed player's id 0 is never reused
    assert sprites_of(state) == [(1, 1, 6, 6, "resting"), (2, 2, 2, 3, "resting"),
                                 (3, 3, 5, 3, "resting")]
    first = firings(history[1])[0]
    assert [(i.command.text, i.created) for i in first.commands] == [
        ("create s2", 2), ("create s3", 3), ("move right", None)]
    assert first.commands[2].target == 3


def test_move_after_create_goes_to_the_new_sprite_only_right_after() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["create s1", "paint b2"]), **ON_A)
    state, _ = run(game(sprites=grid((3, 3, "0")), rules=[r]), [("A",)])
    assert sprites_of(state) == [(0, 0, 3, 3, "resting"), (1, 1, 3, 3, "resting")]
    assert state.background[3][3] == 2


def test_several_creates_stack_on_one_tile() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"]), rec(3, 2, do=["create s1"]), **ON_A)
    r2 = rule(2, "press", rec(2, 2, include=["s0"]), rec(3, 2, do=["create s1"]), **ON_A)
    state, _ = run(game(sprites=grid((3, 3, "0")), rules=[r, r2]), [("A",)])
    assert [s[2:4] for s in sprites_of(state)] == [(3, 3), (4, 3), (4, 3)]


def test_create_off_the_map_is_skipped() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"]), rec(3, 2, do=["create s1"]), **ON_A)
    state, _ = run(game(sprites=grid((7, 3, "0")), rules=[r]), [("A",)])
    assert len(state.sprites) == 1 and state.next_id == 1


def test_off_map_move_is_cancelled_and_the_sprite_rests() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["move right"]), button="right")
    state, history = run(game(sprites=grid((6, 3, "0")), rules=[r]), [("right",), ("right",)])
    assert sprites_of(state) == [(0, 0, 7, 3, "resting")]
    assert MoveResolved(0, "right", cancelled=True) in history[2]
    assert (7, 3) in history[2][-1].changed  # came to rest


def test_paint_conflicts_choose_one_and_draw() -> None:
    rules = [rule(i, "press", rec(2, 2, include=["s0"], do=[f"paint b{i}"]), **ON_A)
             for i in (1, 2, 3)]
    state, history = run(game(sprites=grid((3, 3, "0")), rules=rules), [("A",)], seed=5)
    draws = [e for e in history[1] if isinstance(e, Draw)]
    assert [(d.site, d.candidates) for d in draws] == [("paint", (1, 2, 3))]
    assert state.background[3][3] == draws[0].candidates[draws[0].choice]


def test_paints_resolve_in_row_major_order() -> None:
    # s0 (id 0) paints below itself at (2,2); s1 (id 1) paints above itself at (5,0): the
    # draws follow the tiles in row-major order, not the firing order
    rules = [rule(1, "press", rec(2, 2, include=["s0"]), rec(2, 3, do=["paint b1"]), **ON_A),
             rule(2, "press", rec(2, 2, include=["s0"]), rec(2, 3, do=["paint b2"]), **ON_A),
             rule(3, "press", rec(2, 2, include=["s1"]), rec(2, 1, do=["paint b2"]), **ON_A),
             rule(4, "press", rec(2, 2, include=["s1"]), rec(2, 1, do=["paint b3"]), **ON_A)]
    state, history = run(game(sprites=grid((2, 1, "0"), (5, 1, "1")), rules=rules), [("A",)])
    draws = [e for e in history[1] if isinstance(e, Draw)]
    assert [d.candidates for d in draws] == [(2, 3), (1, 2)]
    assert [p[:2] for p in history[1][-1].paints] == [(5, 0), (2, 2)]


# ---------------------------------------------------------------------------- portal

def portal_rule(kind: str = "b3", then=("create s1",), rule_id: int = 1, extra=()):
    return rule(rule_id, "press", rec(2, 2, include=["s0"], do=[f"portal {kind}", *then]),
                *extra, **ON_A)


def test_portal_and_create_twice_never_pick_the_same_tile() -> None:
    goals = walls((1, 6), (6, 6), kind="3")
    for seed in range(40):
        g = game(background=goals, sprites=grid((1, 1, "0"), (5, 1, "0")), rules=[portal_rule()])
        state, _ = run(g, [("A",)], seed=seed)
        assert sorted(s[2:4] for s in sprites_of(state) if s[1] == 1) == [(1, 6), (6, 6)]


def test_portal_skips_tiles_with_round_start_sprites() -> None:
    goals = walls((1, 6), (6, 6), kind="3")
    for seed in range(20):
        g = game(background=goals, sprites=grid((1, 1, "0"), (6, 6, "2")),
                 rules=[portal_rule()])
        state, _ = run(g, [("A",)], seed=seed)
        assert [s[2:4] for s in sprites_of(state) if s[1] == 1] == [(1, 6)]


def test_portal_abort_skips_the_rest_of_the_row_only() -> None:
    goals = walls((1, 6), kind="3")
    r = portal_rule(then=("create s1", "game score"),
                    extra=[rec(3, 2, do=["game score"])])
    g = game(background=goals, sprites=grid((1, 1, "0"), (5, 1, "0")), rules=[r])
    state, history = run(g, [("A",)])
    # first firing: portal to (1,6), create, score; second: no free tile -> row skipped, but
    # the right row still scores for both
    assert state.score == 30
    assert [s[2:4] for s in sprites_of(state) if s[1] == 1] == [(1, 6)]
    second = firings(history[1])[1]
    assert second.commands[0].target is None and len(second.commands) == 2


def test_portal_followed_by_paint_does_not_reserve() -> None:
    goals = walls((1, 6), kind="3")
    r = portal_rule(then=("paint b2",))
    g = game(background=goals, sprites=grid((1, 1, "0"), (5, 1, "0")), rules=[r])
    state, history = run(g, [("A",)])
    assert [i.commands[0].target for i in firings(history[1])] == [(1, 6), (1, 6)]
    assert state.background[6][1] == 2


def test_portal_reads_round_start_backgrounds() -> None:
    # an earlier paint of the same round does not make a tile eligible
    paint = rule(1, "press", rec(2, 2, include=["s1"], do=["paint b3"]), **ON_A)
    g = game(background=walls((6, 6), kind="3"), sprites=grid((1, 1, "0"), (3, 3, "1")),
             rules=[paint, portal_rule(then=("create s2",), rule_id=2)])
    for seed in range(10):
        state, _ = run(g, [("A",)], seed=seed)
        assert [s[2:4] for s in sprites_of(state) if s[1] == 2] == [(6, 6)]


# ---------------------------------------------------------------------------- block, game

def test_block_is_effective_next_round_only() -> None:
    walk = rule(1, "change", rec(2, 2, include=["s1"], do=["move right"]))
    block = rule(2, "press", rec(2, 2, include=["s0"], do=["block s1"]), **ON_A)
    g = game(background=["0" * 16] * 8, sprites=[r + "........" for r in grid((0, 7, "0"),
                                                                               (0, 2, "1"))],
             rules=[walk, block])
    tg = load(g)
    state, _ = tg.step(tg.initial_state(0), ())
    xs = [state.sprites[0].x]
    for buttons in [("A",), (), (), ()]:
        state, _ = tg.step(state, buttons)
        xs.append(state.sprites[0].x)
    # round 1 still moves (block requested this round), round 2 blocked (rests), round 3
    # the came-to-rest mark wakes it again
    assert xs == [1, 2, 2, 3, 4]
    assert run(g, [("A",), (), (), ()])[0].blocked == frozenset()


def test_blocked_sprites_still_move_as_witnesses() -> None:
    block = rule(2, "press", rec(2, 2, include=["s0"], do=["block s1"]), **ON_A)
    push = rule(3, "press", rec(2, 2, include=["s0"]), rec(3, 2, include=["s1"],
                do=["move right"]), button="right")
    g = game(sprites=grid((2, 2, "0"), (3, 2, "1")), rules=[block, push])
    state, _ = run(g, [("A",), ("right",)])
    assert sprites_of(state)[1][2] == 4


def test_score_adds_ten_per_command_and_high_score_follows() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["game score"]), **ON_A)
    r2 = rule(2, "press", rec(2, 2, include=["s0"], do=["game score"]), **ON_A)
    g = game(sprites=grid((1, 1, "0")), rules=[r, r2])
    assert scores(g, [("A",), ("A",)]) == [0, 20, 40]
    assert run(g, [("A",)])[0].high_score == 20


def test_commit_summary() -> None:
    r = rule(1, "press", rec(2, 2, include=["s0"], do=["move down", "paint b2"]), **ON_A)
    _, history = run(game(sprites=grid((1, 1, "0")), rules=[r]), [("A",)])
    commit = history[1][-1]
    assert isinstance(commit, Commit)
    assert commit.moved == ((0, 1, 1, "down"),)
    assert commit.paints == ((1, 1, 2),)
    assert commit.changed == ((1, 1), (1, 2))
