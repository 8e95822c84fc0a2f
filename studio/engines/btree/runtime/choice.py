"""A move offered at a choice wait (§7.6): what a ``player`` node offers and a seat chooses."""

from __future__ import annotations

from typing import Any

from studio.engines.btree.runtime.pattern import Pattern


class Choice:
    """One move offered by a ``player`` node: a match of one of its ``rewrite`` children.

    Attributes:
        pid: the player node's ``pid`` (``None`` if it has none).
        row, col: the top-left cell of the match.
        lhs, rhs: the rewrite's patterns, as in the compiled tree.
        desc, button, mouse: the rewrite's fields, ``None`` when the node has no such field (an
            absent field differs from ``""``).
        node: id of the ``rewrite`` node offering the choice.
    """

    __slots__ = ("pid", "row", "col", "lhs", "rhs", "desc", "button", "mouse", "node", "rhs_pattern", "key")

    def __init__(
        self,
        pid: Any,
        row: int,
        col: int,
        lhs: dict,
        rhs: dict,
        desc: Any = None,
        button: Any = None,
        mouse: Any = None,
        node: int = -1,
        rhs_pattern: Pattern | None = None,
        key: tuple = (),
    ) -> None:
        # A plain slotted class: choices are built on every player call, a frozen dataclass
        # would cost several times more.
        self.pid = pid
        self.row = row
        self.col = col
        self.lhs = lhs
        self.rhs = rhs
        self.desc = desc
        self.button = button
        self.mouse = mouse
        self.node = node
        self.rhs_pattern = rhs_pattern
        self.key = key

    def __repr__(self) -> str:
        return f"Choice(pid={self.pid!r}, row={self.row}, col={self.col}, node={self.node}, desc={self.desc!r})"

    @property
    def rect(self) -> dict[str, int]:
        """The rectangle the choice rewrites: position plus the rhs size."""
        pat = self.rhs_pattern
        return {"row": self.row, "col": self.col, "rows": pat.rows if pat else 0, "cols": pat.cols if pat else 0}

    def to_json(self) -> dict[str, Any]:
        """The trace form: all eight fields, ``None`` for absent ones."""
        return {
            "pid": self.pid,
            "row": self.row,
            "col": self.col,
            "lhs": self.lhs,
            "rhs": self.rhs,
            "desc": self.desc,
            "button": self.button,
            "mouse": self.mouse,
        }
