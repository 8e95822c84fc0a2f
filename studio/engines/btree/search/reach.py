"""Reach: how far the piece that must leave is from leaving, on the state's own board.

Block Dude is won when the player is gone through the door; the player tile changes name as it
turns (``<P``, ``P>``) and a dead-cell distance (``deadcells``) over every cell a block might
ever fill lets it walk on air, so it guides nothing. This heuristic reads the rules instead:

* The *piece* is the win's 1x1 pattern tile and every tile a rule turns it into in place (other
  than the layer's ground, its commonest tile): ``P`` → ``<P`` → ``P>``.
* Each placement of a rewrite that moves the piece from cell a to cell b (or removes it: the
  door) is an edge, with the rule's other checks on the piece's layer as its conditions (other
  layers, a facing marker, are ignored). Edges of rules a player offers are *moves*; the rest
  (gravity) are *forced*.
* A tile a move carries along with the piece (the block on Block Dude's head) is *carried*.
* On a state's board, a Dijkstra from the piece's cell (it and a carried tile taken as gone from
  where they are now): where a forced edge's conditions hold the piece goes on at no cost (it
  falls), or stays for ``PENALTY`` more (something would have to hold it); a move costs 1 plus
  ``PENALTY`` for each of its conditions the board does not meet now (a block missing under a
  jump, one in the way), plus, for a missing tile, how far the nearest carriable tile is (none
  when the piece carries one).

So the value falls as blocks are placed where the way to the door needs them. It is a guide for
best-first and weighted A*, not a bound: never admissible.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from studio.engines.jit import kernel

from ..nodes import Node
from .layout import Layout, rewrite_pairs
from .tables import D_SPAN, D_T, O_FR_COLS, O_FR_ROWS, O_RE_AT, O_RE_CARRY, O_RE_CHK, O_RE_FORCED, O_RE_OFF, O_RE_T, \
    O_RE_TO, O_RE_TOK
from .vm import M_BOARD, M_CNT, M_POS, M_REACH, R_FRAME

PENALTY = 40
"""What one unmet condition of a move adds. Large, so that blocks set where the way needs them
count before steps walked: with 3, greedy search circles near the door (Block Dude 4: 660,000
states); from 20 on it fetches blocks (65,500); 40 and 80 search Block Dude 6 alike."""
FAR = 1 << 20


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
    """The tiles of the piece: ``x_tile`` and what rules turn it into in place (see the docstring)."""
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
    listed = sorted(found, key=lambda e: (e[0], not e[2], e[1]))
    off = np.zeros(rows * cols + 1, np.int32)
    for a, _, _, _ in listed:
        off[a + 1] += 1
    chk = np.cumsum([0] + [len(e[3]) for e in listed]).astype(np.int32)
    return dict(
        re_tok=np.array([layer, ground, *tiles], np.int32),
        re_carry=np.array([len(carried), *(v for pair in carried for v in pair)], np.int32),
        re_off=np.cumsum(off).astype(np.int32),
        re_to=np.array([e[1] for e in listed], np.int32),
        re_forced=np.array([e[2] for e in listed], np.int32), re_chk=chk,
        re_at=np.array([c for e in listed for c in e[3]] or [0], np.int32),
        re_t=np.array([m for e in listed for m in found[e]] or [0], np.int32),
    )


@kernel(inline=True)
def _improve(mi, dist, heap, where, n, v, d):
    """Lower ``v``'s distance to ``d`` (putting it in the heap if new); the heap's new size."""
    mi[dist + v] = d
    i = mi[where + v]
    if i < 0:
        i = n
        mi[heap + i] = v
        mi[where + v] = i
        n += 1
    while i > 0:  # up
        up = (i - 1) // 2
        w = mi[heap + up]
        if mi[dist + w] <= d:
            break
        mi[heap + i], mi[where + w] = w, i
        i = up
    mi[heap + i], mi[where + v] = v, i
    return n


@kernel(inline=True)
def _sift_down(mi, dist, heap, where, n, i):
    v = mi[heap + i]
    d = mi[dist + v]
    while True:
        a = 2 * i + 1
        if a >= n:
            break
        if a + 1 < n and mi[dist + mi[heap + a + 1]] < mi[dist + mi[heap + a]]:
            a += 1
        w = mi[heap + a]
        if mi[dist + w] >= d:
            break
        mi[heap + i], mi[where + w] = w, i
        i = a
    mi[heap + i], mi[where + v] = v, i


@kernel
def reach(t, m):
    """The piece's cost to leave on the machine's board (0 when it is gone; see the docstring).

    The machine's per-tile cell lists find the piece and the tiles it could carry at once.
    """
    ti, _, to = t
    mi, reg, _ = m
    if reg[R_FRAME] != 0:
        return 0
    span, tiles, cnt, pos = to[D_SPAN], to[D_T], reg[M_CNT], reg[M_POS]
    layer = ti[to[O_RE_TOK]]
    start = piece_at(t, m)
    if start < 0:
        return 0
    cols = ti[to[O_FR_COLS]]
    carry = to[O_RE_CARRY]
    fetch = FAR
    for q in range(ti[carry]):
        k = layer * tiles + ti[carry + 2 + 2 * q]
        for i in range(mi[cnt + k]):
            cell = mi[pos + k * span + i]
            fetch = min(fetch, abs(cell // cols - start // cols) + abs(cell % cols - start % cols))
    return _ways(ti, to, mi, reg[M_BOARD], reg[M_REACH], start, fetch)


@kernel
def reach_on(ti, to, mi, board, scratch):
    """``reach`` of the start frame's board at ``mi[board:]``, with ``3 * cells`` of ``scratch``
    (the plain path's, without the machine's cell lists)."""
    cells = ti[to[O_FR_ROWS]] * ti[to[O_FR_COLS]]
    cols = ti[to[O_FR_COLS]]
    span = to[D_SPAN]
    tok = to[O_RE_TOK]
    layer = ti[tok]
    start = -1
    for cell in range(cells):
        tile = mi[board + layer * span + cell]
        for q in range(to[O_RE_TOK + 1] - tok - 2):
            if tile == ti[tok + 2 + q]:
                start = cell
        if start >= 0:
            break
    if start < 0:
        return 0
    carry = to[O_RE_CARRY]
    fetch = FAR
    for cell in range(cells):
        tile = mi[board + layer * span + cell]
        for q in range(ti[carry]):
            if tile == ti[carry + 2 + 2 * q]:
                fetch = min(fetch, abs(cell // cols - start // cols) + abs(cell % cols - start % cols))
    return _ways(ti, to, mi, board, scratch, start, fetch)


@kernel(inline=True)
def piece_at(t, m):
    """The piece's cell on the machine's board (-1: gone)."""
    ti, _, to = t
    mi, reg, _ = m
    span, tiles, cnt, pos = to[D_SPAN], to[D_T], reg[M_CNT], reg[M_POS]
    tok = to[O_RE_TOK]
    layer = ti[tok]
    for q in range(to[O_RE_TOK + 1] - tok - 2):
        k = layer * tiles + ti[tok + 2 + q]
        if mi[cnt + k] > 0:
            return mi[pos + k * span]
    return -1


@kernel(inline=True)
def held_cell(ti, to, mi, board, start):
    """The cell of a tile the piece at ``start`` carries, or -1."""
    cells = ti[to[O_FR_ROWS]] * ti[to[O_FR_COLS]]
    layer = ti[to[O_RE_TOK]]
    carry = to[O_RE_CARRY]
    for q in range(ti[carry]):
        c = start + ti[carry + 1 + 2 * q]
        if 0 <= c < cells and mi[board + layer * to[D_SPAN] + c] == ti[carry + 2 + 2 * q]:
            return c
    return -1


@kernel
def _ways(ti, to, mi, board, scratch, start, fetch):
    """The Dijkstra of ``reach`` from the piece at ``start``; ``fetch``: how far the nearest
    tile it could carry is (what a missing step costs to bring)."""
    cells = ti[to[O_FR_ROWS]] * ti[to[O_FR_COLS]]
    span = to[D_SPAN]
    tok = to[O_RE_TOK]
    layer, ground = ti[tok], ti[tok + 1]
    held = held_cell(ti, to, mi, board, start)  # it leaves with the piece
    if held >= 0:
        held += layer * span
    if held >= 0 or fetch == FAR:
        fetch = 0  # it carries one already, or there is none to fetch
    # Dijkstra over cells with an indexed heap: dist, heap (cells by dist), where (each cell's
    # place in the heap; -1 not met, -2 settled).
    dist, heap, where = scratch, scratch + cells, scratch + 2 * cells
    for cell in range(cells):
        mi[dist + cell] = FAR
        mi[where + cell] = -1
    n = 0
    n = _improve(mi, dist, heap, where, n, start, 0)
    best = FAR
    here = layer * span + start
    # A check reads the board, except where the piece and what it carries are now: empty there.
    off, e_to, e_forced, e_chk = to[O_RE_OFF], to[O_RE_TO], to[O_RE_FORCED], to[O_RE_CHK]
    at, want = to[O_RE_AT], to[O_RE_T]
    while n > 0:
        u = mi[heap]
        n -= 1
        mi[where + u] = -2
        if n > 0:
            last = mi[heap + n]
            mi[heap] = last
            mi[where + last] = 0
            _sift_down(mi, dist, heap, where, n, 0)
        d = mi[dist + u]
        if d >= best:
            break
        falls = False
        for e in range(ti[off + u], ti[off + u + 1]):
            if not ti[e_forced + e]:
                break  # forced edges come first
            ok = True
            for q in range(ti[e_chk + e], ti[e_chk + e + 1]):
                a = ti[at + q]
                if not (ti[want + q] >> (ground if a == here or a == held else mi[board + a])) & 1:
                    ok = False
                    break
            if ok:
                falls = True
                v = ti[e_to + e]
                if v < 0:
                    best = min(best, d)
                elif d < mi[dist + v] and mi[where + v] != -2:
                    n = _improve(mi, dist, heap, where, n, v, d)
        for e in range(ti[off + u], ti[off + u + 1]):
            if ti[e_forced + e]:
                continue
            cost = d + 1 + (PENALTY if falls else 0)  # to stand here, something must hold it
            for q in range(ti[e_chk + e], ti[e_chk + e + 1]):
                a = ti[at + q]
                accepts = ti[want + q]
                if not (accepts >> (ground if a == here or a == held else mi[board + a])) & 1:
                    cost += PENALTY + (0 if (accepts >> ground) & 1 else fetch)  # a step to bring
            v = ti[e_to + e]
            if v < 0:
                best = min(best, cost)
            elif cost < mi[dist + v] and mi[where + v] != -2:
                n = _improve(mi, dist, heap, where, n, v, cost)
    return best if best < FAR else FAR
