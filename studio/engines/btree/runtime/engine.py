"""The explicit-stack stepper (§7, §8): exact reference semantics, pauses at every wait.

One *step* is one call of the node on top of the stack. ``step()`` reports what ran;
``run_to_wait()``/``run_to_choice()`` run the same machine in a tight loop without events.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from studio.engines.btree.model.board import Board
from studio.engines.btree.runtime.boardstate import BoardState, RunError
from studio.engines.btree.runtime.controls import make_control
from studio.engines.btree.model.errors import BtreeError
from studio.engines.btree.runtime.events import StepEvent
from studio.engines.btree.runtime.nodes import CONTROL_TYPES, TILE_TYPES, Node, flatten
from studio.engines.btree.runtime.rng import Rng
from studio.engines.btree.runtime.snapshot import Snapshot, freeze_frame, thaw_frame
from studio.engines.btree.runtime.choice import Choice
from studio.engines.btree.runtime.tiles import make_tile

STEP_LIMIT = 100_000  # the reference's ENG_LOOP_CHECK_MAX


class Program:
    """A compiled game prepared for execution, shareable by many engines.

    Args:
        compiled: the compiled game ``{"name": ..., "tree": node}`` (expanded JSON shape), its
            root node, or the compiler's ``Compiled`` object.

    Raises:
        BtreeError: the game has no tree.
    """

    def __init__(self, compiled: Any) -> None:
        # The compiler's ``Compiled`` (duck-typed: anything with ``to_json()``) keeps the map
        # back to authored nodes; its node numbering is the same pre-order as ours.
        self.compiled = compiled if not isinstance(compiled, Mapping) else None
        if self.compiled is not None:
            compiled = compiled.to_json()
        root = compiled if "type" in compiled else compiled.get("tree")
        if not isinstance(root, Mapping):
            raise BtreeError("the game has no tree", node_path="tree")
        self.name: str = "" if "type" in compiled else str(compiled.get("name", ""))
        self.nodes: list[Node] = flatten(root)


class Engine:
    """A running game: the state of §3.3 around an immutable compiled tree.

    Args:
        compiled: a ``Program`` (share one between engines of the same game), or anything a
            ``Program`` accepts: the compiled game ``{"name": ..., "tree": node}`` (expanded
            JSON shape), its root node, or the compiler's ``Compiled``.
        reference: match with the plain-Python reference matcher instead of the tile index
            (the baseline of the benchmarks and of the equivalence tests).

    Attributes:
        result: ``None`` while running, else ``{"result": win/lose/draw/stalemate/stepout/error,
            "player"?, "message"?, "node"?}`` (§7.8).
        step_count: counted steps since the last budget reset (the reference's ``loopCheck``).
        choices, choice_player, choices_by_rect, choices_by_button: the current offer (§7.6).
        display_delay: the ``delay`` of the pending display wait.
        rng: the engine RNG (``Rng``).
    """

    def __init__(self, compiled: "Mapping[str, Any] | Program", reference: bool = False) -> None:
        program = compiled if isinstance(compiled, Program) else Program(compiled)
        self.program = program
        self.name = program.name
        self.nodes: list[Node] = program.nodes
        self._fns = [self._make_call(node) for node in self.nodes]
        self.rng = Rng()
        self._board = BoardState(reference)
        self._stack: list[list] | None = None
        self._prev: bool | None = None
        self.result: dict | None = None
        self.step_count = 0
        self._display_wait = False
        self._display_done = False
        self.display_delay: Any = 0
        self._choice_wait = False
        self._choice_made: Choice | None = None
        self.choice_player: Any = None
        self.choices: tuple[Choice, ...] = ()
        self.choices_by_rect: dict[tuple[int, int, int, int], list[int]] = {}
        self.choices_by_button: dict[Any, int] = {}
        self._halt = False  # a result or a wait is pending: nothing runs
        self._track: list | None = None
        self._replaced = False

    def _make_call(self, node: Node):
        if node.type in TILE_TYPES or node.type == "player":
            return make_tile(self, node)
        if node.type in CONTROL_TYPES:
            return make_control(self, node)
        return make_tile(self, node)  # unknown type: a call that reports an error

    # -- set-up -----------------------------------------------------------------------------

    def seed(self, seed: int) -> None:
        """Seed the engine RNG (§7.7)."""
        self.rng.seed(seed)

    def set_board(self, board: Board | Mapping[str, Sequence[Sequence[str]]]) -> None:
        """Inject a board (before the first step, e.g. for ``*-gameloop`` files)."""
        self._board.load(board.layers if isinstance(board, Board) else board)

    # -- state ------------------------------------------------------------------------------

    @property
    def board(self) -> Board | None:
        """The current board (immutable, shares rows with the engine), ``None`` before any."""
        return self._board.freeze()

    def board_dict(self) -> dict[str, list[list[str]]] | None:
        """The current board in the JSON shape ``{layer: [[tile, ...], ...]}`` (fresh lists)."""
        board = self._board.freeze()
        return None if board is None else board.to_json()

    def board_key(self) -> tuple | None:
        """A hashable identity of the board alone (layer order included)."""
        return self._board.key()

    @property
    def rows(self) -> int:
        """Rows of the board (0 before any board)."""
        return self._board.rows

    @property
    def cols(self) -> int:
        """Columns of the board (0 before any board)."""
        return self._board.cols

    @property
    def waiting(self) -> str | None:
        """``"choice"``, ``"display"`` or ``None``."""
        if self._choice_wait:
            return "choice"
        if self._display_wait:
            return "display"
        return None

    @property
    def over(self) -> bool:
        """Whether the game has a result."""
        return self.result is not None

    def path(self) -> list[int]:
        """Compiled node ids on the stack, root first."""
        return [] if self._stack is None else [f[0] for f in self._stack]

    def origin(self, node_id: int) -> Any:
        """The authored node compiled node ``node_id`` came from (``None`` without that map)."""
        source = self.program.compiled
        return None if source is None else source.origin[node_id]

    def via(self, node_id: int) -> tuple:
        """The transform/link/include nodes that produced compiled node ``node_id``."""
        source = self.program.compiled
        return () if source is None else tuple(source.via[node_id])

    # -- waits ------------------------------------------------------------------------------

    def _start_display(self, delay: Any) -> None:
        self._display_wait = True
        self._display_done = False
        self.display_delay = delay
        self._halt = True

    def _start_choice(self, pid: Any, choices: list[Choice]) -> None:
        self.choice_player = pid
        self.choices = tuple(choices)
        by_rect: dict[tuple[int, int, int, int], list[int]] = {}
        by_button: dict[Any, int] = {}
        for i, ch in enumerate(choices):
            if ch.mouse is not False:
                pat = ch.rhs_pattern
                by_rect.setdefault((ch.row, ch.col, pat.rows, pat.cols), []).append(i)
            if ch.button is not None:
                by_button[ch.button] = i  # the last choice with that button wins
        self.choices_by_rect = by_rect
        self.choices_by_button = by_button
        self._choice_wait = True
        self._halt = True

    def choose(self, index: int, reset: bool = True) -> None:
        """Clear the choice wait with choice ``index``; its rhs is written at once (§7.6).

        Raises:
            ValueError: no choice wait is pending.
            IndexError: ``index`` is out of range.
        """
        if not self._choice_wait:
            raise ValueError("the engine is not waiting for a choice")
        if not 0 <= index < len(self.choices):
            raise IndexError(f"choice {index} out of range 0..{len(self.choices) - 1}")
        choice = self.choices[index]
        self._choice_wait = False
        self.choices = ()
        self.choices_by_rect = {}
        self.choices_by_button = {}
        self.choice_player = None
        self._choice_made = choice
        self._halt = False
        if reset:
            self.step_count = 0
        try:
            self._board.write(choice.rhs_pattern, choice.row, choice.col, self._track)
        except RunError as exc:
            self._error(str(exc), choice.node)

    def clear_display(self, reset: bool = True) -> None:
        """Clear the display wait (the next call of the display node returns True)."""
        if not self._display_wait:
            raise ValueError("the engine is not waiting for a display")
        self._display_wait = False
        self._display_done = True
        self._halt = self.result is not None
        if reset:
            self.step_count = 0

    def _finish(self, result: dict) -> None:
        self.result = result
        self._halt = True

    def _error(self, message: str, node_id: int | None) -> None:
        where = ""
        if node_id is not None and 0 <= node_id < len(self.nodes):
            where = f"node {node_id} ({self.nodes[node_id].type}): "
        self._finish({"result": "error", "message": where + message, "node": node_id})

    # -- stepping ---------------------------------------------------------------------------

    def step(self) -> StepEvent:
        """One step (§7.1); never raises. Does nothing while a wait or a result is pending."""
        if self._halt:
            return StepEvent()
        stack = self._stack
        if stack is None:
            self._stack = [[0, 0, False, None]]
            return StepEvent(node=0, type=self.nodes[0].type)
        if not stack:
            self._finish({"result": "stalemate"})
            return StepEvent(result=self.result)
        self.step_count += 1
        if self.step_count >= STEP_LIMIT:
            self._finish({"result": "stepout"})
            return StepEvent(counted=True, result=self.result)
        frame = stack[-1]
        node_id = frame[0]
        self._track = []
        self._replaced = False
        try:
            returned = self._fns[node_id](frame, self._prev)
        except RunError as exc:
            returned = None
            self._error(str(exc), node_id)
        except Exception as exc:  # an internal failure must not escape step()
            returned = None
            self._error(f"internal error: {exc!r}", node_id)
        changed = tuple(self._track)
        self._track = None
        self._prev = returned
        if returned is not None:
            stack.pop()
        return StepEvent(
            node=node_id,
            type=self.nodes[node_id].type,
            returned=returned,
            counted=True,
            wait=self.waiting,
            result=self.result,
            changed=changed,
            board_replaced=self._replaced,
        )

    def step_action(self) -> list[StepEvent]:
        """Step until a tile node has returned, or a wait/result; returns the events."""
        events = []
        while not self._halt:
            event = self.step()
            events.append(event)
            if event.returned is not None and event.type in TILE_TYPES:
                break
        return events

    def run_to_wait(self) -> str | None:
        """Step until a wait or a result (the reference ``stepToWait``); returns ``waiting``."""
        if self._halt:
            return self.waiting
        if self._stack is None:
            self._stack = [[0, 0, False, None]]
        stack = self._stack
        fns = self._fns
        prev = self._prev
        count = self.step_count
        limit = STEP_LIMIT
        frame = None
        try:
            while True:
                if not stack:
                    self._finish({"result": "stalemate"})
                    break
                count += 1
                if count >= limit:
                    self._finish({"result": "stepout"})
                    break
                frame = stack[-1]
                prev = fns[frame[0]](frame, prev)
                if prev is None:
                    if self._halt:
                        break
                else:
                    stack.pop()
        except RunError as exc:
            prev = None
            self._error(str(exc), frame[0])
        except Exception as exc:
            prev = None
            self._error(f"internal error: {exc!r}", frame[0] if frame else None)
        except BaseException:
            # Interrupted inside a call (e.g. the successor oracle asking for a decision, which
            # happens before the call changes anything): leave the state just before that call.
            self._prev = prev
            self.step_count = count - 1
            raise
        self._prev = prev
        self.step_count = count
        return self.waiting

    def run_to_choice(self) -> str | None:
        """As ``run_to_wait``, clearing display waits without a budget reset."""
        while True:
            waiting = self.run_to_wait()
            if waiting != "display":
                return waiting
            self.clear_display(reset=False)

    # -- snapshots --------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The whole run-time state; rows are shared, the tree is never copied."""
        return Snapshot(
            board=self._board.copy(),
            stack=None if self._stack is None else tuple(freeze_frame(f) for f in self._stack),
            prev=self._prev,
            result=None if self.result is None else dict(self.result),
            step_count=self.step_count,
            rng=self.rng.state,
            display=(self._display_wait, self._display_done, self.display_delay),
            choice=(self._choice_wait, self._choice_made, self.choice_player, self.choices,
                    self.choices_by_rect, self.choices_by_button),
        )

    def restore(self, snap: Snapshot) -> None:
        """Return to a snapshot (it can be restored again later)."""
        self._board = snap.board.copy()
        self._stack = None if snap.stack is None else [thaw_frame(f) for f in snap.stack]
        self._prev = snap.prev
        self.result = None if snap.result is None else dict(snap.result)
        self.step_count = snap.step_count
        self.rng.state = snap.rng
        self._display_wait, self._display_done, self.display_delay = snap.display
        (self._choice_wait, self._choice_made, self.choice_player, self.choices,
         self.choices_by_rect, self.choices_by_button) = snap.choice
        self._halt = self.result is not None or self._display_wait or self._choice_wait

    def key(self) -> tuple:
        """Hashable identity of the state (not ``step_count``): equal keys run identically."""
        made = self._choice_made
        result = None if self.result is None else tuple(sorted((k, str(v)) for k, v in self.result.items()))
        return (
            self._board.key(),
            None if self._stack is None else tuple(freeze_frame(f) for f in self._stack),
            self._prev,
            self.rng.state,
            result,
            self._display_wait,
            self._display_done,
            self._choice_wait,
            None if made is None else (made.key or (made.node, made.row, made.col)),
        )
