"""Play (btree.md §11.3): the board with every offered choice outlined, the choice list, and
every way of choosing: buttons, numbers, the list, a board cursor, the mouse.

The screen drives a :class:`~studio.engines.btree.play.session.PlaySession` (the one ``studio run``
uses; ``play_view.py`` draws it), lets the engine run in a worker thread between waits, shows display waits and automatic
seats' moves for their delay, and undoes and redoes whole choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Header

from studio.engines.btree import BtreeError, Compiled
from studio.engines.btree.play.session import (
    AutoMove, ChoiceWait, DisplayWait, GameOver, PlaySession, Thinking,
)
from studio.screens.btree.board_view import EdgeBoard
from studio.screens.btree.play_computer import ComputerTurns
from studio.screens.btree.play_view import SPEEDS
from studio.sessions import warmup
from studio.storage.btree.project import compile_model
from studio.widgets.board import Board
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

KEY_BUTTONS = {"up": "up", "down": "down", "left": "left", "right": "right", "z": "action1",
               "x": "action2"}
AUTO_DELAY = 0.4
"""Seconds an automatic seat's move is shown before it is made (times the speed factor)."""
QUEUE_LIMIT = 16
"""Move keys kept while the game is not waiting for one (more are dropped: a held key)."""
MOVE_ACTIONS = frozenset({"apply", "select", "digit", "button", "cursor", "skip_display"})
"""The keys that make or choose a move: not offered once the game is over."""


