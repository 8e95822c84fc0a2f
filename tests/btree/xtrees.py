"""Tiny tree builders for the compiler unit tests (no corpus needed)."""

from __future__ import annotations

from typing import Any

from studio.engines.btree import Compiled, Game, compile_game


def grid(text: str) -> list[list[str]]:
    """``"A B; C D"`` → ``[["A", "B"], ["C", "D"]]``."""
    return [row.split() for row in text.split(";") if row.strip()]


def pat(text: str, layer: str = "main") -> dict[str, list[list[str]]]:
    return {layer: grid(text)}


def match(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "match", "pattern": pat(text), **fields}


def rewrite(lhs: str, rhs: str, **fields: Any) -> dict[str, Any]:
    return {"type": "rewrite", "lhs": pat(lhs), "rhs": pat(rhs), **fields}


def node(kind: str, *children: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"type": kind, **fields, "children": list(children)}


def build(tree: dict[str, Any], **options: Any) -> Compiled:
    return compile_game(Game(name="t", tree=tree), **options)


def kids(compiled: Compiled) -> list[dict[str, Any]]:
    """The root's compiled children."""
    return compiled.tree["children"]


def patterns(nodes: list[dict[str, Any]], key: str = "pattern") -> list[list[list[str]]]:
    return [n[key]["main"] for n in nodes]
