"""The packed search against its references: the kernel against ``Engine``, lines against replays.

The kernel (numba, or the same code as plain Python without it) must expand every packed state
into exactly the children ``Engine`` gives; lines found by every strategy must replay to a win
through ``Engine``; breadth-first lines must be as short as the reference search's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.commands.btree.formats import load_compiled
from studio.engines import jit
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.search.layout import decode_frames
from studio.engines.btree.search.packed import PackedRun
from studio.engines.btree.search.runner import Restart
from studio.engines.btree.search.solver import solve
from tests.btree.corpus import load_json
from tests.btree.trees import node, pat, set_board

GAMES = Path(__file__).resolve().parents[2] / "games"
CORPUS_GAMES = {  # name: states compared (the engine's side sets the pace)
    "games_yaml__blockdude_levels__blockdude_3": 1500,  # gravity loops, two layers, collapsed
    "games_yaml__sokoban-level1": 1500,  # dead cells
    "games_yaml__checkers": 1500,  # two players, multi-jump loops
    "games_json__connect4-emoji": 1500,  # display waits
    "games_json__trogue": 200,  # randomness that decides: states keyed with the RNG
    "games_yaml__rust-old": 60,  # 3 056 rewrites, tens of thousands of steps a move
    "games_yaml__dungeon_chase": 1000,  # random-try
    "games_json__soko_quest-emoji": 1000,
}


def _program(name: str) -> Program:
    return Program(load_json(f"expanded/{name}.json"))


def _bundled(name: str) -> Engine:
    return Engine(Program(load_compiled(GAMES / f"{name}.toml")))


def _search(program: Program, plain: bool, budget: int) -> PackedRun:
    """A breadth-first run of ``budget`` states, keyed with the RNG when the game needs it."""
    for keyed in (False, True):
        engine = Engine(program)
        engine.seed(5)
        run = PackedRun(engine, strategy="bfs", player=None, goal=False, plain=plain, keyed=keyed,
                        max_states=budget)
        try:
            run.advance(budget)
        except Restart as again:
            assert again.kind == "random" and not keyed
            continue
        finally:
            run.close()
        return run
    raise AssertionError("unreachable")


@pytest.mark.parametrize("name", CORPUS_GAMES)
def test_the_kernel_expands_states_exactly_as_the_engine(name: str) -> None:
    program = _program(name)
    budget = CORPUS_GAMES[name] if jit.available() else 50  # the kernel uncompiled is slow
    kernel = _search(program, plain=False, budget=budget)
    engine = _search(program, plain=True, budget=budget)
    assert kernel.layout.rng_keyed == engine.layout.rng_keyed
    n = kernel.count
    assert n == engine.count and n > 1
    a, b = kernel.search.store, engine.search.store
    assert np.array_equal(a.parent[:n], b.parent[:n]) and np.array_equal(a.choice[:n], b.choice[:n])
    assert np.array_equal(a.words[:n, 1:], b.words[:n, 1:])  # RNG and boards
    ids = (a.words[:n, 0] & 0xFFFFFFFF).astype(int), (b.words[:n, 0] & 0xFFFFFFFF).astype(int)
    assert np.array_equal(a.words[:n, 0] >> 32, b.words[:n, 0] >> 32)  # result, frame, prev

    def stack(run: PackedRun, sid: int) -> list:
        st = run.search.stacks
        return decode_frames(st.data[st.off[sid]:st.off[sid + 1]])

    for i in range(0, n, max(1, n // 200)):
        assert stack(kernel, ids[0][i]) == stack(engine, ids[1][i])


def _replays_to_a_win(engine: Engine, choices: list[int], player: str | None = None) -> bool:
    engine.run_to_choice()
    for index in choices:
        engine.choose(index)
        engine.run_to_choice()
    result = engine.result or {}
    return result.get("result") == "win" and (player is None or str(result.get("player")) == player)


@pytest.mark.parametrize("strategy", ["bfs", "astar", "best", "dfs"])
@pytest.mark.parametrize("game", ["sokoban", "eight-puzzle"])
def test_every_strategy_finds_a_line_that_replays_to_a_win(strategy: str, game: str) -> None:
    found = solve(_bundled(game), max_states=10**6, strategy=strategy)
    assert found.found and found.reason == "found" and found.strategy == strategy
    assert _replays_to_a_win(_bundled(game), found.choices)
    shortest = solve(_bundled(game), path="reference")
    if strategy in ("bfs", "astar"):  # A* with the goal heuristic (admissible here) is shortest too
        assert len(found.choices) == len(shortest.choices)
    else:
        assert len(found.choices) >= len(shortest.choices)


@pytest.mark.parametrize("name", ["games_yaml__sokoban-small", "games_yaml__blockdude_levels__blockdude_1",
                                  "games_json__soko2", "games_yaml__rush_hour-random"])
def test_corpus_lines_replay_and_breadth_first_is_as_short_as_the_reference(name: str) -> None:
    program = _program(name)
    ours = solve(Engine(program), max_states=10**6)
    theirs = solve(Engine(program), max_states=10**6, path="reference")
    assert ours.found and theirs.found and _replays_to_a_win(Engine(program), ours.choices)
    assert len(ours.choices) == len(theirs.choices)
    assert ours.states <= theirs.states  # dead cells and the RNG-free key only ever merge or prune


@pytest.mark.parametrize("game,strategy", [("sokoban", "bfs"), ("sokoban", "astar"),
                                           ("sokoban", "best"), ("peg-solitaire", "dfs"),
                                           ("peg-solitaire", "best")])
def test_jobs_change_nothing_but_the_speed(game: str, strategy: str) -> None:
    runs = [solve(_bundled(game), jobs=jobs, strategy=strategy, max_states=20_000)
            for jobs in (1, 2, 3)]
    assert len({(r.found, tuple(r.choices or ()), r.states, r.depth) for r in runs}) == 1


def _dice_game() -> dict:
    """A hero walks right; after every step a rewrite drops a coin on one of two cells at random."""
    walk = node("player", node("rewrite", lhs=pat("P _"), rhs=pat("_ P"), button="right"), pid="1")
    coin = node("random-try", node("rewrite", lhs=pat("o"), rhs=pat("c")),
                node("rewrite", lhs=pat("o"), rhs=pat("d")))
    win = node("win", node("match", pattern=pat("c c _ P")), pid="1")
    start = set_board("P _ _ _ _ _")
    return {"name": "dice", "tree": node("order", start, node("loop-until-all", walk, node(
        "order", node("rewrite", lhs=pat("_ P"), rhs=pat("o P")), coin), win))}


def test_randomness_that_decides_keys_states_with_the_rng_like_the_reference() -> None:
    game = _dice_game()
    ours, theirs = solve(Engine(game)), solve(Engine(game), path="reference")
    assert "keyed with the RNG" in ours.note
    assert (ours.found, ours.choices, ours.states) == (theirs.found, theirs.choices, theirs.states)


def test_limits_end_with_a_reason() -> None:
    by_time = solve(_bundled("peg-solitaire"), max_states=10**8, max_seconds=0.5)
    assert by_time.reason == "time" and not by_time.found and 0.4 < by_time.elapsed < 5
    by_memory = solve(_bundled("peg-solitaire"), max_states=10**8, max_memory=4 << 20)
    assert by_memory.reason == "memory" and by_memory.memory <= 4 << 20
    by_states = solve(_bundled("peg-solitaire"), max_states=1000)
    assert by_states.reason == "limit" and by_states.states == 1000
    assert "1,000 states explored" in by_states.report() and "state limit" in by_states.report()


def test_states_are_small() -> None:
    for name in ("games_yaml__sokoban-level1", "games_yaml__blockdude_levels__blockdude_8"):
        found = solve(Engine(_program(name)), max_states=20_000)
        assert found.path == "kernel" or not jit.available()
        assert found.bytes_per_state <= 200, name


def test_a_node_the_kernel_leaves_to_the_engine_moves_the_search_to_the_plain_path() -> None:
    """``layer-template`` after every move: the kernel hands over, the engine finishes the job."""
    move = node("player", node("rewrite", lhs=pat("P _"), rhs=pat("_ P")), pid="1")
    mark = node("layer-template", layer="seen", **{"with": "x"})
    win = node("win", node("match", pattern=pat("_ _ P")), pid="1")
    game = {"name": "marks", "tree": node("order", set_board("P _ _"), mark,
                                          node("loop-until-all", move, mark, win))}
    found = solve(Engine(game))
    assert found.found and found.choices == [0, 0]
    assert found.path == "plain" and "layer-template" in found.note


def _push_game(won_when_gone: dict) -> dict:
    """A corridor Sokoban: push the box onto the target (G); pushed to the left end it is stuck."""
    moves = node("player",
                 node("rewrite", lhs=pat("P _"), rhs=pat("_ P"), button="right"),
                 node("rewrite", lhs=pat("_ P"), rhs=pat("P _"), button="left"),
                 node("rewrite", lhs=pat("P B _"), rhs=pat("_ P B"), button="right"),
                 node("rewrite", lhs=pat("_ B P"), rhs=pat("B P _"), button="left"), pid="1")
    start = set_board(main="# _ P B _ _ _ _ #", goal="_ _ _ _ _ _ G _ _")
    return {"name": "push", "tree": node("order", start, node(
        "loop-until-all", moves, node("win", won_when_gone, pid="1")))}


def test_a_win_said_as_none_of_a_match_prunes_and_guides_like_match_times_zero() -> None:
    from studio.engines.btree.search.deadcells import dead_cells
    from studio.engines.btree.search.layout import Layout

    box_off_target = pat(main="B", goal="_")
    games = {"times": _push_game(node("match-times", pattern=box_off_target, times=0)),
             "none": _push_game(node("none", node("match", pattern=box_off_target)))}
    analyses = {}
    for name, game in games.items():
        engine = Engine(game)
        engine.run_to_choice()
        analyses[name] = dead_cells(Layout(engine.nodes, engine._board.layers), engine.nodes, None)
    times, none = analyses["times"], analyses["none"]
    assert none is not None and times is not None
    assert none.dead.tolist() == times.dead.tolist() and none.dead.any()  # the left end
    assert none.distance.tolist() == times.distance.tolist()
    for strategy in ("bfs", "astar"):
        found = solve(Engine(games["none"]), strategy=strategy)
        assert found.found and "dead cells" in found.note
        assert _replays_to_a_win(Engine(games["none"]), found.choices)
        assert len(found.choices) == len(solve(Engine(games["none"]), path="reference").choices)
        assert found.shortest  # A*'s goal distances are admissible here: only pushes move the box
    assert not solve(Engine(games["none"]), strategy="astar", weight=3).shortest
    assert not solve(Engine(games["none"]), strategy="best").shortest


@pytest.mark.parametrize("weight", [1, 3])
def test_weighted_astar_does_not_expand_a_state_twice(weight: int) -> None:
    """A state already expanded, met again by a shorter way: it takes the shorter way (and is
    expanded again) at weight 1, for the line to stay shortest; above 1, where the line is not
    promised shortest, it is left as it is."""
    run = PackedRun(_bundled("sokoban"), strategy="astar", player=None, weight=weight)
    try:
        run.advance(200)
        search = run.search
        s = search.store
        idx = next(i for i in range(run.count) if s.closed[i] and s.depth[i] >= 2)
        before = int(s.depth[idx])
        out = search.buffers[0]  # as if the start state had it as a child
        out.words[0] = search.full_row(idx)
        out.parent[0], out.choice[0], out.h[0], out.stk[0] = 0, 0, s.hval[idx], -1
        out.meta[0] = 1
        search.pending = [[out, 0]]
        search.advance(1)
        assert (s.depth[idx], s.parent[idx]) == ((1, 0) if weight == 1 else (before, s.parent[idx]))
        assert weight == 1 or s.parent[idx] != 0
    finally:
        run.close()
