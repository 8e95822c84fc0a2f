"""Compiling (or loading) every kernel the solver and the computer seat use, with a tiny game.

``python -m studio.engines.btree.search.warm`` does it in a process of its own, so that the
compile (tens of seconds the first time on a machine, then numba's cache) never holds the GIL of
a process that draws a screen; see :mod:`studio.sessions.warmup`.
"""

from __future__ import annotations


def _tiny_game() -> dict:
    rewrite = {"type": "rewrite", "lhs": {"main": [["P", "_"]]}, "rhs": {"main": [["_", "P"]]}}
    loop = {"type": "loop-until-all", "children": [
        {"type": "player", "pid": "1", "children": [rewrite]},
        {"type": "win", "pid": "1", "children": [{"type": "match-times", "times": 0,
                                                  "pattern": {"main": [["_"]]}}]}]}
    board = {"type": "set-board", "pattern": {"main": [["P", "_", "_"]]}}
    return {"name": "warm-up", "tree": {"type": "order", "children": [board, loop]}}


def _two_choices() -> dict:
    """Two cells to fill in turn: a first move with two choices, so the computer's tree moves
    (``tree_kernel``) run too (a single choice is played without a search)."""
    rewrite = {"type": "rewrite", "lhs": {"main": [["_"]]}, "rhs": {"main": [["X"]]}}
    loop = {"type": "loop-until-all", "children": [
        {"type": "player", "pid": "1", "children": [rewrite]},
        {"type": "draw", "children": [{"type": "match-times", "times": 0,
                                       "pattern": {"main": [["_"]]}}]}]}
    board = {"type": "set-board", "pattern": {"main": [["_", "_"]]}}
    return {"name": "warm-up", "tree": {"type": "order", "children": [board, loop]}}


def warm_up() -> None:
    """Run each strategy once on a tiny game (two threads for the breadth-first one), and the
    computer seat's random playouts and tree moves."""
    # lazily: the solver imports this package
    from studio.engines.btree.runtime.engine import Engine  # noqa: PLC0415
    from studio.engines.btree.search.mcts import Computer  # noqa: PLC0415
    from studio.engines.btree.search.playout import Playouts  # noqa: PLC0415
    from studio.engines.btree.search.solver import solve  # noqa: PLC0415
    from studio.engines.common.splitmix import SplitMix64  # noqa: PLC0415

    for strategy, jobs in (("bfs", 1), ("bfs", 2), ("astar", 1), ("best", 1), ("dfs", 1)):
        solve(Engine(_tiny_game()), strategy=strategy, jobs=jobs)
    Playouts(_tiny_game()).run(Engine(_tiny_game()), SplitMix64(0))
    engine = Engine(_two_choices())
    engine.run_to_choice()
    Computer(_two_choices()).search(engine.snapshot(), seconds=None, playouts=4)


if __name__ == "__main__":
    warm_up()
