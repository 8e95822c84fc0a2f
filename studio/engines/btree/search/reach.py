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
* A carried tile that a forced rule moves when it is let go (Block Dude's blocks fall) *sinks*.
* On a state's board, a Dijkstra from the piece's cell (it and a carried tile taken as gone from
  where they are now): where a forced edge's conditions hold the piece goes on at no cost (it
  falls), or stays for more (something would have to hold it); a move costs 1 plus ``PENALTY``
  for each of its conditions the board does not meet now (a block in the way) and for each tile
  missing (a block under a jump): where carried tiles sink, one per empty cell from there down,
  since the first would fall to the bottom. Standing on air is priced the same way, so a step
  missing under a jump counts twice, for the jump and for standing on it (counting it once
  searched Block Dude 7 in 6.0 M states instead of 4.2 M). While the piece carries a tile, the
  search may spend it once on one of those tiles for ``HELD`` instead (a second layer of the
  Dijkstra: carried tile spent or not), so taking a block off a step to set it elsewhere costs
  little until it is let go off the way.
* Then the tiles the best way lacks are *brought*: each missing cell, the first on the way first,
  takes the nearest carriable tile on the board that the way does not stand on (nor a missing
  column: a block at the bottom of a pit is where it is wanted), and adds ``FETCH`` per cell of
  Manhattan distance, a cell against the way tiles sink counting ``UP`` (from the piece's cell
  for the tile it carries; ``2 * PENALTY`` when none is left). Blocks are few on a big level:
  the eighth step must come from further than the first, a block below the climb must be
  carried up it, and a block carried towards the climb and set down lowers the value even off
  the way.

