"""The compiled tree as flat arrays for the solver's kernel (``search.vm``).

Node types, children, patterns (cells to check and to write, in layer/tile codes), player
offers and the packing of ``search.layout`` become numpy arrays in one named tuple, so a numba
kernel can run the tree exactly as ``Engine`` does. Whatever the kernel does not do itself
(``set-board``, ``layer-template``, appends, nodes whose run would be an authoring error) is
marked, and meeting it hands the search to the plain engine.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from studio.engines.btree.runtime.nodes import Node, is_number
from studio.engines.btree.runtime.pattern import Pattern
from .layout import Layout

TYPES = ("order", "all", "none", "random-try", "loop-until-all", "loop-times", "win", "lose", "draw",
         "player", "match", "match-times", "rewrite", "rewrite-all", "display-board")
"""The node types the kernel runs itself, in the order of their codes."""
OTHER = len(TYPES)
"""Type code of every node the kernel leaves to the plain engine."""

# Heuristic terms (see ``heuristics``): matches counted, present, absent, distances summed.
H_COUNT, H_PRESENT, H_ABSENT, H_DISTANCE, H_REACH = 0, 1, 2, 3, 4

SET_BOARD = OTHER + 1
"""Type code of a ``set-board`` whose pattern is a frame of the layout."""

FIELDS = (
    "fr_rows", "fr_cols", "fr_has", "fr_base", "fr_var_off", "sb_board", "sb_frame", "node_board",
    "node_type", "kid_off", "kids", "node_pat", "node_lhs", "node_rhs", "node_result", "offer_off",
    "offer_lhs", "offer_rhs", "offer_content", "node_dedup", "pat_rows", "pat_cols", "chk_off",
    "chk_l", "chk_i", "chk_j", "chk_t", "pat_never", "wr_off", "wr_l", "wr_i", "wr_j", "wr_t",
    "pat_bad", "anc_off", "anc_l", "anc_t", "anc_i", "anc_j", "var_cell", "var_word", "var_shift",
    "var_bits", "local_of", "tile_of", "h_pat", "h_kind", "code_win", "dead", "dist",
    "re_tok", "re_carry", "re_off", "re_to", "re_forced", "re_chk", "re_at", "re_t",
)
"""The int tables, concatenated into one array; their start offsets follow the dimensions."""
D_L, D_SPAN, D_FRAMES, D_T, D_DEPTH, D_KIDS, D_CHOICES, D_NODES, D_HEADER, D_WIDTH, D_TILE_OF, \
    D_PRUNE = range(12)
DIMS = 12
(O_FR_ROWS, O_FR_COLS, O_FR_HAS, O_FR_BASE, O_FR_VAR_OFF, O_SB_BOARD, O_SB_FRAME, O_NODE_BOARD,
 O_NODE_TYPE, O_KID_OFF, O_KIDS, O_NODE_PAT, O_NODE_LHS, O_NODE_RHS, O_NODE_RESULT, O_OFFER_OFF,
 O_OFFER_LHS, O_OFFER_RHS, O_OFFER_CONTENT, O_NODE_DEDUP, O_PAT_ROWS, O_PAT_COLS, O_CHK_OFF,
 O_CHK_L, O_CHK_I, O_CHK_J, O_CHK_T, O_PAT_NEVER, O_WR_OFF, O_WR_L, O_WR_I, O_WR_J, O_WR_T,
 O_PAT_BAD, O_ANC_OFF, O_ANC_L, O_ANC_T, O_ANC_I, O_ANC_J, O_VAR_CELL, O_VAR_WORD, O_VAR_SHIFT,
 O_VAR_BITS, O_LOCAL_OF, O_TILE_OF, O_H_PAT, O_H_KIND, O_CODE_WIN, O_DEAD, O_DIST, O_RE_TOK, O_RE_CARRY, O_RE_OFF,
 O_RE_TO, O_RE_FORCED, O_RE_CHK, O_RE_AT, O_RE_T) = \
    range(DIMS, DIMS + len(FIELDS))


class Tables:
    """The tables as the kernel takes them: ``kernel = (ints, floats, offsets)``.

    ``ints`` concatenates every int table (2-D ones row-major), ``floats`` holds the nodes'
    ``times``, ``offsets`` the dimensions then where each table starts in ``ints``. Three arrays
    rather than fifty: every kernel call passes its arguments by value, and compile time grows
    with the size of the argument types.
    """

    def __init__(self, dims: np.ndarray, times: np.ndarray, fields: dict[str, np.ndarray]) -> None:
        self.dims = dims
        self.fields = fields
        offsets = np.zeros(DIMS + len(FIELDS), np.int64)
        offsets[:DIMS] = dims
        parts, at = [], 0
        for i, name in enumerate(FIELDS):
            flat = np.ascontiguousarray(fields[name], dtype=np.int32).reshape(-1)
            offsets[DIMS + i] = at
            parts.append(flat)
            at += len(flat)
        self.kernel = (np.concatenate(parts), np.ascontiguousarray(times, np.float64), offsets)

    @property
    def code_win(self) -> np.ndarray:
        return self.fields["code_win"]



def stalemate_code(nodes: int) -> int:
    return nodes + 1


def stepout_code(nodes: int) -> int:
    return nodes + 2


def result_of(code: int, nodes: Sequence[Node]) -> dict[str, Any] | None:
    """The engine's ``result`` dict for a result code (0: the game goes on)."""
    if code == 0:
        return None
    if code == stalemate_code(len(nodes)):
        return {"result": "stalemate"}
    if code == stepout_code(len(nodes)):
        return {"result": "stepout"}
    node = nodes[code - 1]
    outcome = {"result": node.type}
    if node.type != "draw" and "pid" in node.data:
        outcome["player"] = node.data["pid"]
    return outcome


