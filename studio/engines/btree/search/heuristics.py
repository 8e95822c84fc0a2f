"""Heuristics for best-first and A*: sums of pattern terms counted on the board.

``goal`` reads the game's own win condition. Where ``deadcells`` applies (``win`` over
``match-times 0 X``, X's tile moved by rewrites) it sums, over X's matches, how many rule
applications each needs to reach a cell where X cannot match (Sokoban: box-to-target distances);
that is admissible, and A* lines shortest, when only the player's moves shift the tile, one step
each. Where X's tile changes name as the game runs (Block Dude's ``P`` becomes ``<P`` and
``P>``) ``reach`` (see that module) measures the piece's way out on each board instead, blocks
missing on the way counted heavily: a guide for best-first, not admissible. Otherwise
``match-times 0 X`` counts X's matches (admissible when a move removes at most one),
``none[match X]`` is 1 while X is there, ``match X`` 1 while it is not. A user can name
terms instead: ``count:main=@/trgt=_`` (layers separated by ``/``, rows by ``;``, tiles by
spaces), ``present:…``, ``absent:…``, several joined by ``,``; ``zero`` is plain uniform cost;
``reach`` asks for the reach measure by name.
"""

from __future__ import annotations

from typing import Any, Sequence

from studio.engines.btree.runtime.nodes import Node
from studio.engines.btree.runtime.pattern import Pattern
from .tables import H_ABSENT, H_COUNT, H_DISTANCE, H_PRESENT, H_REACH

KINDS = {"count": H_COUNT, "present": H_PRESENT, "absent": H_ABSENT}


class HeuristicError(ValueError):
    """A heuristic the solver cannot read."""


def goal_terms(nodes: Sequence[Node], player: str | None) -> list[tuple[Pattern, int]]:
    """The terms of the first ``win`` (of ``player``) with a simple condition; [] if none."""
    for node in nodes:
        if node.type != "win" or len(node.children) != 1:
            continue
        if player is not None and str(node.get("pid")) != player:
            continue
        child = nodes[node.children[0]]
        pat = child.patterns.get("pattern")
        if child.type == "match-times" and child.get("times") == 0 and pat is not None:
            return [(pat, H_COUNT)]
        if child.type == "match" and pat is not None:
            return [(pat, H_ABSENT)]
        if child.type == "none" and len(child.children) == 1:
            inner = nodes[child.children[0]]
            if inner.type == "match" and "pattern" in inner.patterns:
                return [(inner.patterns["pattern"], H_PRESENT)]
    return []


def parse_terms(text: str) -> list[tuple[Pattern, int]]:
    """``KIND:LAYER=ROWS[/LAYER=ROWS]`` terms joined by commas (see the module docstring)."""
    terms = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, sep, body = part.partition(":")
        if not sep or kind not in KINDS:
            raise HeuristicError(f"bad heuristic term {part!r}: write count|present|absent:LAYER=ROWS")
        layers: dict[str, Any] = {}
        for layer_text in body.split("/"):
            name, sep, rows = layer_text.partition("=")
            grid = [row.split() for row in rows.split(";") if row.strip()]
            if not sep or not name.strip() or not grid or len({len(r) for r in grid}) != 1:
                raise HeuristicError(f"bad pattern {layer_text!r} in {part!r}: write LAYER=t t;t t")
            layers[name.strip()] = grid
        terms.append((Pattern(layers), KINDS[kind]))
    return terms


def terms_for(spec: str | None, nodes: Sequence[Node], player: str | None,
              dead: Any = None, reach: Any = None) -> tuple[list, str]:
    """The terms of a ``--heuristic`` value (``goal``, ``zero`` or terms) and a description.

    ``dead`` is the game's ``deadcells.DeadCells``, ``reach`` its ``reach`` tables (None where
    they do not apply).
    """
    if spec in (None, "", "goal", "reach") and reach is not None:
        return [(None, H_REACH)], "reach (the piece's way out on each board; not admissible)"
    if spec in (None, "", "goal") and dead is not None:
        how = "admissible" if dead.admissible else "not admissible here: lines may be longer"
        return [(dead.pattern, H_DISTANCE)], f"goal distances ({how})"
    if spec == "reach":
        raise HeuristicError("reach needs a win over none[match X] or match-times 0 X with a 1x1 X"
                             " that some rule removes")
    if spec in (None, "", "goal"):
        terms = goal_terms(nodes, player)
        if not terms:
            return [], "zero (the win condition is not a simple pattern test)"
        return terms, "goal (the win condition's pattern)"
    if spec == "zero":
        return [], "zero"
    return parse_terms(spec), f"user terms {spec}"
