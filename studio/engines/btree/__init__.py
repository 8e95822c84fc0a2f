"""Behaviour-tree games with tile-rewrite leaves (a re-implementation of trrbt).

Pure: no Textual, no Rich, no terminal, no file reading (includes come through a resolver).
See ../shared/specs/btree.md. Five sub-packages, each standing on the ones before it:
``model`` (the game as written: node types, reading and writing games, boards), ``compiling``
(authored tree → plain tree, with checks and warnings), ``runtime`` (the engine, its debugger
and traces), ``search`` (the solver, and the computer player's tree search), ``play`` (sessions with seats,
the solver and the computer among them, and the balance report) and,
beside them, ``editing`` (the tree editor's edits of authored trees). The public API of formats,
compiler, runtime and solver is re-exported here, each name loaded when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_WHERE = {
    # name -> the module it comes from: loaded on first use, so that reading one part (the
    # model's node types, say, to check a project file) does not load the compiler, the runtime
    # and YAML, and the solver (numba and numpy, about 0.5 s) loads only for a solve
    "Compiled": "compiling.compiled", "NodeRef": "compiling.compiled",
    "Resolver": "compiling.compiled",
    "MISSING_LINKS": "compiling.compiler", "compile_game": "compiling.compiler",
    "Board": "model.board",
    "BtreeError": "model.errors", "BtreeWarning": "model.errors",
    "export_json": "model.export", "export_yaml": "model.export",
    "Game": "model.reshape", "parse_json_game": "model.reshape", "parse_yaml_game": "model.reshape",
    "Engine": "runtime.engine", "Program": "runtime.engine",
    "StepEvent": "runtime.events",
    "Snapshot": "runtime.snapshot",
    "run_trace": "runtime.trace",
    "enumerate_reachable": "search.solver", "solve": "search.solver",
}

if TYPE_CHECKING:
    from studio.engines.btree.compiling.compiled import Compiled, NodeRef, Resolver
    from studio.engines.btree.compiling.compiler import MISSING_LINKS, compile_game
    from studio.engines.btree.model.board import Board
    from studio.engines.btree.model.errors import BtreeError, BtreeWarning
    from studio.engines.btree.model.export import export_json, export_yaml
    from studio.engines.btree.model.reshape import Game, parse_json_game, parse_yaml_game
    from studio.engines.btree.runtime.engine import Engine, Program
    from studio.engines.btree.runtime.events import StepEvent
    from studio.engines.btree.runtime.snapshot import Snapshot
    from studio.engines.btree.runtime.trace import run_trace
    from studio.engines.btree.search.solver import enumerate_reachable, solve


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value  # found directly next time
    return value


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
    "export_yaml",
    "parse_json_game",
    "parse_yaml_game",
    "run_trace",
    "solve",
]