def is_win(result: dict[str, Any] | None, player: str | None) -> bool:
    """A win (of ``player``, compared as a string, when given)."""
    if not result or result.get("result") != "win":
        return False
    return player is None or str(result.get("player")) == player


class _Patterns:
    """Interns the program's patterns and lays out their checks and writes."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.ids: dict[int, int] = {}
        self.items: list[Pattern] = []

    def id(self, pat: Pattern | None) -> int:
        if pat is None:
            return -1
        if id(pat) not in self.ids:
            self.ids[id(pat)] = len(self.items)
            self.items.append(pat)
        return self.ids[id(pat)]

    def arrays(self) -> dict[str, np.ndarray]:
        index, code = self.layout.layer_index, self.layout.code
        out: dict[str, list] = {k: [] for k in ("rows", "cols", "never", "bad", "chk", "wr", "anc")}
        for pat in self.items:
            out["rows"].append(pat.rows)
            out["cols"].append(pat.cols)
            checks = [(index.get(n, -1), i, j, code[t]) for n, i, j, t in pat.checks]
            writes = [(index.get(n, -1), i, j, code[t]) for n, i, cells in pat.writes for j, t in cells]
            for names, _, _ in self.layout.shapes:  # per frame: a missing layer never matches
                out["never"].append(any(n not in names for n, _, _, _ in pat.checks))
                out["bad"].append(any(n not in names for n, _, _ in pat.writes))
            out["chk"].append([c for c in checks if c[0] >= 0])
            out["wr"].append([w for w in writes if w[0] >= 0])
            anchors: dict[tuple[int, int], tuple[int, int, int, int]] = {}
            for c in out["chk"][-1]:
                anchors.setdefault((c[0], c[3]), (c[0], c[3], c[1], c[2]))
            out["anc"].append(list(anchors.values()))
        arrays = {"pat_rows": np.array(out["rows"], np.int32), "pat_cols": np.array(out["cols"], np.int32),
                  "pat_never": np.array(out["never"], np.int8), "pat_bad": np.array(out["bad"], np.int8)}
        for key, names in (("chk", ("chk_l", "chk_i", "chk_j", "chk_t")),
                           ("wr", ("wr_l", "wr_i", "wr_j", "wr_t")),
                           ("anc", ("anc_l", "anc_t", "anc_i", "anc_j"))):
            lists = out[key]
            arrays[key + "_off"] = np.cumsum([0] + [len(x) for x in lists]).astype(np.int32)
            flat = [row for x in lists for row in x] or [(0, 0, 0, 0)]
            columns = np.array(flat, np.int32).reshape(-1, 4)
            for k, name in enumerate(names):
                arrays[name] = np.ascontiguousarray(columns[:, k])
        return arrays


def _depth(nodes: Sequence[Node]) -> int:
    depth = [1] * len(nodes)
    for node in nodes:  # pre-order: a parent comes before its children
        for kid in node.children:
            depth[kid] = depth[node.id] + 1
    return max(depth) + 1


def _fits(lhs: Pattern, rhs: Pattern) -> bool:
    """Whether every rhs write lands inside the lhs match (else the engine may index off the board)."""
    return all(i < lhs.rows and j < lhs.cols for _, i, cells in rhs.writes for j, _ in cells)


def build(nodes: Sequence[Node], layout: Layout, player: str | None,
          heuristic: Sequence[tuple[Pattern, int]] = (), goal: bool = True,
          prune: Any = None, reach: dict[str, np.ndarray] | None = None) -> Tables:
    """The kernel's view of the program, for states packed with ``layout``.

    Args:
        nodes: the program's nodes.
        layout: the state packing.
        player: only a win of this pid counts (None: any win).
        heuristic: ``(pattern, H_*)`` terms summed for best-first and A*.
        goal: False: no result counts as a win (enumeration).
        prune: ``deadcells.DeadCells``: states with X matching at a dead cell of the start
            frame are not expanded; its distances serve ``H_DISTANCE`` terms.
        reach: the ``reach_rules.edges`` tables, for an ``H_REACH`` term.
    """
    pats = _Patterns(layout)
    n = len(nodes)
    node_type = np.full(n, OTHER, np.int8)
    node_pat = np.full(n, -1, np.int32)
    node_lhs = np.full(n, -1, np.int32)
    node_rhs = np.full(n, -1, np.int32)
    node_times = np.full(n, np.nan)
    node_result = np.zeros(n, np.int32)
    node_dedup = np.zeros(n, np.int8)
    node_board = np.full(n, -1, np.int32)
    offers: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    kids_max = 1
    for node in nodes:
        kind = node.type
        code = TYPES.index(kind) if kind in TYPES else OTHER
        if kind == "set-board" and node.id in layout.set_boards:
            code = SET_BOARD
            node_board[node.id] = list(layout.set_boards).index(node.id)
        elif kind in ("match", "match-times"):
            node_pat[node.id] = pats.id(node.patterns.get("pattern"))
            code = code if node_pat[node.id] >= 0 else OTHER
        elif kind in ("rewrite", "rewrite-all"):
            lhs, rhs = node.patterns.get("lhs"), node.patterns.get("rhs")
            if lhs is None or rhs is None or not _fits(lhs, rhs):
                code = OTHER
            else:
                node_lhs[node.id], node_rhs[node.id] = pats.id(lhs), pats.id(rhs)
        elif kind == "player":
            contents: dict[Any, int] = {}
            for cid in node.children:
                child = nodes[cid]
                lhs, rhs = child.patterns.get("lhs"), child.patterns.get("rhs")
                if child.type != "rewrite" or lhs is None or rhs is None:
                    continue  # ignored by the engine too
                if not _fits(lhs, rhs):
                    code = OTHER
                fields = tuple(child.get(k) for k in ("desc", "button", "mouse"))
                present = tuple(k in child.data for k in ("desc", "button", "mouse"))
                content = contents.setdefault((lhs.key, rhs.key, fields, present), len(contents))
                offers[node.id].append((pats.id(lhs), pats.id(rhs), content))
            node_dedup[node.id] = len(contents) < len(offers[node.id])
        if kind in ("loop-times", "match-times") and is_number(node.get("times")):
            node_times[node.id] = float(node.get("times"))
        if kind in ("win", "lose", "draw"):
            node_result[node.id] = node.id + 1
        if kind == "random-try":
            kids_max = max(kids_max, len(node.children))
        node_type[node.id] = code
    offer_off = np.cumsum([0] + [len(o) for o in offers]).astype(np.int32)
    flat_offers = np.array([o for per in offers for o in per] or [(0, 0, 0)], np.int32).reshape(-1, 3)
    kid_off = np.cumsum([0] + [len(node.children) for node in nodes]).astype(np.int32)
    kids = np.array([k for node in nodes for k in node.children] or [0], np.int32)
    h_pat = np.array([pats.id(p) for p, _ in heuristic] or [-1], np.int32)
    h_kind = np.array([k for _, k in heuristic] or [-1], np.int32)
    prune_pat = pats.id(prune.pattern) if prune is not None else -1
    dead = prune.dead if prune is not None else np.zeros(1, np.int32)
    dist = prune.distance if prune is not None else np.zeros(1, np.int32)
    widest = max((len(o) for o in offers), default=0)
    code_win = np.array([goal and is_win(result_of(c, nodes), player) for c in range(n + 3)], np.uint8)
    arrays = pats.arrays()
    dims = np.array([len(layout.names), layout.span, len(layout.shapes), len(layout.tiles), _depth(nodes),
                     kids_max, max(1, widest * layout.span), n, layout.header, layout.width,
                     layout.tile_of.shape[1], prune_pat], np.int64)
    boards = [codes for _, codes in layout.set_boards.values()] or [layout.base[0]]
    has = [[name in names for name in layout.names] for names, _, _ in layout.shapes]
    fields = dict(
        fr_rows=np.array([r for _, r, _ in layout.shapes], np.int32),
        fr_cols=np.array([c for _, _, c in layout.shapes], np.int32),
        fr_has=np.array(has, np.uint8).reshape(-1), fr_base=layout.base, fr_var_off=layout.var_off,
        sb_board=np.stack(boards), node_board=node_board,
        sb_frame=np.array([f for f, _ in layout.set_boards.values()] or [0], np.int32),
        node_type=node_type, kid_off=kid_off, kids=kids, node_pat=node_pat,
        node_lhs=node_lhs, node_rhs=node_rhs, node_result=node_result,
        offer_off=offer_off, offer_lhs=np.ascontiguousarray(flat_offers[:, 0]),
        offer_rhs=np.ascontiguousarray(flat_offers[:, 1]),
        offer_content=np.ascontiguousarray(flat_offers[:, 2]), node_dedup=node_dedup,
        var_cell=layout.var_cell, var_word=layout.var_word,
        var_shift=layout.var_shift, var_bits=layout.var_bits, local_of=layout.local_of,
        tile_of=layout.tile_of, h_pat=h_pat, h_kind=h_kind, code_win=code_win, dead=dead, dist=dist, **arrays,
        **(reach or {name: np.zeros(1, np.int32) for name in FIELDS if name.startswith("re_")}),
    )
    return Tables(dims, node_times, fields)
