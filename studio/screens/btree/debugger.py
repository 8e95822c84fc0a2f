"""The debugger (btree.md §11.4): step the game node by node, with the executing node shown in
the authored and the compiled tree, the call stack, breakpoints and undo of every kind of step.

It drives the play screen's session through
:class:`~studio.engines.btree.runtime.debugger.Debugger`; leaving returns to play at the same state.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Header

from studio.engines.btree.editing.authored import authored_path, authored_path_of, via_paths
from studio.engines.btree.runtime.debugger import Debugger
from studio.engines.btree.editing.tree_view import at_label, node_at, spec_path
from studio.screens.btree.base import BtreeScreen
from studio.screens.btree.tree_lines import (
    compiled_lines,
    draw_compiled,
    draw_tree,
    visible_lines,
)
from studio.screens.formatting import counted
from studio.screens.btree.board_view import EdgeBoard
from studio.widgets.board import Board
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView, fold_lines

Path = tuple[int, ...]


RETURNED = {True: "true", False: "false", None: "not done yet (a child runs next)"}
"""A step's outcome in words: "→ None" said nothing of a node still running its children."""


def _steps(events, where: str) -> str:
    """"6 steps to the next wait (5 in the step budget)": the budget line counts only the steps
    that count against it, and the two numbers side by side read as a contradiction."""
    budget = sum(1 for event in events if event.counted)
    said = f"{counted(len(events), 'step')} {where}"
    return said if budget == len(events) else f"{said} ({budget} in the step budget)"