class BtreePlayScreen(ComputerTurns):
    """Play the game from the start (or step through it with ``b``)."""

    HELP_ABOUT: ClassVar[str] = (
        "The game runs until a player must choose: every move the tree offers is outlined on "
        "the board and listed beside it. Choose by its button, its number, the list (tab, "
        "enter), the board cursor (shift+arrows) or the mouse. A computer seat thinks while "
        "keys still work; u undoes a whole move (yours and the computer's reply); the "
        "debugger (b) steps through the tree; s asks the solver for a way to win; B lets the "
        "computer play itself to show whether the game favours a seat; c hands the seat to move "
        "to the computer, or takes it back.")

    SCREEN_TITLE = "play"
    DEFAULT_CSS = """
    BtreePlayScreen #status { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    BtreePlayScreen #panes { height: 1fr; }
    BtreePlayScreen Board { width: 1fr; height: 1fr; }
    BtreePlayScreen #choices { width: 40; height: 1fr; border-left: tall $primary 40%;
                               padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(key, f"button('{button}')", f"{button}", show=False)
          for key, button in KEY_BUTTONS.items()],
        *[Binding(str(d), f"digit({d})", f"move {d or 10}", show=False) for d in range(10)],
        Binding("enter", "apply", "Apply"),
        Binding("tab,j", "select(1)", "Next choice"),
        Binding("shift+tab,k", "select(-1)", "Prev choice", show=False),
        Binding("shift+up", "cursor(0, -1)", "Cursor up", show=False),
        Binding("shift+down", "cursor(0, 1)", "Cursor down", show=False),
        Binding("shift+left", "cursor(-1, 0)", "Cursor left", show=False),
        Binding("shift+right", "cursor(1, 0)", "Cursor right", show=False),
        Binding("u,ctrl+z", "undo_choice", "Undo"),
        Binding("U,ctrl+y", "redo_choice", "Redo"),
        Binding("space", "skip_display", "Skip wait", show=False),
        Binding("r", "restart(True)", "New seed"),
        Binding("comma", "settings", "Settings", key_display=","),
        Binding("R", "restart(False)", "Same seed", show=False),
        Binding("b", "debugger", "Debug"),
        Binding("s", "solver", "Solve"),
        Binding("B", "balance", "Balance", show=False),
        Binding("c", "computer_seat", "Computer plays", show=False),
        Binding("l", "layers", "Layers", show=False),
        Binding("underscore", "hidden", "Hidden tiles", show=False, key_display="_"),
        Binding("plus", "width(1)", "Wider", show=False, key_display="+"),
        Binding("minus", "width(-1)", "Narrower", show=False, key_display="-"),
        Binding("left_square_bracket", "speed(-1)", "Faster", show=False, key_display="["),
        Binding("right_square_bracket", "speed(1)", "Slower", show=False, key_display="]"),
        Binding("ctrl+s", "save_replay", "Save replay"),
        Binding("e,escape", "back", "Back"),
    ]

    def __init__(self, document, seed: int | None = None, debug: bool = False) -> None:
        super().__init__(document)
        self.start_debugger = debug
        compiled = compile_model(self.model)
        if isinstance(compiled, BtreeError):
            raise compiled
        self.compiled: Compiled = compiled
        self.session = PlaySession(compiled, self.model.seed if seed is None else seed,
                                   self.model.seats, computer_playouts=self.computer_playouts)
        self.wait: Any = None
        self.busy = False
        self.selected: int | None = None
        """The choice picked in the list (tab), previewed on the board; none until asked."""
        self.digits = ""
        self.board_cursor: tuple[int, int] | None = None
        self.hover: tuple[int, int] | None = None
        self.speed_index = 3
        self.extra_width = 0
        self.show_hidden = bool(self.model.display.get("show_hidden", False))
        self.hidden_layers: set[str] = set()
        self.timer: Timer | None = None
        self.colours: dict[str, str] = {}
        self.following = False
        """Show the solver's move at each choice (after a solve); enter plays it."""
        self._over = False
        """The game has ended: the move keys are not offered."""
        self.queued: list[tuple[Callable[[], None], bool]] = []
        """Keys pressed while the engine ran or a display showed, made at the next choice in
        the order typed (a burst lost all but the first): (action, an undo or redo, which also
        runs at a game's end)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="status", classes="-bar", focusable=False)
        with Horizontal(id="panes"):
            yield EdgeBoard(self._renderer(), cursor=None)
            yield LinesView(id="choices", focusable=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        # Ready the solver's kernel in the background now (a process of its own), so that `s`
        # finds it loaded rather than searching on the slow path meanwhile.
        warmup.ready(warmup.SOLVER)
        # `s` then finds numba imported (0.6 s on the event loop otherwise); after the first
        # frame, which the import would hold back.
        self.call_after_refresh(warmup.preload, "studio.engines.btree.search.solver")
        if self.start_debugger:
            self.call_after_refresh(self.action_debugger)
        else:
            self.advance()

    def on_unmount(self) -> None:
        super().on_unmount()
        self._stop_timer()

    # ---------------------------------------------------------------------------- running

    def advance(self) -> None:
        """Let the engine run to the next wait (in a worker thread: games can be long)."""
        if self.busy:
            return
        self.busy = True
        self.wait = None
        self._game_over(False)  # a restart: moves typed from now on are kept for the new game
        self._draw_status()
        self._advance_worker()

    @work(thread=True, exclusive=True, group="advance")
    def _advance_worker(self) -> None:
        wait = self.session.advance(think=False)  # a computer seat thinks in a worker of its own
        self.app.call_from_thread(self._arrived, wait)

    def _arrived(self, wait: Any) -> None:
        self.busy = False
        self.wait = wait
        self._game_over(isinstance(wait, GameOver))
        self.selected = None
        self.digits = ""
        self._stop_timer()
        speed = SPEEDS[self.speed_index]
        if isinstance(wait, DisplayWait):
            self.timer = self.set_timer(max(wait.delay * speed, 0.01), self._display_done)
        elif isinstance(wait, AutoMove):
            self.timer = self.set_timer(max(AUTO_DELAY * speed, 0.01), self.advance)
        elif isinstance(wait, Thinking):
            self.think(wait)
        self._draw()
        if self.queued and (isinstance(wait, ChoiceWait) or self.queued[0][1]):
            self.queued.pop(0)[0]()
        elif not isinstance(wait, (DisplayWait, AutoMove, Thinking)):
            self.queued.clear()  # the game is over: nothing left to move

    def _game_over(self, over: bool) -> None:
        if over != self._over:
            self._over = over
            self.refresh_bindings()

    def _held(self, action: Callable[[], None]) -> bool:
        """Keep a move key for the next choice when the game is not waiting for one."""
        if not (self.busy or isinstance(self.wait, (DisplayWait, Thinking))):
            return False
        if len(self.queued) < QUEUE_LIMIT:
            self.queued.append((action, False))
        return True

    def _stop_timer(self) -> None:
        self.cancel_thinking()  # whatever stops the clock leaves the position searched
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def _display_done(self) -> None:
        if isinstance(self.wait, DisplayWait) and self.session.engine.waiting == "display":
            self.session.clear_display()
            self.advance()

    def apply(self, index: int) -> None:
        """Make choice ``index`` (for a human seat, or instead of an automatic seat's pick)."""
        if self.busy or not self.choices or not 0 <= index < len(self.choices):
            return
        self._stop_timer()
        self.session.choose(index)
        self.board_cursor = None
        self.advance()

    # ---------------------------------------------------------------------------- actions

    def action_button(self, button: str) -> None:
        if self._held(lambda: self.action_button(button)):
            return
        index = self.session.engine.choices_by_button.get(button)
        if index is not None and self.choices:
            self.apply(index)

    def action_digit(self, digit: int) -> None:
        if self._held(lambda: self.action_digit(digit)):
            return
        count = len(self.choices)
        if not count:
            return
        if count <= 10 and not self.digits:
            self.apply(9 if digit == 0 else digit - 1)
            return
        self.digits += str(digit)
        if int(self.digits) * 10 > count:  # no longer number can start with these digits
            number, self.digits = int(self.digits), ""
            if 1 <= number <= count:
                self.apply(number - 1)
                return
        self._draw_status()

    def action_apply(self) -> None:
        if self._held(self.action_apply):
            return
        if self.digits:
            number, self.digits = int(self.digits), ""
            if 1 <= number <= len(self.choices):
                self.apply(number - 1)
            return
        index = self.previewed()
        if index is not None:
            self.apply(index)

    def action_select(self, delta: int) -> None:
        count = len(self.choices)
        if not count:
            return
        under = self._under(self.board_cursor)
        limit = len(under) if under else count
        if self.selected is None:
            self.selected = 0 if delta > 0 else limit - 1
        else:
            self.selected = (self.selected + delta) % limit
        self._draw()

    def action_cursor(self, dx: int, dy: int) -> None:
        engine = self.session.engine
        if not engine.rows:
            return
        col, row = self.board_cursor or (0, 0)
        self.board_cursor = (min(max(col + dx, 0), engine.cols - 1),
                             min(max(row + dy, 0), engine.rows - 1))
        self.selected = None
        self._draw()

    def on_board_cell_hovered(self, message: Board.CellHovered) -> None:
        if message.cell != self.hover:
            self.hover = message.cell
            if self.choices:
                self._draw()

    def on_board_cell_clicked(self, message: Board.CellClicked) -> None:
        under = self._under((message.x, message.y))
        if under:
            self.apply(under[0])

    @on(LinesView.Clicked, "#choices")
    def _choice_clicked(self, message: LinesView.Clicked) -> None:
        self.apply(message.key)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self.action_select(1)

    def _queue_history(self, action: Callable[[], None]) -> None:
        if len(self.queued) < QUEUE_LIMIT:  # for when the engine waits: u u u undoes three
            self.queued.append((action, True))

    def action_undo_choice(self) -> None:
        if self.busy:
            return self._queue_history(self.action_undo_choice)
        if self.thinking is not None:
            self.queued.clear()  # moves typed for after the computer's reply: it is not coming
        if self.session.undo():
            self._stop_timer()
            self.advance()
        else:
            self.app.notify_in_place("history", "Nothing to undo", timeout=2)

    def action_redo_choice(self) -> None:
        if self.busy:
            return self._queue_history(self.action_redo_choice)
        if self.session.redo():
            self._stop_timer()
            self.advance()
        else:
            self.app.notify_in_place("history", "Nothing to redo", timeout=2)

    def action_skip_display(self) -> None:
        if isinstance(self.wait, DisplayWait):
            self._stop_timer()
            self._display_done()

    def action_restart(self, new_seed: bool) -> None:
        if self.busy:
            return
        self._stop_timer()
        self.queued.clear()
        seed = random.SystemRandom().randrange(2**31) if new_seed else None
        self.session.restart(seed)
        self.notify(f"Restarted with seed {self.session.seed}", timeout=2)
        self.advance()

    def action_debugger(self) -> None:
        from studio.screens.btree.debugger import DebuggerScreen

        if not self.busy:
            # The debugger drives the session from here: a display or automatic move timer left
            # running would step the game under it (and clear a display it already cleared).
            self._stop_timer()
            self.app.push_screen(DebuggerScreen(self.document, self))

    def action_solver(self) -> None:
        from studio.screens.btree.solver import SolverScreen

        if not self.busy:
            self._stop_timer()
            self.app.push_screen(SolverScreen(self.document, self))

    def action_save_replay(self) -> None:
        from studio.storage.btree.replay import save_replay

        if self.document.path is None:
            self.notify("Save the project first", severity="warning")
            return
        target = save_replay(self.document.path, self.document.project, self.session.replay_data)
        self.notify(f"Replay saved: {target.name}", timeout=3)

    def resume_after_debugger(self) -> None:
        """Back from the debugger or the solver: run on to the next wait from where it is."""
        self._stop_timer()
        self.busy = False
        self.advance()

    def follow_solution(self) -> None:
        """Show the solver's line move by move."""
        self.following = True
        self.resume_after_debugger()

    def action_back(self) -> None:
        self._stop_timer()
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "redo", "save", "save_as"):
            return False  # playing edits nothing
        if action in MOVE_ACTIONS and self._over:
            return False  # nothing left to choose: the footer offers what is left to do
        return super().check_action(action, parameters)
