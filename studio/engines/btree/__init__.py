"""Behaviour-tree games with tile-rewrite leaves (a re-implementation of trrbt).

Pure: no Textual, no Rich, no terminal, no file reading (includes come through a resolver).
See ../shared/specs/btree.md. The formats and transform compiler are re-exported here; the
runtime (stepper, matcher, RNG) lives in its own modules.
"""

from studio.engines.btree.compiler import MISSING_LINKS, Compiled, NodeRef, Resolver, compile_game
from studio.engines.btree.errors import BtreeError, BtreeWarning
from studio.engines.btree.export import export_json
from studio.engines.btree.reshape import Game, parse_json_game, parse_yaml_game

__all__ = [
    "MISSING_LINKS",
    "BtreeError",
    "BtreeWarning",
    "Compiled",
    "Game",
    "NodeRef",
    "Resolver",
    "compile_game",
    "export_json",
    "parse_json_game",
    "parse_yaml_game",
]
