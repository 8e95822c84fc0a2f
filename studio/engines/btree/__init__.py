"""Behaviour-tree games with tile-rewrite leaves (a re-implementation of trrbt).

Pure: no Textual, no Rich, no terminal, no file reading (includes come through a resolver).
See ../shared/specs/btree.md. Five sub-packages, each standing on the ones before it:
``model`` (the game as written: node types, reading and writing games, boards), ``compiling``
(authored tree → plain tree, with checks and warnings), ``runtime`` (the engine, its debugger
and traces), ``search`` (the solver), ``play`` (sessions with seats, the solver among them) and,
beside them, ``editing`` (the tree editor's edits of authored trees). The public API of formats,
compiler, runtime and solver is re-exported here.
"""

from studio.engines.btree.compiling.compiled import Compiled, NodeRef, Resolver
from studio.engines.btree.compiling.compiler import MISSING_LINKS, compile_game
from studio.engines.btree.model.board import Board
from studio.engines.btree.model.errors import BtreeError, BtreeWarning
from studio.engines.btree.model.export import export_json
from studio.engines.btree.model.reshape import Game, parse_json_game, parse_yaml_game
from studio.engines.btree.runtime.engine import Engine, Program
from studio.engines.btree.runtime.events import StepEvent
from studio.engines.btree.runtime.snapshot import Snapshot
from studio.engines.btree.runtime.trace import run_trace


def __getattr__(name: str):
    # The solver brings numba and numpy (about 0.5 s to import): loaded when first used, not
    # by everything that reads a project, so the studio's first frame does not wait for it.
    if name in ("enumerate_reachable", "solve"):
        from studio.engines.btree.search import solver

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
