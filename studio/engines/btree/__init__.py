"""Behaviour-tree games with tile-rewrite leaves (a re-implementation of trrbt).

Pure: no Textual, no Rich, no terminal, no file reading (includes come through a resolver).
See ../shared/specs/btree.md. The public API of formats, compiler, runtime and solver is
re-exported here.
"""

from studio.engines.btree.board import Board
from studio.engines.btree.compiler import MISSING_LINKS, Compiled, NodeRef, Resolver, compile_game
from studio.engines.btree.engine import Engine, Program
from studio.engines.btree.errors import BtreeError, BtreeWarning
from studio.engines.btree.events import StepEvent
from studio.engines.btree.export import export_json
from studio.engines.btree.reshape import Game, parse_json_game, parse_yaml_game
from studio.engines.btree.snapshot import Snapshot
from studio.engines.btree.trace import run_trace


def __getattr__(name: str):
    # The solver brings numba and numpy (about 0.5 s to import): loaded when first used, not
    # by everything that reads a project, so the studio's first frame does not wait for it.
    if name in ("enumerate_reachable", "solve"):
        from studio.engines.btree import solver

        return getattr(solver, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "MISSING_LINKS",
    "Board",
    "BtreeError",
    "BtreeWarning",
    "Compiled",
    "Engine",
    "Game",
    "NodeRef",
    "Program",
    "Resolver",
    "Snapshot",
    "StepEvent",
    "compile_game",
    "enumerate_reachable",
    "export_json",
    "parse_json_game",
    "parse_yaml_game",
    "run_trace",
    "solve",
]
