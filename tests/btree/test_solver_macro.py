"""Macro moves (``solve(..., macro=True)``): a walk is searched whole before the heap gives the
next state, as Sokoban solvers search pushes rather than steps (issue 32).

The game is ``test_solver_reach``'s small Block Dude: its walks are quiet moves (``quiet``).
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.search import kernels as k
from studio.engines.btree.search.layout import header_fields
from studio.engines.btree.search.packed import PackedRun
from studio.engines.btree.search.quiet import settled_on
from studio.engines.btree.search.solver import solve
from tests.btree.test_solver_kernel import _replays_to_a_win
from tests.btree.test_solver_reach import _climb


@pytest.mark.parametrize("strategy,weight", [("best", 1), ("astar", 3)])
def test_macro_moves_solve_the_climb_exactly_and_the_paths_agree(strategy: str, weight: int) -> None:
    lines = {}
    for path in ("kernel", "plain"):
        found = solve(Engine(_climb()), strategy=strategy, weight=weight, path=path, macro=True,
                      max_states=200_000)
        assert found.found and not found.shortest
        assert _replays_to_a_win(Engine(_climb()), found.choices)  # lines are exact
        lines[path] = (found.choices, found.states)
    assert lines["kernel"] == lines["plain"]  # the same quiet flags, so the same search


def _quiet_made(run: PackedRun, ti, to, i: int) -> bool:
    """State ``i`` was made from its parent by a quiet move and did not end the game."""
    s = run.search.store
    row, parent = run.search.full_row(i), run.search.full_row(int(s.parent[i]))
    (frame, codes), (pframe, pcodes) = run.layout.board(row), run.layout.board(parent)
    if frame or pframe or header_fields(row[0])[1] != 0:
        return False
    return int(settled_on(ti, to, codes, 0)) == int(settled_on(ti, to, pcodes, 0))


@pytest.mark.parametrize("macro", [True, False])
def test_a_walk_is_searched_whole_before_the_heap_gives_another_state(macro: bool) -> None:
    run = PackedRun(Engine(_climb()), strategy="best", player=None, macro=macro)
    search = run.search
    ti, _, to = run.tables.kernel
    quiet: dict[int, bool] = {}
    rounds = {"checked": 0, "broken": 0}
    step = search._next

    def checked_next():  # the search takes its next parents: are the walks done?
        s = search.store
        if s.meta[k.M_WALK_END] == 0:
            for i in range(1, run.count):
                if i not in quiet:
                    quiet[i] = _quiet_made(run, ti, to, i)
                # a state a walk made from an expanded state is expanded too
                if quiet[i] and s.closed[s.parent[i]] and not s.closed[i]:
                    rounds["broken"] += 1
            rounds["checked"] += 1
        return step()

    search._next = checked_next
    try:
        assert run.advance(10**6) == "found"
        assert rounds["checked"] > 3
        assert (rounds["broken"] == 0) == macro  # without macro moves, walks wait in the heap
    finally:
        run.close()


def test_quiet_children_go_to_the_walk_queue_and_come_out_first_in_order() -> None:
    """The queue alone: a round's new quiet children, first in first out, before the heap."""
    run = PackedRun(Engine(_climb()), strategy="best", player=None, macro=True)
    search = run.search
    order = np.zeros(64, np.int32)
    seen = 0
    try:
        while True:
            s = search.store
            assert s.meta[k.M_WALK_END] == 0  # every round drains the queue
            n, found = k.next_batch(search.tk, s, k.BEST, 64, order)
            if found >= 0:
                break
            assert n > 0
            search._expand(order, 0, int(n))
            first, heap = run.count, int(s.meta[k.M_HEAP])
            quiet = {}
            for buf, pos in search.pending:
                for o in range(pos, int(buf.meta[0])):
                    quiet[int(buf.parent[o]), int(buf.choice[o])] = bool(buf.quiet[o])
                _, status, _ = k.insert(search.tk, s, search.stacks, search.chunks, buf, pos, 10**6, k.BEST,
                                        1, False, True)
                assert status == k.I_OK  # small: no growth
            search.pending = []
            new = range(first, run.count)
            walks = [i for i in new if quiet[int(s.parent[i]), int(s.choice[i])]]
            others = [i for i in new if i not in walks]
            assert list(s.dfs[:s.meta[k.M_WALK_END]]) == walks
            assert s.meta[k.M_HEAP] == heap + len(others)
            if walks:
                n, found = k.next_batch(search.tk, s, k.BEST, 64, order)
                assert found == -1 and list(order[:n]) == walks[:64]  # the walks alone, in order
                search._expand(order, 0, int(n))
                for buf, pos in search.pending:
                    k.insert(search.tk, s, search.stacks, search.chunks, buf, pos, 10**6, k.BEST, 1, False,
                             True)
                search.pending = []
                while s.meta[k.M_WALK_END]:  # the rest of the walks, as the search would
                    n, _ = k.next_batch(search.tk, s, k.BEST, 64, order)
                    search._expand(order, 0, int(n))
                    for buf, pos in search.pending:
                        k.insert(search.tk, s, search.stacks, search.chunks, buf, pos, 10**6, k.BEST, 1,
                                 False, True)
                    search.pending = []
                seen += bool(others)
        assert seen >= 1  # a round that made both walks and other moves
    finally:
        run.close()
