"""Diagnostics of behaviour-tree games: every one names the node it is about."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class BtreeError(Exception):
    """An authoring error in a game (load time), naming the node.

    ``node_path`` is the path from the root as the spec writes it, e.g.
    ``tree/children[1]/children[0]``; ``file`` is the game or include file when known.
    """

    message: str
    node_path: str = ""
    node_type: str = ""
    nid: str = ""
    comment: str = ""
    file: str = ""
    hint: str = ""

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def __str__(self) -> str:
        where = [part for part in (self.file, self.node_path) if part]
        about = self.node_type
        if self.nid:
            about += f" nid={self.nid!r}"
        if self.comment:
            about += f" ({self.comment!r})"
        text = ": ".join(where + ([about.strip()] if about.strip() else []) + [self.message])
        return text + (f" ({self.hint})" if self.hint else "")


@dataclass
class BtreeWarning:
    """A load-time warning (§9.2): the game loads, but something looks wrong."""

    message: str
    node_path: str = ""
    node_type: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        where = f"{self.node_path}: " if self.node_path else ""
        return f"{where}{self.node_type + ': ' if self.node_type else ''}{self.message}"
