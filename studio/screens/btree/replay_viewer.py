"""The replay viewer of behaviour-tree games: a saved play run (``NAME.btreplay.json``) stepped
through on the board, drawn as play draws it; nothing here changes the project."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Header

from studio.engines.btree import BtreeError
from studio.engines.btree.play.replay import ReplayMismatch, ReplayRun
from studio.engines.btree.play.waits import GameOver
from studio.screens.btree.base import open_document
from studio.screens.btree.play_view import PlayView
from studio.screens.formatting import inert
from studio.storage import ProjectError, load_project
from studio.storage.btree.project import compile_model
from studio.storage.btree.replay import BtreeReplay, load_replay, replay_changed, \
    replay_project_path
from studio.storage.btree.trrbt import as_project_error
from studio.widgets.board import Board
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView, fold_lines

PLAY_PERIOD = 0.5
"""Seconds between moves while the replay plays on its own (space)."""


def open_replay(path: Path) -> BtreeReplayScreen:
    """The viewer on a replay and the project it was played on (the ``.toml`` of its name).

    Raises:
        ProjectError: the replay or its project cannot be read, or the game does not compile.
    """
    replay = load_replay(path)
    project_path = replay_project_path(path)
    if not project_path.exists():
        raise ProjectError(f"its project {project_path.name} is not beside the replay", file=path,
                           hint="a replay plays on the project it is named after: put them together")
    project = load_project(project_path)
    if project.kind != "btree":
        raise ProjectError(f"{project_path.name} is a {project.kind} project, not a behaviour tree",
                           file=path)
    document = open_document(project)
    compiled = compile_model(document.model)
    if isinstance(compiled, BtreeError):
        raise as_project_error(compiled, project_path)
    return BtreeReplayScreen(document, replay, path, compiled, replay_changed(replay, project))


class BtreeReplayScreen(PlayView, inherit_bindings=False):
    """Step through a recorded run: the next move of the run is shown in place and in the list."""

    HELP_ABOUT: ClassVar[str] = (
        "A saved play run (ctrl+s in play) replayed on its game: the board after each move, "
        "the move the run makes next drawn in place and highlighted in the list. Automatic "
        "players' moves are replayed as they were made, not picked again.")
    SCREEN_TITLE = "replay"
    DEFAULT_CSS = """
    BtreeReplayScreen #status { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    BtreeReplayScreen #panes { height: 1fr; }
    BtreeReplayScreen Board { width: 1fr; height: 1fr; }
    BtreeReplayScreen #choices { width: 44; height: 1fr; border-left: tall $primary 40%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n", "step(1)", "Step"),
        Binding("left,p", "step(-1)", "Back"),
        Binding("space", "play", "Play/pause"),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home", "go_to(0)", "First", show=False),
        Binding("end", "go_to(-1)", "Last", show=False),
        Binding("underscore", "hidden", "Hidden tiles", show=False, key_display="_"),
        Binding("escape", "back", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("play", "Play/pause the replay", "Make the run's moves one after another (space)"),
        ("go_to(0)", "First move", "Back to the start of the run (home)"),
        ("go_to(-1)", "Last move", "On to the end of the run (end)"),
    ]

    def __init__(self, document, replay: BtreeReplay, path: Path, compiled,
                 changed: bool) -> None:
        super().__init__(document)
        self.replay, self.path, self.changed = replay, path, changed
        self.run = ReplayRun(compiled, replay.seed, replay.choices, replay.board)
        self.session, self.wait = self.run.session, self.run.wait
        self.selected: int | None = self.run.next_choice
        self.board_cursor = self.hover = None
        self.show_hidden = bool(self.model.display.get("show_hidden", False))
        self.hidden_layers: set[str] = set()
        self.colours: dict[str, str] = {}
        self.timer: Timer | None = None
        self.problem = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="status", classes="-bar", focusable=False)
        with Horizontal(id="panes"):
            board = Board(self._renderer(), cursor=None)
            board.can_focus = False
            yield board
            yield LinesView(id="choices", focusable=False)
        yield KeysFooter()

    def palette_commands(self) -> Iterator[tuple[str, str, str]]:
        for action, title, help_text in self.PALETTE:
            yield title, help_text, action

    # ---------------------------------------------------------------------------- stepping

    def _moved(self) -> None:
        self.wait, self.selected = self.run.wait, self.run.next_choice
        self._draw()

    def action_step(self, delta: int) -> None:
        try:
            self.run.step(delta)
        except ReplayMismatch as exc:
            self.problem = str(exc)
            self._stop()
        self._moved()

    def action_go_to(self, position: int) -> None:
        self.action_step((len(self.replay.choices) if position < 0 else position)
                         - self.run.position)

    def action_play(self) -> None:
        if self.timer is not None:
            self._stop()
        else:
            if self.run.at_end:
                self.action_go_to(0)
            self.timer = self.set_interval(PLAY_PERIOD, self._tick)
        self._draw_status()

    def _tick(self) -> None:
        if self.run.at_end or self.problem:
            self._stop()
            self._draw_status()
            return
        self.action_step(1)

    def _stop(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def action_hidden(self) -> None:
        self.show_hidden = not self.show_hidden
        self._draw()

    def on_unmount(self) -> None:
        super().on_unmount()
        self._stop()

    # ---------------------------------------------------------------------------- drawing

    def _draw_status(self) -> None:
        run, replay = self.run, self.replay
        if isinstance(self.wait, GameOver):
            state = self.wait.text
        elif run.next_choice is not None:
            state = f"next: player {self.session.engine.choice_player} plays {run.next_choice + 1}"
        else:
            state = "the run ends here (not finished)"
        playing = " · playing (space pauses)" if self.timer is not None else ""
        notes = " · the project changed since this run" if self.changed else ""
        if self.problem:
            notes += f" · {self.problem}"
        text = (f"{inert(self.path.name)}: move {run.position} of {len(replay.choices)} · {state}"
                f"{playing} · seed {replay.seed}{notes}")
        view = self.query_one("#status", LinesView)
        style = self.styles_ui.error if self.problem else self.styles_ui.text
        view.set_lines(fold_lines([Text(text, style)],
                                  max(view.size.width - 2, 20) if view.size.width else 78))