class DebuggerScreen(BtreeScreen):
    """Step mode over the play screen's game."""

    SCREEN_TITLE = "debugger"
    DEFAULT_CSS = """
    DebuggerScreen #left { width: 1fr; height: 1fr; }
    DebuggerScreen #right {
        width: 1fr; min-width: 44; height: 1fr; border-left: tall $primary 40%;
    }
    DebuggerScreen #stack { height: 1fr; padding: 0 1; overflow-x: hidden; }
    DebuggerScreen Board { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "step", "Step"),
        Binding("N", "action", "Action"),
        Binding("c", "choice", "To choice"),
        Binding("g", "run", "Run"),
        Binding("p", "undo_step", "Undo step"),
        Binding("P", "undo_action", "Undo action", show=False),
        Binding("C", "undo_choice", "Undo choice", show=False),
        Binding("full_stop", "breakpoint", "Breakpoint", key_display="."),
        Binding("t", "toggle_tree", "Compiled/authored", show=False),
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("home", "cursor(-1000000000)", "First", show=False),  # clamped: the first row
        Binding("end", "cursor(1000000000)", "Last", show=False),
        *[Binding(str(d), f"digit({d})", f"choice {d}", show=False) for d in range(1, 10)],
        Binding("space", "clear_display", "Clear display", show=False),
        Binding("escape,b", "back", "Play"),
    ]

    def __init__(self, document, play) -> None:
        super().__init__(document)
        self.play = play
        self.session = play.session
        self.debugger = Debugger(self.session.engine, self.session)
        self.show_compiled = False
        self.cursor: Path = ()
        self.compiled_cursor = 0
        self.message = "n step · N action · c to the next choice · g run to a breakpoint"
        self.busy = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield LinesView(id="left", focusable=False)
            with Vertical(id="right"):
                yield LinesView(id="stack", focusable=False)
                yield EdgeBoard(self.play._renderer(previewing=False), cursor=None)
        yield KeysFooter()

    # ---------------------------------------------------------------------------- drawing

    def on_resize(self) -> None:
        # The first picture is drawn on mount, before the panes have their width (the tree's
        # labels were cut to 20 columns until the first step).
        if self.is_mounted:
            self.call_after_refresh(self.refresh_view)  # once the panes have their new sizes

    def refresh_view(self) -> None:
        engine = self.session.engine
        path = engine.path()
        top = path[-1] if path else None
        compiled = self.play.compiled
        executing_authored = [p for p in (authored_path_of(compiled, i) for i in path)
                              if p is not None]
        current = authored_path_of(compiled, top) if top is not None else None
        if current is not None and not self.show_compiled:
            self.cursor = current
        view = self.query_one("#left", LinesView)
        width = max(view.text_width, 20)
        if self.show_compiled:
            parents: list[int | None] = [None] * len(compiled.nodes)
            for index, node in enumerate(compiled.nodes):
                for child in node.get("children") or ():
                    parents[compiled.index_of(child)] = index
            if top is not None:
                self.compiled_cursor = top
            picture = draw_compiled(compiled.nodes, compiled_lines(compiled.nodes, parents),
                                    width, self.styles_ui, self.compiled_cursor, executing=path)
            view.set_lines(picture.strips, picture.hits)
            view.show_line(self.compiled_cursor)
        else:
            breakpoints = [p for p in (authored_path(ref) for ref in self.debugger.breakpoints)
                           if p is not None]
            lines = visible_lines(self.model.tree, set())
            picture = draw_tree(lines, width, self.styles_ui, self.cursor, executing_authored,
                                breakpoints=breakpoints)
            view.set_lines(picture.strips, picture.hits)
            index = next((i for i, line in enumerate(lines) if line.path == self.cursor), 0)
            view.show_line(index)
        self._draw_stack()
        board = self.query_one(Board)
        board.renderer = self.play._renderer(previewing=False, room=board.size)

    def _draw_stack(self) -> None:
        styles = self.styles_ui
        debugger = self.debugger
        engine = self.session.engine
        lines: list[Text] = [
            Text(f"step budget {debugger.step_count} of {debugger.STEP_LIMIT:,} used · rng "
                 f"{debugger.rng_state:.0f}", styles.muted),
            Text(self.message, styles.accent),
        ]
        if engine.result is not None:
            lines.append(Text(self.session.result_text, styles.error))
        elif engine.waiting == "choice":
            many = len(engine.choices)
            keys = f"1-{many}" if many <= 9 else "their numbers"  # 3 choices said "1-9 choose"
            lines.append(Text(f"waiting: player {engine.choice_player}, "
                              f"{counted(many, 'choice')} ({keys} choose)", styles.warning))
        elif engine.waiting == "display":
            lines.append(Text("waiting: display (space clears)", styles.warning))
        lines.append(Text("call stack (top last):", styles.muted))
        compiled = self.play.compiled
        for frame in debugger.stack()[-12:]:
            origin = authored_path_of(compiled, frame.id)
            where = "@included" if origin is None else at_label(origin)
            via = via_paths(compiled, frame.id)
            extra = f" via {len(via)}" if via else ""
            lines.append(Text(f"{frame.id:>4} {frame.type} {frame.label}  {where}{extra}",
                              styles.text))
        view = self.query_one("#stack", LinesView)
        view.set_lines(fold_lines(lines, max(view.text_width, 20)))

    # ---------------------------------------------------------------------------- actions

    def _did(self, message: str) -> None:
        self.message = message
        self.refresh_view()

    def action_step(self) -> None:
        event = self.debugger.step()
        self._did("halted: a wait or the end" if event.node is None and event.result is None
                  else f"ran node {event.node} ({event.type}) → {RETURNED[event.returned]}")

    def action_action(self) -> None:
        self._long(lambda: _steps(self.debugger.next_action(), "to the next action"))

    def action_choice(self) -> None:
        self._long(lambda: _steps(self.debugger.next_choice(), "to the next wait"))

    def action_run(self) -> None:
        def run() -> str:
            stop = self.debugger.run()
            if stop.reason == "halted":
                return "nothing to run: the game waits for a choice or is over"
            return f"stopped: {stop.reason} after {counted(stop.steps, 'step')}"

        self._long(run)

    def _long(self, job) -> None:
        """Run a stepping job that may take up to 100,000 steps off the event loop."""
        if self.busy:
            return
        self.busy = True
        self.message = "running…"
        self._draw_stack()
        self._long_worker(job)

    @work(thread=True, exclusive=True, group="debug")
    def _long_worker(self, job) -> None:
        message = job()
        self.app.call_from_thread(self._long_done, message)

    def _long_done(self, message: str) -> None:
        self.busy = False
        self._did(message)

    def action_undo_step(self) -> None:
        self._did(f"undid {counted(self.debugger.undo_step(), 'step')}")

    def action_undo_action(self) -> None:
        self._did(f"undid {counted(self.debugger.undo_action(), 'step')} (action)")

    def action_undo_choice(self) -> None:
        self._did(f"undid {counted(self.debugger.undo_choice(), 'step')} (to the last wait)")

    def action_breakpoint(self) -> None:
        if self.show_compiled:
            origin = authored_path_of(self.play.compiled, self.compiled_cursor)
            if origin is None:
                self.notify("This node comes from an included file", timeout=2)
                return
            path = origin
        else:
            path = self.cursor
        spec = spec_path(path)
        marked = self.debugger.toggle_breakpoint(spec)
        node = node_at(self.model.tree, path)
        name = f"{node.get('type')}" + (f" #{node['nid']}" if node.get("nid") else "")
        self._did(("breakpoint set on " if marked else "breakpoint cleared on ") +
                  f"{name} {at_label(path)}")

    def action_toggle_tree(self) -> None:
        self.show_compiled = not self.show_compiled
        self.refresh_view()

    def action_cursor(self, delta: int) -> None:
        if self.show_compiled:
            count = len(self.play.compiled.nodes)
            self.compiled_cursor = min(max(self.compiled_cursor + delta, 0), count - 1)
        else:
            paths = [line.path for line in visible_lines(self.model.tree, set())]
            index = paths.index(self.cursor) if self.cursor in paths else 0
            self.cursor = paths[min(max(index + delta, 0), len(paths) - 1)]
        self._redraw_left()

    def _redraw_left(self) -> None:
        view = self.query_one("#left", LinesView)
        width = max(view.text_width, 20)
        if self.show_compiled:
            self.refresh_view()
            return
        breakpoints = [p for p in (authored_path(ref) for ref in self.debugger.breakpoints)
                       if p is not None]
        lines = visible_lines(self.model.tree, set())
        picture = draw_tree(lines, width, self.styles_ui, self.cursor, breakpoints=breakpoints)
        view.set_lines(picture.strips, picture.hits)

    def action_digit(self, digit: int) -> None:
        engine = self.session.engine
        if engine.waiting == "choice" and digit <= len(engine.choices):
            self.debugger.choose(digit - 1)
            self._did(f"chose {digit}")

    def action_clear_display(self) -> None:
        if self.session.engine.waiting == "display":
            self.debugger.clear_display()
            self._did("display cleared")

    @on(LinesView.Clicked, "#left")
    def _clicked(self, message: LinesView.Clicked) -> None:
        if self.show_compiled:
            self.compiled_cursor = message.key
        else:
            self.cursor = message.key
        self._redraw_left()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "redo"):
            return False  # it runs the tree play compiled: an edit undone here was never seen
        if self.busy and action in ("step", "action", "choice", "run", "undo_step", "undo_action",
                                    "undo_choice", "digit", "clear_display", "back"):
            return False  # one stepping job at a time
        return super().check_action(action, parameters)

    def action_back(self) -> None:
        self.dismiss(None)
        self.play.resume_after_debugger()
