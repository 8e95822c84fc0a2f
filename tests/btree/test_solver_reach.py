"""The ``reach`` heuristic: the piece that must leave, its way out read from the rules.

A small Block Dude: the player (``P``, ``Q`` once the game starts) must fetch a block and set it
by a wall two high to climb to the door; gravity is a loop of rewrites no player offers.
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines import jit
from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.search.collapse import C_ON
from studio.engines.btree.search.heuristics import HeuristicError
from studio.engines.btree.search.kernels import known
from studio.engines.btree.search.layout import Layout
from studio.engines.btree.search.packed import PackedRun
from studio.engines.btree.search.plain import heuristic_value
from studio.engines.btree.search.quiet import settled_on
from studio.engines.btree.search.reach import FETCH, HELD, PENALTY, SCRATCH, UP, _haul, reach_on
from studio.engines.btree.search.reach_rules import piece, tables_for
from studio.engines.btree.search.tables import H_REACH
from studio.engines.btree.search.solver import solve
from tests.btree.test_solver_kernel import _program, _replays_to_a_win
from tests.btree.trees import node, pat, rewrite, set_board

BOARD = ("_ _ _ _ _ _ _;"
         "_ _ _ _ _ W D;"
         "P _ B _ _ W W;"
         "W W W W W W W")


def _climb(board: str = BOARD) -> dict:
    moves = node(
        "player",
        rewrite("Q _", "_ Q", button="right"), rewrite("_ Q", "Q _", button="left"),
        rewrite("_ _;Q W", "_ Q;_ W", button="up"), rewrite("_ _;Q B", "_ Q;_ B", button="up"),
        rewrite("_ _;Q B", "B _;Q _", button="down"),  # take the block beside onto the head
        rewrite("B _;Q _", "_ B;_ Q", button="right"),  # walk carrying it
        rewrite("B _;Q _", "_ _;Q B", button="down"),  # put it down beside
        pid="1")
    gravity = node("loop-until-all", rewrite("B;_", "_;B"), rewrite("Q;_", "_;Q"), rewrite("Q;D", "_;D"))
    turn = node("all", node("match", pattern=pat("Q")), node("order", moves, gravity))
    return {"name": "climb", "tree": node(
        "order", set_board(board), rewrite("P", "Q"), node("loop-until-all", turn),
        node("win", node("none", node("match", pattern=pat("P"))), pid="1"))}


def _start(game: dict) -> tuple[Engine, Layout]:
    engine = Engine(game)
    engine.run_to_choice()
    return engine, Layout(engine.nodes, engine._board.layers)


def _value(engine: Engine, layout: Layout, tables) -> int:
    frame, codes = layout.encode_layers(engine._board.layers)
    return heuristic_value(engine, [(None, H_REACH)], None, layout.shapes[0][2], frame, (tables, codes))


def test_the_piece_is_the_win_tile_and_what_it_turns_into_in_place() -> None:
    engine, layout = _start(_climb())
    main = layout.layer_index["main"]
    ground = layout.code["_"]
    assert [layout.tiles[t] for t in piece(layout, engine.nodes, main, ground, layout.code["P"])] == ["P", "Q"]


def _reach(board: str) -> int:
    """The reach value of the climb's start on ``board`` (its own layout and tables)."""
    engine, layout = _start(_climb(board))
    run = PackedRun(Engine(_climb(board)), strategy="best", player=None)
    try:
        return _value(engine, layout, run.tables.kernel)
    finally:
        run.close()


def test_the_value_falls_as_the_block_goes_where_the_climb_needs_it() -> None:
    at = {name: _reach(board) for name, board in {
        "start": BOARD,
        "block by the wall": "_ _ _ _ _ _ _;_ _ _ _ _ W D;P _ _ _ B W W;W W W W W W W",
        "on the block": "_ _ _ _ _ _ _;_ _ _ _ P W D;_ _ _ _ B W W;W W W W W W W",
        "on the wall": "_ _ _ _ _ P _;_ _ _ _ _ W D;_ _ _ _ B W W;W W W W W W W",
        "gone": "_ _ _ _ _ _ _;_ _ _ _ _ W D;_ _ _ _ B W W;W W W W W W W",
    }.items()}
    assert at["start"] > at["block by the wall"] > at["on the block"] > at["on the wall"] > at["gone"] == 0
    assert at["start"] - at["block by the wall"] >= PENALTY  # one missing block less


