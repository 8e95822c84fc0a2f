"""Monte Carlo tree search over a game's choices: the ``computer`` seat (issue 32).

UCT with random playouts, for whichever seat is to move, with no knowledge of the game beyond
what the tree offers. Positions are held, moves made and playouts played on the numba kernel
where it can run the game (:mod:`.tree_states`, :mod:`.tree_kernel`, :mod:`.playout`: the same
moves as the plain engine for the same generator, so the search is the same on either path, only
faster) and on the plain engine elsewhere. Positions are shared by state key (a graph, not a
tree), so a small game like Tic-tac-toe is exhausted in a few thousand playouts and its result proven
(MCTS-Solver: a position is proven once a move proves a win for its mover, or all moves are
proven); the proven move is then played and the result can be shown ("X wins in 3").

The game's own randomness is sampled, never chosen or foreseen: a move whose run draws from the
engine RNG leads to a chance edge; every pass over it runs the move again with an engine RNG state
drawn from the search's own generator, and the outcomes seen are kept by state key (RNG left
out). Chance edges are never proven. Playouts also start from a drawn RNG state, so the search
never uses the real RNG state of the game it plays.

Reproducible: the search draws only from the SplitMix64 it is given (see :func:`move_seed`), so
the same position, seed and playout budget give the same move. A time limit (default 1 s) stops
it too; then the number of playouts, and maybe the move, depends on the machine.
"""

from __future__ import annotations

import math
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio.engines.btree.runtime.engine import Program
from studio.engines.btree.search.outcome import Proof, reward
from studio.engines.btree.search.playout import Playouts
from studio.engines.btree.search.tree_states import KernelFallback, KernelStates, PlainStates
from studio.engines.common.splitmix import SplitMix64

DEFAULT_SECONDS = 1.0
EXPLORE = math.sqrt(2.0)  # UCT's exploration constant for rewards in [0, 1]
PLAYOUT_MOVES = 500  # a playout this long counts as a draw: a tree may loop forever
_RNG_STATES = 1 << 31  # the engine RNG state is an integer below 2^31 (§7.7)
_PROGRESS_EVERY = 16  # playouts between progress calls


def move_seed(seed: int, pid: str, ply: int) -> int:
    """The search seed of seat ``pid`` at its move after ``ply`` choices of a game seeded ``seed``.

    Each move gets its own, so a move does not depend on how long earlier moves searched.
    """
    rng = SplitMix64((seed * 0x9E3779B1 + zlib.crc32(pid.encode()) * 0x85EBCA77 + ply) % (1 << 64))
    return rng.next64()


@dataclass(frozen=True)
class MoveStats:
    """One move at the root: how often it was searched, its mean reward, its proof if any."""

    index: int
    visits: int
    value: float
    proof: Proof | None


@dataclass(frozen=True)
class SearchResult:
    """The move chosen, how much was searched, and the proven result from the position, if any."""

    index: int
    player: str
    playouts: int
    seconds: float
    positions: int
    proof: Proof | None
    moves: tuple[MoveStats, ...]
    path: str = "plain"
    """Where the playouts ran at the end: ``"kernel"`` or ``"plain"``."""
    tree: str = "plain"
    """Where the tree's moves ran: ``"kernel"`` or ``"plain"``."""


class _Node:
    """A position at a choice wait or at the end; its stats are for the seat that moved into it."""

    __slots__ = ("snap", "player", "edges", "order", "visits", "score", "proof", "best", "result",
                 "parents", "dirty")

    def __init__(self, made: tuple[Any, str | None, int, dict | None]) -> None:
        # ``made``: the position as the search's states give it (``tree_states``)
        self.snap, self.player, count, self.result = made
        self.edges: list[Any] = [None] * count  # None (not tried), a _Node, or a _Chance
        self.order: list[int] | None = None  # the order untried moves are tried in
        self.visits = 0
        self.score: dict[str, float] = {}
        self.best = -1  # the proven move
        # Positions with a move into this one, and whether a move's proof changed since this
        # one was last tried: _prove runs only then (it ran on every node of every path).
        self.parents: list[_Node] = []
        self.dirty = False
        self.proof = Proof(self.result, 0) if self.result is not None else None
        if self.result is None and count == 0:  # a stalled tree (no wait, no result): a draw
            self.proof = Proof({"result": "stalemate"}, 0)
            self.result = self.proof.result


class _Chance:
    """A move whose run draws from the engine RNG: its outcomes, sampled, by state key."""

    __slots__ = ("outcomes", "visits", "score")
    proof = None  # never proven (see the module's doc)

    def __init__(self) -> None:
        self.outcomes: dict[tuple, _Node] = {}
        self.visits = 0
        self.score: dict[str, float] = {}