So the value falls as blocks are placed where the way to the door needs them, and a pit fills
from its bottom block by block. It is a guide for best-first and weighted A*, not a bound: never
admissible. The tables come from ``reach_rules``.
"""

from __future__ import annotations

from studio.engines.jit import kernel

from .iheap import improve, pop
from .tables import D_SPAN, D_T, O_FR_COLS, O_FR_ROWS, O_RE_AT, O_RE_CARRY, O_RE_CHK, O_RE_FORCED, O_RE_OFF, O_RE_T, \
    O_RE_TO, O_RE_TOK
from .vm import M_BOARD, M_CNT, M_POS, M_REACH, R_FRAME, REACH_SCRATCH

PENALTY = 30
"""What one unmet condition of a move adds. Large, so that blocks set where the way needs them
count before steps walked: with 3, greedy search circles near the door (Block Dude 4: 660,000
states); from 20 on it fetches blocks. Measured on Block Dude 7 (A* weight 2, states to a win)
before ``FETCH``: 20: 5.3 M, 25: over 4.2 M, 30: 4.2 M, 35: 5.0 M, 40: 5.3 M."""
FAR = 1 << 20
SCRATCH = REACH_SCRATCH
"""Scratch words per board cell that ``reach_on`` takes after the board."""
HELD = 2
"""What a tile the piece carries costs where a missing one is wanted (dropping it there). With
``PENALTY`` instead (no discount), at ``PENALTY`` 40, best first solves Block Dude 6 in 3.2 M states
against 2.9 M."""
FETCH = 30
"""What each cell between a missing tile and the tile matched to it adds (``_bring``). Measured,
states to a win: Block Dude 7 by A* weight 2: 2: 2.5 M, 4: 1.6 M, 10: 1.0 M, 20: 0.67 M, 30: 0.60 M
(the one nearest-tile fetch this replaced: 4.2 M); Block Dude 6 by weight 2: 30: 2.5 M, 50: 2.9 M."""
UP = 4
"""What a cell of that distance counts where the tile must go against the way it sinks (up, for
Block Dude's falling blocks): a block below its step is dearer to bring than one beside or above
it. Measured with the pit's supports kept (``_keep_support``), states to a win on one thread, A*
weights 1 / 2 / 3: Block Dude 6 with 1 (Manhattan alone): 2.4 M at weight 2; 3: 1.6 M; 4: 1.5 M /
1.3 M / 1.5 M; 6: 2.4 M; 8: 2.7 M / 2.8 M / 2.7 M. Block Dude 7: 1: 322 k; 3: 371 k; 4: 422 k /
413 k / 411 k; 6: 1.2 M; 8: 1.3 M / 1.3 M / 1.3 M. (Without supports kept, 8 searched Block Dude 6
in 325 k states, but a block dropped into a pit then raised the value.)"""


@kernel
def reach(t, m):
    """The piece's cost to leave on the machine's board (0 when it is gone; see the docstring).

    The machine's per-tile cell lists find the piece at once.
    """
    ti, _, to = t
    mi, reg, _ = m
    if reg[R_FRAME] != 0:
        return 0
    start = piece_at(t, m)
    if start < 0:
        return 0
    return _ways(ti, to, mi, reg[M_BOARD], reg[M_REACH], start)


@kernel
def reach_on(ti, to, mi, board, scratch):
    """``reach`` of the start frame's board at ``mi[board:]``, with ``SCRATCH * cells`` of ``scratch``
    (the plain path's, without the machine's cell lists)."""
    cells = ti[to[O_FR_ROWS]] * ti[to[O_FR_COLS]]
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
    return _ways(ti, to, mi, board, scratch, start)


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


@kernel(inline=True)
def _note(mi, out, n, b):
    """Add cell ``b`` to the list ``mi[out:out + n]`` unless it is there (or ``out`` < 0)."""
    if out < 0:
        return n
    for i in range(n):
        if mi[out + i] == b:
            return n
    mi[out + n] = b
    return n + 1


@kernel(inline=True)
def _column(ti, to, mi, board, a, here, held, ground, sink, cells, out, n):
    """How many carriable tiles a check wanting one at board cell ``a`` takes: they fall
    (``sink``), so every empty cell from ``a`` on down must be filled first (at least 1).
    Returns (tiles, n): the cells are noted in the list at ``out`` of length ``n``."""
    if sink == 0:
        return 1, _note(mi, out, n, a)
    base = a - a % to[D_SPAN]
    c = a - base
    k = 0
    while 0 <= c < cells:
        b = base + c
        if not (b == here or b == held or mi[board + b] == ground):
            break
        k += 1
        n = _note(mi, out, n, b)
        c += sink
    if k == 0:
        n = _note(mi, out, n, a)
    return max(k, 1), n


@kernel(inline=True)
def _holds(ti, to, mi, board, e, here, held, ground):
    """Whether every condition of edge ``e`` holds on the board (the piece and what it carries
    taken as gone)."""
    at, want, e_chk = to[O_RE_AT], to[O_RE_T], to[O_RE_CHK]
    for q in range(ti[e_chk + e], ti[e_chk + e + 1]):
        a = ti[at + q]
        if not (ti[want + q] >> (ground if a == here or a == held else mi[board + a])) & 1:
            return False
    return True


@kernel
def _ways(ti, to, mi, board, scratch, start):
    """The Dijkstra of ``reach`` from the piece at ``start``, then ``_bring`` along the best way
    (scratch: distances, heap and heap places, then each node's parent and edge, both layers)."""
    cells = ti[to[O_FR_ROWS]] * ti[to[O_FR_COLS]]
    span = to[D_SPAN]
    tok = to[O_RE_TOK]
    layer, ground = ti[tok], ti[tok + 1]
    held = held_cell(ti, to, mi, board, start)  # it leaves with the piece
    if held >= 0:
        held += layer * span
    carry = to[O_RE_CARRY]
    sink = ti[carry + 1 + 2 * ti[carry]]
    lift, lifted = ti[carry + 1], ti[carry + 2]  # where the piece carries a tile, and which
    # Nodes are (cell, whether the carried tile is spent) pairs; the second half is only met
    # while the piece carries one.
    dist, heap, where = scratch, scratch + 2 * cells, scratch + 4 * cells
    parent, via = scratch + 6 * cells, scratch + 8 * cells
    mi[parent + start] = -1
    best_node, best_edge = -1, -1
    for v in range(2 * cells if held >= 0 and HELD < PENALTY else cells):
        mi[dist + v] = FAR
        mi[where + v] = -1
    n = 0
    n = improve(mi, dist, heap, where, n, start, 0)
    best = FAR
    here = layer * span + start
    off, e_to, e_forced, e_chk = to[O_RE_OFF], to[O_RE_TO], to[O_RE_FORCED], to[O_RE_CHK]
    at, want = to[O_RE_AT], to[O_RE_T]
    while n > 0:
        node, n = pop(mi, dist, heap, where, n)
        d = mi[dist + node]
        if d >= best:
            break
        spent = node // cells
        u = node - spent * cells
        base = spent * cells
        spare = HELD < PENALTY and held >= 0 and spent == 0  # the carried tile can still fill one gap
        falls = False
        under = 0
        lifting = layer * span + u + lift if held >= 0 and spent == 0 else -1
        for e in range(ti[off + u], ti[off + u + 1]):
            if not ti[e_forced + e]:
                break  # forced edges come first
            if _holds(ti, to, mi, board, e, here, held, ground):
                falls = True
                v = ti[e_to + e]
                if v >= 0 and under == 0:
                    under, _ = _column(ti, to, mi, board, layer * span + v, here, held, ground, sink, cells, -1, 0)
                if v < 0:
                    if d < best:
                        best, best_node, best_edge = d, node, e
                elif d < mi[dist + base + v] and mi[where + base + v] != -2:
                    n = improve(mi, dist, heap, where, n, base + v, d)
                    mi[parent + base + v], mi[via + base + v] = node, e
        for e in range(ti[off + u], ti[off + u + 1]):
            if ti[e_forced + e]:
                continue
            if falls and under == 0:
                under = 1
            gaps = under  # to stand here, something must hold it
            cost = d + 1 + under * PENALTY
            v = ti[e_to + e]
            for q in range(ti[e_chk + e], ti[e_chk + e + 1]):
                a = ti[at + q]
                accepts = ti[want + q]
                if a == lifting and (accepts >> lifted) & 1:
                    continue  # the tile it carries goes along
                if not (accepts >> (ground if a == here or a == held else mi[board + a])) & 1:
                    if (accepts >> ground) & 1:
                        cost += PENALTY  # something in the way
                    else:  # a step to bring
                        k, _ = _column(ti, to, mi, board, a, here, held, ground, sink, cells, -1, 0)
                        cost += k * PENALTY
                        gaps += k
            if v < 0:
                if cost < best:
                    best, best_node, best_edge = cost, node, e
                continue
            if cost < mi[dist + base + v] and mi[where + base + v] != -2:
                n = improve(mi, dist, heap, where, n, base + v, cost)
                mi[parent + base + v], mi[via + base + v] = node, e
            if spare and gaps > 0:
                spend = cost - PENALTY + HELD
                if spend < mi[dist + cells + v] and mi[where + cells + v] != -2:
                    n = improve(mi, dist, heap, where, n, cells + v, spend)
                    mi[parent + cells + v], mi[via + cells + v] = node, e
    if best >= FAR:
        return FAR
    return best + _bring(ti, to, mi, board, scratch, best_node, best_edge, here, held, cells)


@kernel(inline=True)
def _keep_support(mi, kept, nk, a, k, sink, base, cells):
    """Note as kept what a column of ``k`` missing tiles from ``a`` would stand on (a tile at
    the bottom of a pit is already where the way needs it: it is not there to be brought)."""
    if sink == 0:
        return nk
    b = a + k * sink
    if 0 <= b - base < cells:
        return _note(mi, kept, nk, b)
    return nk


@kernel(inline=True)
def _haul(c, g, cols, sink):
    """Cells a tile at ``c`` must be carried to ``g`` (Manhattan), each against the way it sinks
    counting ``UP``: a tile rises only as the piece climbs, one step built under it at a time,
    and drops by itself."""
    d = abs(c // cols - g // cols) + abs(c % cols - g % cols)
    if sink == 0:
        return d
    down = (sink + cols // 2) // cols  # the rows and columns one sink moves a tile
    side = sink - down * cols
    rise = 0
    if down != 0:
        rise += (c // cols - g // cols) * (1 if down > 0 else -1)
    if side != 0:
        rise += (c % cols - g % cols) * (1 if side > 0 else -1)
    return d + (UP - 1) * max(rise, 0)


@kernel
def _bring(ti, to, mi, board, scratch, node, e, here, held, cells):
    """How far the tiles the best way lacks must be brought: the way's missing cells are matched
    greedily, the first wanted first, each to the nearest carriable tile on the board that the
    way does not stand on (``FETCH`` per cell of ``_haul``); a missing cell left without one costs
    ``2 * PENALTY``. ``node`` and ``e``: where the way leaves and by which edge; the way back
    is in the Dijkstra's parents and edges."""
    span = to[D_SPAN]
    tok = to[O_RE_TOK]
    layer, ground = ti[tok], ti[tok + 1]
    cols = ti[to[O_FR_COLS]]
    carry = to[O_RE_CARRY]
    sink = ti[carry + 1 + 2 * ti[carry]]
    lift, lifted = ti[carry + 1], ti[carry + 2]
    off, e_to, e_forced, e_chk = to[O_RE_OFF], to[O_RE_TO], to[O_RE_FORCED], to[O_RE_CHK]
    at, want = to[O_RE_AT], to[O_RE_T]
    piece = here - layer * span
    used, gaps, kept, blocks = scratch, scratch + 2 * cells, scratch + 3 * cells, scratch + 4 * cells
    parent, via = scratch + 6 * cells, scratch + 8 * cells
    ng = 0
    nk = 0
    while node >= 0:
        u = node % cells
        if not ti[e_forced + e]:
            for f in range(ti[off + u], ti[off + u + 1]):  # standing on air: it falls to v
                if not ti[e_forced + f]:
                    break
                v = ti[e_to + f]
                if v >= 0 and _holds(ti, to, mi, board, f, here, held, ground):
                    k, ng = _column(ti, to, mi, board, layer * span + v, here, held, ground, sink, cells, gaps, ng)
                    nk = _keep_support(mi, kept, nk, layer * span + v, k, sink, layer * span, cells)
                    break
            lifting = layer * span + u + lift if held >= 0 and node < cells else -1
            for q in range(ti[e_chk + e], ti[e_chk + e + 1]):
                a = ti[at + q]
                accepts = ti[want + q]
                if a == lifting and (accepts >> lifted) & 1:
                    continue
                tile = ground if a == here or a == held else mi[board + a]
                if (accepts >> tile) & 1:
                    if not (accepts >> ground) & 1:
                        nk = _note(mi, kept, nk, a)  # the way stands on it
                elif not (accepts >> ground) & 1:
                    k, ng = _column(ti, to, mi, board, a, here, held, ground, sink, cells, gaps, ng)
                    nk = _keep_support(mi, kept, nk, a, k, sink, layer * span, cells)
        e = mi[via + node]
        node = mi[parent + node]
    if ng == 0:
        return 0
    nb = 0
    for c in range(cells):
        b = layer * span + c
        tile = mi[board + b]
        for q in range(ti[carry]):
            if tile == ti[carry + 2 + 2 * q]:
                free = True
                for i in range(nk):
                    if mi[kept + i] == b:
                        free = False
                        break
                if free:
                    mi[blocks + nb] = -1 if b == held else c  # carried: it comes from where the piece is
                    mi[used + nb] = 0
                    nb += 1
                break
    extra = 0
    for i in range(ng - 1, -1, -1):
        g = mi[gaps + i] - layer * span
        near, pick = FAR, -1
        for j in range(nb):
            if mi[used + j] == 0:
                c = mi[blocks + j]
                if c < 0:
                    c = piece
                d = _haul(c, g, cols, sink)
                if d < near:
                    near, pick = d, j
        if pick < 0:
            extra += 2 * PENALTY  # more wanted than there are: far off, not impossible
        else:
            mi[used + pick] = 1
            extra += FETCH * near
    return extra