def test_a_carried_block_leaves_with_the_piece() -> None:
    """Carried on the head, the block does not count as a step where it is now."""
    engine, layout = _start(_climb())
    tables = tables_for(layout, engine.nodes, None)
    assert tables is not None
    carried = tables["re_carry"]
    assert carried[0] >= 1 and layout.tiles[carried[2]] == "B"
    assert carried[1] == -layout.shapes[0][2]  # one row up: on the head


def test_best_first_with_reach_solves_it_and_the_paths_agree() -> None:
    lines = {}
    for path in ("kernel", "plain"):
        found = solve(Engine(_climb()), strategy="best", path=path, max_states=200_000)
        assert found.found and _replays_to_a_win(Engine(_climb()), found.choices)
        assert "reach" in found.note
        lines[path] = (found.choices, found.states)
    assert lines["kernel"] == lines["plain"]  # the same values, so the same search


def _settled(board: str) -> int:
    """The quiet hash of the climb's start on ``board`` (its own layout and tables)."""
    engine, layout = _start(_climb(board))
    run = PackedRun(Engine(_climb(board)), strategy="best", player=None)
    try:
        ti, _, to = run.tables.kernel
        return int(settled_on(ti, to, layout.encode_layers(engine._board.layers)[1], 0))
    finally:
        run.close()


def test_a_walk_is_quiet_and_a_block_set_or_taken_is_not() -> None:
    h = {name: _settled(board) for name, board in {
        "start": "_ _ _ _ _ _ _;_ _ _ _ _ W D;P _ B _ _ W W;W W W W W W W",
        "walked": "_ _ _ _ _ _ _;_ _ _ _ _ W D;_ P B _ _ W W;W W W W W W W",
        "carrying": "_ _ _ _ _ _ _;_ B _ _ _ W D;_ P _ _ _ W W;W W W W W W W",
        "carried on": "_ _ _ _ _ _ _;_ _ B _ _ W D;_ _ P _ _ W W;W W W W W W W",
        "put down": "_ _ _ _ _ _ _;_ _ _ _ _ W D;_ _ P B _ W W;W W W W W W W",
    }.items()}
    assert h["start"] == h["walked"]
    assert h["carrying"] == h["carried on"]  # the block goes along: still a walk
    assert len({h["start"], h["carrying"], h["put down"]}) == 3


def test_a_quiet_child_keeps_its_parents_value_and_others_take_their_own() -> None:
    run = PackedRun(Engine(_climb()), strategy="best", player=None)
    try:
        run.advance(10_000)
        s = run.search.store
        ti, _, to = run.tables.kernel
        kept = own = 0
        for i in range(1, run.count):
            frame, codes = run.layout.board(run.search.full_row(i))
            parent = run.layout.board(run.search.full_row(int(s.parent[i])))
            if frame or parent[0]:
                continue
            if settled_on(ti, to, codes, 0) == settled_on(ti, to, parent[1], 0):
                assert s.hval[i] == s.hval[s.parent[i]]
                kept += 1
            else:
                scratch = np.zeros((1 + SCRATCH) * len(codes), np.int32)
                scratch[:len(codes)] = codes
                assert s.hval[i] == reach_on(ti, to, scratch, 0, len(codes))
                own += 1
        assert kept > 0 and own > 0
    finally:
        run.close()


def test_reach_where_it_does_not_apply_is_refused() -> None:
    game = {"name": "walk", "tree": node("order", set_board("P _ _"), node("loop-until-all", node(
        "player", rewrite("P _", "_ P"), pid="1"), node("win", node("match", pattern=pat("_ _ P")), pid="1")))}
    with pytest.raises(HeuristicError, match="reach"):
        solve(Engine(game), strategy="best", heuristic="reach")


def test_block_dude_4_falls_to_best_first_with_reach_and_not_without() -> None:
    """Breadth first needs 7.1 M states, greedy best-first without a heuristic 3.2 M."""
    program = _program("games_yaml__blockdude_levels__blockdude_4")
    if not jit.available():
        pytest.skip("numba is not available: the plain path is too slow for whole levels")
    found = solve(Engine(program), strategy="best", max_states=300_000)
    assert found.found and _replays_to_a_win(Engine(program), found.choices)
    assert "reach" in found.note
    blind = solve(Engine(program), strategy="best", heuristic="zero", max_states=300_000)
    assert not blind.found and blind.reason == "limit"


