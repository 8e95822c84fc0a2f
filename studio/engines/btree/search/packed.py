"""A packed search from an engine's state: layout, tables, root, and the answers decoded.

``PackedRun`` ties ``layout``, ``tables`` and ``runner.Search`` together for :mod:`..solver`:
it packs the start (the engine run to its first choice wait), and turns state indices back into
lines, results and boards.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from studio.engines.btree.runtime.engine import Engine
from . import kernels as k
from .deadcells import dead_cells
from .heuristics import terms_for
from .reach_rules import tables_for as reach_tables
from .layout import FRAME_MASK, FRAME_SHIFT, Layout, LayoutError, encode_frames, header_fields
from .plain import PlainExpander, heuristic_value, result_code
from .runner import STRATEGIES, Search
from .stacks import stack_intern
from .tables import H_DISTANCE, H_REACH, build, result_of


class PackedRun:
    """A search over packed states from ``probe``'s state (the probe is moved to its first wait).

    Raises:
        LayoutError: the start cannot be packed (no board, an error result).
        Restart: see ``runner.Search.advance``.
    """

    def __init__(self, probe: Engine, *, strategy: str, player: str | None,
                 heuristic: str | None = None, weight: int = 1, jobs: int = 1,
                 plain: bool = False, keyed: bool = False, goal: bool = True,
                 max_states: int = 10**9, max_memory: int | None = None, macro: bool = False) -> None:
        probe.run_to_choice()
        layers = probe._board.layers
        if layers is None or probe.rows == 0 or probe.cols == 0:
            raise LayoutError("the game has no board to pack")
        self.nodes = probe.nodes
        self.layout = layout = Layout(probe.nodes, layers, rng_keyed=keyed)
        prune = dead_cells(layout, probe.nodes, player) if goal else None
        terms: list = []
        self.heuristic = ""
        ways = None
        if STRATEGIES[strategy] >= k.ASTAR:
            if heuristic in (None, "", "goal", "reach"):
                ways = reach_tables(layout, probe.nodes, player)
                one_tile = ways is not None and len(ways["re_tok"]) == 3  # layer, ground, the tile
                if one_tile and prune is not None and heuristic != "reach":
                    ways = None  # the win's tile keeps its name: its dead-cell distances say more
            terms, self.heuristic = terms_for(heuristic, probe.nodes, player, prune, ways)
        # A* lines are shortest under a heuristic that never overestimates: none, or the goal
        # distances where only the player's moves shift the tile one step.
        self.admissible = not terms or (prune is not None and prune.admissible
                                        and terms == [(prune.pattern, H_DISTANCE)])
        self.tables = build(probe.nodes, layout, player, terms, goal, prune, ways)
        self.pruning = prune is not None and bool(prune.dead.any())
        rng0 = probe.rng.state
        expander = PlainExpander(probe.program, layout, None, rng0, terms, prune,
                                 self.tables.kernel) if plain else None
        quiet = any(kind == H_REACH for _, kind in terms)  # a walk's steps keep their value
        self.search = Search(self.tables, layout, strategy=strategy, weight=weight, jobs=jobs,
                             plain=expander, max_states=max_states, max_memory=max_memory, rng0=rng0,
                             quiet=quiet, macro=macro)
        root = self._root(probe)
        h = 0
        if quiet:  # what the start's quiet children take
            frame, codes = layout.board(root)
            h = heuristic_value(probe, terms, prune, layout.shapes[0][2], frame,
                                (self.tables.kernel, codes))
        code = self.search.add_root(root, h)
        self.start_reason = None
        if goal and STRATEGIES[strategy] <= k.DFS and self.tables.code_win[code]:
            self.search.found = 0
            self.start_reason = "found"

    def _root(self, probe: Engine) -> np.ndarray:
        code = np.array(encode_frames(probe._stack or []), np.int32)
        stacks = self.search.stacks
        sid = stack_intern(stacks, code, 0, len(code))
        if sid < 0:
            raise LayoutError("the start's stack does not fit the stack table")
        frame, board = self.layout.encode_layers(probe._board.layers)
        return self.layout.pack(frame, board, int(sid), result_code(probe), probe._prev, probe.rng.state)

    # -- the Search interface the solver drives ---------------------------------------------------

    def advance(self, budget: int) -> str:
        return self.search.advance(budget)

    @property
    def count(self) -> int:
        return self.search.count

    @property
    def deepest(self) -> int:
        return self.search.deepest

    @property
    def found(self) -> int:
        return self.search.found

    def line(self, index: int) -> list[int]:
        return self.search.line(index)

    def state_bytes(self) -> int:
        return self.search.state_bytes()

    def nbytes(self) -> int:
        return self.search.nbytes()

    def close(self) -> None:
        self.search.close()

    # -- answers ------------------------------------------------------------------------------------

    def result_of(self, index: int) -> dict[str, Any] | None:
        _, code, _ = header_fields(self.search.store.words[index, 0])
        return result_of(code, self.nodes)

    def reachable(self) -> list[tuple[dict, dict | None, int]]:
        """Distinct (board, result) pairs with their smallest depth, in breadth-first order."""
        store, layout = self.search.store, self.layout
        seen: dict[tuple[bytes, int], None] = {}
        out = []
        for index in range(self.search.count):
            words = self.search.full_row(index)
            _, code, _ = header_fields(words[0])
            key = (words[layout.header:].tobytes(), code, int(words[0]) >> FRAME_SHIFT & FRAME_MASK)
            if key in seen:
                continue
            seen[key] = None
            board = layout.board_json(*layout.board(words))
            out.append((board, result_of(code, self.nodes), int(store.depth[index])))
        return out
