"""Dead cells: where the win condition's blocking tile can never get out of the way.

Many puzzles are won when a pattern is gone (``win`` over ``match-times 0 X``, or the same said as
``none[match X]``: Sokoban's box off its target). The rewrites say where the tile that makes X match can move: a rule whose lhs
checks it at one cell and whose rhs writes it at another moves it along, a rule that overwrites
it removes it. From the fixpoint of ``layout`` (which tiles each cell can ever hold), a cell is
*alive* when X cannot match there (its constant layers say so), when a rule can remove the tile
there, or when a rule can move it to an alive cell. A state with the tile at a dead cell can
never win, so the solver does not expand it: breadth-first lines stay shortest (no winning line
passes through such a state) and far fewer states are searched. This is Sokoban's "dead square"
pruning, derived from the game's rules rather than written for Sokoban; it is used only where
it is sound: one win node, a 1x1 X with one changing layer, and no node that can replace the
board after the start.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from studio.engines.btree.runtime.nodes import Node
from studio.engines.btree.runtime.pattern import Pattern
from .layout import Layout, rewrite_pairs

_REPLACING = ("set-board", "layer-template", "append-rows", "append-columns")


def _reruns(nodes: Sequence[Node], node: Node) -> bool:
    """Whether ``node`` may run after a choice: after a player, or in a loop holding one."""
    players = [n.id for n in nodes if n.type == "player"]
    if any(pid < node.id for pid in players):
        return True
    up = node.parent
    while up is not None:
        parent = nodes[up]
        if parent.type.startswith("loop") and any(_within(nodes, pid, up) for pid in players):
            return True
        up = parent.parent
    return False


def _within(nodes: Sequence[Node], node_id: int, ancestor: int) -> bool:
    while node_id is not None:
        if node_id == ancestor:
            return True
        node_id = nodes[node_id].parent
    return False


def blocking_pattern(nodes: Sequence[Node], player: str | None) -> Pattern | None:
    """X of the game's only win (``win`` over ``match-times 0 X`` or ``none[match X]``), or None."""
    wins = [n for n in nodes if n.type == "win" and (player is None or str(n.get("pid")) == player)]
    if len(wins) != 1 or len(wins[0].children) != 1:
        return None
    cond = nodes[wins[0].children[0]]
    if cond.type == "none" and len(cond.children) == 1:
        cond = nodes[cond.children[0]]  # none[match X] holds exactly when match-times 0 X does
        if cond.type != "match" or "pattern" not in cond.patterns:
            return None
    elif cond.type != "match-times" or cond.get("times") != 0 or "pattern" not in cond.patterns:
        return None
    if any(n.type in _REPLACING and _reruns(nodes, n) for n in nodes):
        return None
    return cond.patterns["pattern"]


@dataclass
class DeadCells:
    """What the rules say about the win's blocking tile on the start frame's cells."""

    pattern: Pattern
    """X: the win needs no match of it."""
    dead: np.ndarray
    """``dead[row * cols + col]``: 1 where the tile can never get out of X's way."""
    distance: np.ndarray
    """Fewest rule applications that take the tile from the cell to where X cannot match."""
    admissible: bool
    """Whether one choice moves at most one such tile one step (only the player's rewrites move
    it), so that the summed distance never overestimates the moves left (A* stays shortest)."""


def dead_cells(layout: Layout, nodes: Sequence[Node], player: str | None) -> DeadCells | None:
    """The dead cells and distances of the start frame, or None where the analysis does not apply."""
    pat = blocking_pattern(nodes, player)
    if pat is None or pat.rows != 1 or pat.cols != 1 or not pat.checks:
        return None
    names, rows, cols = layout.shapes[0]
    span, poss = layout.span, layout.possible[0]
    if any(name not in names for name, _, _, _ in pat.checks):
        return None
    checks = [(layout.layer_index[n], layout.code[t]) for n, _, _, t in pat.checks]
    cells = rows * cols
    constant = [(poss[lay * span:lay * span + cells].sum(axis=1) == 1) for lay, _ in checks]
    moving = [k for k, const in enumerate(constant) if not const.all()]
    if len(moving) != 1:
        return None
    layer, tile = checks[moving[0]]
    # X cannot match where a constant layer holds another tile than X's (a target, in Sokoban).
    base = np.zeros(cells, dtype=bool)
    for k, (lay, t) in enumerate(checks):
        if k != moving[0]:
            holds = poss[lay * span:lay * span + cells, t]
            base |= ~holds | ~constant[k]
    removed = np.zeros(cells, dtype=bool)
    edges: list[tuple[int, int]] = []
    offers = {cid for n in nodes if n.type == "player" for cid in n.children}
    admissible = True
    for node_id, lhs, rhs in rewrite_pairs(nodes):
        rule = layout._rule(lhs, rhs, names, rows, cols)
        if rule is None:
            continue
        moved = _moves(rule, layer, tile, poss, span, rows, cols, removed, edges)
        if moved and (node_id not in offers or moved > 1):
            admissible = False
    distance = _distances(base, removed, edges, cells)
    alive = distance < UNREACHED
    dead = ~alive & poss[layer * span:layer * span + cells, tile]
    if not dead.any() and not alive.any():
        return None
    return DeadCells(pat, dead.astype(np.int32), distance, admissible)


UNREACHED = 1 << 20


def _distances(base: np.ndarray, removed: np.ndarray, edges: list[tuple[int, int]], cells: int) -> np.ndarray:
    """Breadth first backwards from where X cannot match (0) and where a rule removes the tile (1)."""
    distance = np.full(cells, UNREACHED, dtype=np.int32)
    distance[base] = 0
    distance[removed & ~base] = 1
    back: dict[int, list[int]] = {}
    for a, b in edges:
        back.setdefault(b, []).append(a)
    frontier = sorted(np.flatnonzero(distance < UNREACHED).tolist(), key=lambda c: distance[c])
    queue = deque(frontier)
    while queue:
        b = queue.popleft()
        for a in back.get(b, ()):
            if distance[a] > distance[b] + 1:
                distance[a] = distance[b] + 1
                queue.append(a)
    return distance


def _moves(rule: tuple, layer: int, tile: int, poss: np.ndarray, span: int, rows: int, cols: int,
           removed: np.ndarray, edges: list[tuple[int, int]]) -> int:
    """Edges of the tile's moves under one rule (and cells where the rule removes it).

    Returns how many tiles one application moves or removes (0: the rule leaves it alone).
    """
    pr, pc, checks, writes = rule
    at_from = [(i, j) for lay, i, j, t in checks if lay == layer and t == tile]
    if not at_from:
        return 0
    put = {(i, j): t for lay, i, j, t in writes if lay == layer}
    to = [(i, j) for (i, j), t in put.items() if t == tile]
    leaves = [(i, j) for i, j in at_from if (i, j) in put and put[(i, j)] != tile]
    if not leaves:
        return 0
    for r0 in range(rows - pr + 1):
        for c0 in range(cols - pc + 1):
            if not all(poss[lay * span + (r0 + i) * cols + c0 + j, t] for lay, i, j, t in checks):
                continue
            for i, j in leaves:
                a = (r0 + i) * cols + c0 + j
                if not to:
                    removed[a] = True  # the rule removes the tile here
                for i2, j2 in to:
                    edges.append((a, (r0 + i2) * cols + c0 + j2))
    return len(leaves)
