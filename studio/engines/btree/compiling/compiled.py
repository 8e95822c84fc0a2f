"""A compiled game and the references back to its authored nodes (spec §5).

Apart from the compiler, so that what reads a compiled game (the load-time diagnostics, the
editor's highlights) does not import the compiler that makes one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from studio.engines.btree.model.errors import BtreeWarning
from studio.engines.btree.model.reshape import Game
from studio.engines.btree.model.schema import Node

NodeRef = tuple[str, str]
"""An authored node: (file key, path from that file's root). The top-level game's key is ``""``."""

Resolver = Callable[[str, str], "tuple[str, Node] | None"]
"""``resolver(file_field, including_file_key)`` → ``(file_key, reshaped tree)``, or None if absent.

It may raise :class:`BtreeError` for a file that exists but cannot be read.
"""


@dataclass
class Compiled:
    """A compiled game: the plain tree plus the map back to authored nodes."""

    name: str
    tree: Node
    """``{"type": ..., "children": [...]}`` with only engine node types (trrbt JSON shape)."""
    nodes: list[Node]
    """Compiled nodes in pre-order; the index is the node id (root = 0)."""
    origin: list[NodeRef]
    """``origin[i]``: the authored node compiled node ``i`` was copied from."""
    via: list[tuple[NodeRef, ...]]
    """``via[i]``: transform/link/include nodes whose expansion produced node ``i``, innermost first."""
    warnings: list[BtreeWarning] = field(default_factory=list)
    game: Game | None = None
    """The authored game."""
    includes: dict[str, Node | None] = field(default_factory=dict)
    """Included files by key, in the order they were loaded (None: the file was missing)."""
    authored: dict[NodeRef, Node] = field(default_factory=dict)
    """Every authored node (top-level and included files) by reference."""

    def to_json(self) -> dict[str, Any]:
        """``{"name", "tree"}`` exactly as the corpus ``expanded/`` files."""
        return {"name": self.name, "tree": self.tree}

    def index_of(self, node: Node) -> int:
        """The pre-order id of a compiled node object."""
        for i, candidate in enumerate(self.nodes):
            if candidate is node:
                return i
        raise ValueError("not a node of this compiled tree")