class Computer:
    """A search player for one game; reuse it for every move (it keeps one engine).

    Args:
        program: the game (a ``Program`` or anything it accepts).
        display_reset: whether clearing a display wait resets the step budget (as the play session).
        kernel: play out on the numba kernel where it can (False: the plain engine, e.g. while
            a screen waits for the kernel's compile in another process).
        tree: with ``kernel``, also keep positions and run the tree's moves on the kernel where
            it can (False: on the engine, with kernel playouts; the figures of the bench).
    """

    def __init__(self, program: Any, display_reset: bool = True, kernel: bool = True,
                 tree: bool = True) -> None:
        self.program = program if isinstance(program, Program) else Program(program)
        self.display_reset = display_reset
        self.playouts = Playouts(self.program, kernel)
        self._plain = PlainStates(self.program, self.playouts, display_reset)
        self._kernel = KernelStates(self.program, self.playouts, display_reset) \
            if tree and self.playouts.kernel else None
        self.tree_reason = "" if self._kernel is not None else "the kernel was not asked for"
        """Why the tree's moves run on the plain engine ("" while the kernel may run them)."""
        self.states: PlainStates | KernelStates = self._plain
        self._deadline: float | None = None
        self._cancel: Any = None
        self.explore = EXPLORE  # per player, for experiments (lower: deeper and narrower)

    def search(
        self,
        snapshot: Any,
        seed: int = 0,
        seconds: float | None = DEFAULT_SECONDS,
        playouts: int | None = None,
        progress: Callable[[int], None] | None = None,
        cancel: Any = None,
    ) -> SearchResult:
        """Choose a move at the choice wait in ``snapshot``.

        Args:
            snapshot: an engine snapshot at a choice wait.
            seed: the search's own seed (:func:`move_seed`).
            seconds: stop after this long (``None``: no time limit).
            playouts: stop after this many playouts (``None``: no limit; one of the two is needed).
            progress: told the playouts done, now and then.
            cancel: anything with ``is_set()``; when set, the search stops with what it has.

        Raises:
            ValueError: not at a choice wait, or neither limit given.
        """
        if seconds is None and playouts is None:
            raise ValueError("give a time limit, a playout budget or both")
        if not self._plain.root(snapshot):
            raise ValueError("the computer moves at a choice wait")
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        self._deadline, self._cancel = deadline, cancel
        kernel = self._kernel
        if kernel is not None and self.playouts.kernel and kernel.root(snapshot):
            try:
                return self._search(kernel, seed, start, playouts, progress)
            except KernelFallback as exc:
                # Rare (a node the kernel leaves alone, met late): the same search again on
                # the engine, within the same time, and on the engine from now on.
                self._kernel, self.tree_reason = None, str(exc)
            self._plain.root(snapshot)
        return self._search(self._plain, seed, start, playouts, progress)

    def _search(self, states: PlainStates | KernelStates, seed: int, start: float,
                playouts: int | None, progress: Callable[[int], None] | None) -> SearchResult:
        self.states = states
        self._rng = SplitMix64(seed % (1 << 64))
        self._table: dict[Any, _Node] = {}
        root = self._node()
        done = 0
        deadline, cancel = self._deadline, self._cancel
        forced = len(root.edges) == 1  # nothing to choose: played at once, time kept for later
        while not forced and root.proof is None and (playouts is None or done < playouts):
            self._iterate(root)
            done += 1
            # The clock every playout: one costs a millisecond or more on a big board, a clock
            # read well under a microsecond, and the time per move is a promise.
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if cancel is not None and cancel.is_set():
                break
            if progress is not None and done % _PROGRESS_EVERY == 0:
                progress(done)
        if progress is not None:
            progress(done)
        return SearchResult(
            index=self._choose(root), player=root.player or "", playouts=done,
            seconds=time.perf_counter() - start, positions=len(self._table), proof=root.proof,
            moves=tuple(self._stats(root, i) for i in range(len(root.edges))),
            path=self.playouts.path, tree=states.path,
        )

    # -- one playout --------------------------------------------------------------------------

    def _iterate(self, root: _Node) -> None:
        path: list[tuple[str, Any]] = []  # (mover, the stats object of the edge taken)
        nodes = [root]
        on_path = {id(root)}
        node = root
        result: dict | None
        while True:
            if node.proof is None:
                self._prove(node)  # its moves may have been proven through other positions
            if node.proof is not None:
                result = node.proof.result
                break
            index = self._select(node)
            edge = node.edges[index]
            mover = node.player
            if edge is None:  # expand: a new position, then a playout from it
                child, edge = self._expand(node, index)
                path.append((mover, edge))
                if edge is not child:
                    path.append((mover, child))
                result = child.proof.result if child.proof is not None else self._playout(child)
                nodes.append(child)
                break
            if isinstance(edge, _Chance):
                child, fresh = self._sample(node, index, edge)
                path.append((mover, edge))
                path.append((mover, child))  # the outcome's visits feed its own UCT
                nodes.append(child)
                if fresh or id(child) in on_path:
                    result = child.proof.result if child.proof is not None else self._playout(child)
                    break
            else:
                child = edge
                path.append((mover, child))
                nodes.append(child)
                if id(child) in on_path:  # a loop in the game: evaluate here rather than go round
                    result = self._playout(child)
                    break
            on_path.add(id(child))
            node = child
        root.visits += 1
        for mover, stats in path:
            stats.visits += 1
            stats.score[mover] = stats.score.get(mover, 0.0) + reward(result, mover)
        for node in reversed(nodes):
            if node.proof is None:
                self._prove(node)

    def _select(self, node: _Node) -> int:
        """An untried move first (in a random order), else UCT over the moves not proven."""
        if node.order is None:
            node.order = list(range(len(node.edges)))
            rng = self._rng
            for i in range(len(node.order) - 1, 0, -1):
                j = rng.below(i + 1)
                node.order[i], node.order[j] = node.order[j], node.order[i]
        while node.order:
            if node.edges[node.order[-1]] is None:
                return node.order[-1]
            node.order.pop()
        mover = node.player
        log_n = math.log(max(node.visits, 1))
        explore, sqrt = self.explore, math.sqrt
        best, best_value = -1, -1.0
        for i, edge in enumerate(node.edges):
            if edge.proof is not None:
                continue  # exact already: searching it again teaches nothing
            visits = edge.visits or 1  # never negative: max(visits, 1)
            value = edge.score.get(mover, 0.0) / visits + explore * sqrt(log_n / visits)
            if value > best_value:
                best, best_value = i, value
        return best

    def _node(self) -> _Node:
        """The position the states reached last, from the table or new."""
        key = self.states.key()
        node = self._table.get(key)
        if node is None:
            node = self._table[key] = _Node(self.states.made())
        return node

    def _expand(self, node: _Node, index: int) -> tuple[_Node, Any]:
        if not self.states.step(node.snap, index, None):  # no draw: the outcome is certain
            child = self._node()
            node.edges[index] = child
            child.parents.append(node)
            node.dirty = node.dirty or child.proof is not None
            return child, child
        chance = node.edges[index] = _Chance()
        child, _ = self._sample(node, index, chance)  # the run above saw the game's real RNG
        return child, chance

    def _sample(self, node: _Node, index: int, chance: _Chance) -> tuple[_Node, bool]:
        self.states.step(node.snap, index, float(self._rng.below(_RNG_STATES)))
        key = self.states.key()
        child = chance.outcomes.get(key)
        if child is not None:
            return child, False
        child = self._table.get(key) or _Node(self.states.made())
        self._table.setdefault(key, child)
        chance.outcomes[key] = child
        return child, True

    def _playout(self, node: _Node) -> dict | None:
        """Random moves from ``node`` to the end; ``None`` when cut short (worth a draw)."""
        rng = float(self._rng.below(_RNG_STATES))
        deadline, cancel = self._deadline, self._cancel

        def stop() -> bool:  # a long playout on a big board can outlast the time per move
            return (deadline is not None and time.perf_counter() >= deadline) or \
                (cancel is not None and cancel.is_set())

        return self.states.playout(node.snap, rng, self._rng, PLAYOUT_MOVES, stop)

    # -- proofs and the move chosen ---------------------------------------------------------

    def _prove(self, node: _Node) -> None:
        """Prove ``node`` from its moves: a proven win for its mover, or every move proven."""
        if not node.dirty:
            return  # no move proven since the last try: it would fail again
        node.dirty = False
        mover = node.player
        best, best_key = -1, None
        complete = True
        for i, edge in enumerate(node.edges):
            proof = None if edge is None else edge.proof
            if proof is None:
                complete = False
                continue
            value = reward(proof.result, mover)
            # higher value first; then a win or draw as soon as can be, a loss as late as can be
            key = (value, -proof.moves if value >= 0.5 else proof.moves)
            if best_key is None or key > best_key:
                best, best_key = i, key
        if best < 0 or not (complete or best_key[0] == 1.0):
            return
        child = node.edges[best]
        node.best = best
        node.proof = Proof(child.proof.result, child.proof.moves + 1)
        for parent in node.parents:
            parent.dirty = True

    def _choose(self, root: _Node) -> int:
        """The proven move; else the most searched move, unless a proven one is worth as much."""
        if root.proof is not None:
            return root.best
        mover = root.player
        searched, searched_key = -1, None
        proven, proven_value = -1, -1.0
        for i, edge in enumerate(root.edges):
            if edge is None:
                continue
            if isinstance(edge, _Node) and edge.proof is not None:
                value = reward(edge.proof.result, mover)
                if value > proven_value:
                    proven, proven_value = i, value
                continue
            key = (edge.visits, edge.score.get(mover, 0.0) / max(edge.visits, 1))
            if searched_key is None or key > searched_key:
                searched, searched_key = i, key
        if searched < 0 or (proven >= 0 and proven_value >= searched_key[1]):
            return max(proven, 0)
        return searched

    def _stats(self, root: _Node, index: int) -> MoveStats:
        edge = root.edges[index]
        if edge is None:
            return MoveStats(index, 0, 0.0, None)
        visits = edge.visits
        value = edge.score.get(root.player, 0.0) / visits if visits else 0.0
        return MoveStats(index, visits, value, edge.proof if isinstance(edge, _Node) else None)

