"""The tables of ``reach`` (see that module), read from the game's rules: the piece, its edges
with their conditions, the tiles it carries and how they sink.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from studio.engines.btree.runtime.nodes import Node
from .layout import Layout, rewrite_pairs


def win_tile(nodes: Sequence[Node], player: str | None) -> tuple[str, str] | None:
    """(layer, tile) of the only win's ``none[match X]`` or ``match-times 0 X`` with a 1x1 X."""
    wins = [n for n in nodes if n.type == "win" and (player is None or str(n.get("pid")) == player)]
    if len(wins) != 1 or len(wins[0].children) != 1:
        return None
    cond = nodes[wins[0].children[0]]
    if cond.type == "none" and len(cond.children) == 1:
        cond = nodes[cond.children[0]]
        if cond.type != "match":
            return None
    elif cond.type != "match-times" or cond.get("times") != 0:
        return None
    pat = cond.patterns.get("pattern")
    if pat is None or pat.rows != 1 or pat.cols != 1 or len(pat.checks) != 1:
        return None
    name, _, _, tile = pat.checks[0]
    return name, tile


def tables_for(layout: Layout, nodes: Sequence[Node], player: str | None) -> dict[str, np.ndarray] | None:
    """The reach tables of the game's win, or None where the heuristic does not apply."""
    x = win_tile(nodes, player)
    names = layout.shapes[0][0]
    if x is None or x[0] not in names or x[1] not in layout.code:
        return None
    layer = layout.layer_index[x[0]]
    _, rows, cols = layout.shapes[0]
    ground = int(np.bincount(layout.base[0][layer * layout.span:layer * layout.span + rows * cols]).argmax())
    return edges(layout, nodes, layer, ground, piece(layout, nodes, layer, ground, layout.code[x[1]]))


def _rules(layout: Layout, nodes: Sequence[Node], layer: int):
    """Each rewrite on the start frame: node id, (rows, cols), checks, and its writes on ``layer``
    by cell."""
    names, rows, cols = layout.shapes[0]
    for node_id, lhs, rhs in rewrite_pairs(nodes):
        rule = layout._rule(lhs, rhs, names, rows, cols)
        if rule is not None:
            pr, pc, checks, writes = rule
            yield node_id, (pr, pc), checks, {(i, j): t for lay, i, j, t in writes if lay == layer}


def piece(layout: Layout, nodes: Sequence[Node], x_layer: int, ground: int, x_tile: int) -> list[int]:
    """The tiles of the piece: ``x_tile`` and what rules turn it into in place (see ``reach``)."""
    tiles = [x_tile]
    grew = True
    while grew:
        grew = False
        for _, _, checks, put in _rules(layout, nodes, x_layer):
            for lay, i, j, t in checks:
                new = put.get((i, j))
                if lay == x_layer and t in tiles and new is not None and new not in tiles and new != ground:
                    tiles.append(new)
                    grew = True
    return tiles


def edges(layout: Layout, nodes: Sequence[Node], layer: int, ground: int,
          tiles: Sequence[int]) -> dict[str, np.ndarray] | None:
    """The reach tables (``re_*`` fields of ``tables.build``), or None when no rule removes the piece."""
    names, rows, cols = layout.shapes[0]
    span, poss = layout.span, layout.possible[0]
    offers = {cid for n in nodes if n.type == "player" for cid in n.children}
    found: dict[tuple, list[int]] = {}
    if len(layout.tiles) > 31:
        return None  # accepted tiles are bit masks of an int32
    carried: dict[tuple[int, int], None] = {}
    fixed = poss.sum(axis=1) == 1
    for node_id, (pr, pc), checks, put in _rules(layout, nodes, layer):
        at = [(i, j) for lay, i, j, t in checks if lay == layer and t in tiles]
        leaves = [(i, j) for i, j in at if (i, j) in put and put[(i, j)] not in tiles]
        if len(leaves) != 1:
            continue
        to = [(i, j) for (i, j), t in put.items() if t in tiles]
        if len(to) > 1:
            continue
        (fi, fj), forced = leaves[0], node_id not in offers
        if to and not forced:
            di, dj = to[0][0] - fi, to[0][1] - fj
            for lay, i, j, t in checks:  # a tile that moves along with the piece: carried
                if lay == layer and t not in tiles and put.get((i, j)) not in (None, t) \
                        and put.get((i + di, j + dj)) == t:
                    carried[((i - fi) * cols + j - fj, t)] = None
        for r0 in range(rows - pr + 1):
            for c0 in range(cols - pc + 1):
                if not all(poss[lay * span + (r0 + i) * cols + c0 + j, t] for lay, i, j, t in checks):
                    continue
                a = (r0 + fi) * cols + c0 + fj
                b = (r0 + to[0][0]) * cols + c0 + to[0][1] if to else -1
                # A cell that only ever holds one tile meets its check always (else no edge).
                cond = tuple(sorted((layer * span + (r0 + i) * cols + c0 + j, t) for lay, i, j, t in checks
                                    if lay == layer and (i, j) != (fi, fj)
                                    and not fixed[layer * span + (r0 + i) * cols + c0 + j]))
                # Variants of one move (x-replace: a block or a floating block beneath) become
                # one edge whose checks accept any of their tiles.
                masks = found.setdefault((a, b, forced, tuple(c for c, _ in cond)), [0] * len(cond))
                for q, (_, t) in enumerate(cond):
                    masks[q] |= 1 << t
    if not any(b < 0 for _, b, _, _ in found):
        return None
    sink = 0  # how a carriable tile falls when let go (a row down: ``cols``), 0 if it stays
    for node_id, _, checks, put in _rules(layout, nodes, layer):
        if node_id in offers:
            continue
        for lay, i, j, t in checks:
            if lay == layer and any(t == c for _, c in carried) and put.get((i, j)) == ground:
                for di in (1, -1):
                    if put.get((i + di, j)) == t and (layer, i + di, j, ground) in checks:
                        sink = di * cols
    listed = sorted(found, key=lambda e: (e[0], not e[2], e[1]))
    off = np.zeros(rows * cols + 1, np.int32)
    for a, _, _, _ in listed:
        off[a + 1] += 1
    chk = np.cumsum([0] + [len(e[3]) for e in listed]).astype(np.int32)
    return dict(
        re_tok=np.array([layer, ground, *tiles], np.int32),
        re_carry=np.array([len(carried), *(v for pair in carried for v in pair), sink], np.int32),
        re_off=np.cumsum(off).astype(np.int32),
        re_to=np.array([e[1] for e in listed], np.int32),
        re_forced=np.array([e[2] for e in listed], np.int32), re_chk=chk,
        re_at=np.array([c for e in listed for c in e[3]] or [0], np.int32),
        re_t=np.array([m for e in listed for m in found[e]] or [0], np.int32),
    )