PIT = ("_ _ _ _ _ _ _ _;"
       "_ _ _ _ _ _ _ _;"
       "_ _ _ _ _ _ _ _;"
       "P _ _ _ _ _ _ _;"
       "W W {} W W D W _;"
       "W W {} W W W W _;"
       "W W {} W W W W _;"
       "W W W W W W W W")


def test_blocks_sink_one_row_down_when_let_go() -> None:
    engine, layout = _start(_climb())
    tables = tables_for(layout, engine.nodes, None)
    assert tables is not None
    assert tables["re_carry"][-1] == layout.shapes[0][2]  # gravity: one row (cols cells) on


def test_a_pit_fills_from_its_bottom_block_by_block() -> None:
    """Crossing a pit three deep takes blocks to fill it: the first falls to the bottom. So the
    value falls with each block dropped in, the first included."""
    at = {n: _reach(PIT.format(*("_" * (3 - n) + "B" * n))) for n in range(4)}
    assert at[0] - at[1] >= PENALTY  # a block at the bottom is one fewer to bring
    assert at[1] - at[2] >= PENALTY // 2
    assert at[2] == at[3] < PENALTY  # one deep: the piece climbs out


def test_a_carried_block_fills_a_missing_step_for_little() -> None:
    """Carried beside the step it must become, the block costs a drop where it is wanted, not a
    block missing (standing on it is still counted: see ``reach``)."""
    carrying = _reach("_ _ _ _ _ _ _;_ _ _ _ B W D;_ _ _ _ P W W;W W W W W W W")
    assert carrying <= PENALTY + HELD + 6  # without the discount: two penalties
    assert _reach(BOARD) - carrying >= PENALTY  # than with the block still to fetch


def test_a_missing_step_costs_how_far_its_block_must_be_brought() -> None:
    """The block the climb lacks is matched to the nearest one on the board: one cell short of
    the step it must become, it costs ``FETCH`` for that cell on top of the step's penalties
    (the single nearest-block fetch this replaced priced the two alike but for a penalty)."""
    board = "_ _ _ _ _ _ _ _ _;_ _ _ _ _ _ _ W D;P _ _ _ _ {} W W;W W W W W W W W W"
    in_place, one_short = _reach(board.format("_ B")), _reach(board.format("B _"))
    assert one_short - in_place >= 2 * PENALTY + FETCH


@pytest.mark.parametrize("haul", [_haul, _haul.py_func], ids=["kernel", "plain"])
def test_a_block_below_its_step_is_dearer_to_bring_than_one_as_far_beside_or_above(haul) -> None:
    """Blocks fall: one drops to a lower step by itself, but rises only as the piece climbs
    with it. Cells are ``row * 10 + column`` on a board 10 wide."""
    down = 10  # they fall a row at a time
    step = 53
    assert haul(73, step, 10, down) == 2 * UP  # two rows below
    assert haul(51, step, 10, down) == haul(33, step, 10, down) == 2  # beside, above
    assert haul(71, step, 10, down) == 2 + 2 * UP
    assert haul(73, step, 10, 0) == 2  # tiles that do not sink: Manhattan
    assert haul(33, step, 10, -down) == 2 * UP  # they rise: above is dear


@pytest.mark.parametrize("wide", [False, True])
def test_known_finds_the_stored_states_and_no_other(wide: bool) -> None:
    """What the kernel asks before working out a child's value (a stored child keeps its own),
    on plain and on collapsed states (a board wide enough to be stored in chunks)."""
    board = BOARD
    if wide:
        rows = BOARD.split(";")
        board = ";".join(r + (" W" if i == len(rows) - 1 else " _") * 90 for i, r in enumerate(rows))
    run = PackedRun(Engine(_climb(board)), strategy="best", player=None)
    try:
        run.advance(500)
        s = run.search
        assert bool(s.chunks.meta[C_ON]) == wide
        probe = np.zeros((1, s.store.words.shape[1]), np.uint64)
        stored = set()
        for i in range(run.count):
            row = s.full_row(i).reshape(1, -1).copy()
            stored.add(row.tobytes())
            assert known(s.store, s.chunks, row, 0, probe)
        other = s.full_row(run.count - 1).reshape(1, -1).copy()
        other[0, -1] ^= np.uint64(1)
        assert other.tobytes() not in stored
        assert not known(s.store, s.chunks, other, 0, probe)
    finally:
        run.close()
