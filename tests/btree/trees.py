"""Small hand-written compiled trees for engine tests (the expanded JSON shape)."""

from __future__ import annotations

from typing import Any


def grid(text: str) -> list[list[str]]:
    """``"A B; C D"`` → ``[["A", "B"], ["C", "D"]]``."""
    return [row.split() for row in text.split(";") if row.strip()]


def pat(text: str | None = None, **layers: str) -> dict[str, list[list[str]]]:
    """A pattern: ``pat("A B")`` is on ``main``; ``pat(main="A", top="x")`` names layers."""
    if text is not None:
        layers = {"main": text, **layers}
    return {name: grid(value) for name, value in layers.items()}


def node(kind: str, *children: dict, **fields: Any) -> dict:
    """A compiled node; control nodes get ``children``."""
    data: dict[str, Any] = {"type": kind, **fields}
    if children or kind in ("order", "all", "none", "random-try", "loop-until-all", "loop-times",
                            "player", "win", "lose", "draw"):
        data["children"] = list(children)
    return data


def set_board(text: str | None = None, **layers: str) -> dict:
    return node("set-board", pattern=pat(text, **layers))


def rewrite(lhs: str | dict, rhs: str | dict, kind: str = "rewrite", **fields: Any) -> dict:
    lhs = pat(lhs) if isinstance(lhs, str) else lhs
    rhs = pat(rhs) if isinstance(rhs, str) else rhs
    return node(kind, lhs=lhs, rhs=rhs, **fields)


def game(root: dict) -> dict:
    return {"name": "test", "tree": root}
