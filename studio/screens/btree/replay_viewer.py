"""The replay viewer of behaviour-tree games: a saved play run (``NAME.btreplay.json``) stepped
through on the board, drawn as play draws it; nothing here changes the project."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Header

from studio.engines.btree import BtreeError
from studio.engines.btree.play.replay import ReplayMismatch, ReplayRun, Verdict, verify_run
from studio.engines.btree.play.waits import GameOver
from studio.screens.btree.base import open_document
from studio.screens.btree.play_view import PlayView
from studio.screens.dialogs import NameDialog
from studio.screens.formatting import inert
from studio.screens.replay_keys import replay_bindings
from studio.storage import ProjectError, load_project
from studio.storage.btree.project import compile_model
from studio.storage.btree.replay import BtreeReplay, load_replay, replay_changed, \
    replay_project_path
from studio.storage.btree.trrbt import as_project_error
from studio.widgets.board import Board
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView, fold_lines

PERIODS = (0.1, 0.25, 0.5, 1.0, 2.0)
"""Seconds between moves while the replay plays on its own (space), ``+`` and ``-`` pick."""


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


def _move_number(text: str) -> str:
    """A :class:`NameDialog` check: a whole number of moves (the dialog says what is wrong)."""
    if not text.strip().isdigit():
        raise ProjectError(f"{text.strip()!r} is not a move number")
    return text.strip()


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
    BINDINGS: ClassVar[list[BindingType]] = replay_bindings(
        "move", Binding("underscore", "hidden", "Hidden tiles", show=False, key_display="_"),
        *PlayView.BINDINGS)
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("play", "Play/pause the replay", "Make the run's moves one after another (space)"),
        ("ends(0)", "First move", "Back to the start of the run (home)"),
        ("ends(1)", "Last move", "On to the end of the run (end)"),
        ("go_to", "Go to a move", "Jump to a move of the run by its number (g)"),
        ("verify", "Verify the replay", "Play the run again on the game as it is now (v)"),
    ]

    def __init__(self, document, replay: BtreeReplay, path: Path, compiled,
                 changed: bool) -> None:
        super().__init__(document)
        self.replay, self.path, self.changed = replay, path, changed
        self.compiled = compiled
        self.run = ReplayRun(compiled, replay.seed, replay.choices, replay.board)
        self.session, self.wait = self.run.session, self.run.wait
        self.selected: int | None = self.run.next_choice
        self.board_cursor = self.hover = None
        self.show_hidden = bool(self.model.display.get("show_hidden", False))
        self.hidden_layers: set[str] = set()
        self.colours: dict[str, str] = {}
        self.timer: Timer | None = None
        self.problem = ""
        self.period = 0.5
        self.verdict: Verdict | None = None

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

    def action_ends(self, end: int) -> None:
        self.action_step((len(self.replay.choices) if end else 0) - self.run.position)

    @work(exclusive=True, group="dialog")
    async def action_go_to(self) -> None:
        last = len(self.replay.choices)
        answer = await self.app.push_screen_wait(
            NameDialog(f"Go to move (0-{last})", str(self.run.position), "Go", _move_number))
        if answer is None:
            return
        self.action_step(int(answer) - self.run.position)
        if self.run.position != int(answer) and not self.problem:  # clamped: say where it went
            self.notify(f"there is no move {answer}: showing move {self.run.position}",
                        severity="warning", timeout=4)

    def action_play(self) -> None:
        if self.timer is not None:
            self._stop()
        else:
            if self.run.at_end:
                self.action_ends(0)
            self.timer = self.set_interval(self.period, self._tick)
        self._draw_status()

    def action_speed(self, direction: int) -> None:
        index = min(range(len(PERIODS)), key=lambda i: abs(PERIODS[i] - self.period))
        self.period = PERIODS[min(max(index + direction, 0), len(PERIODS) - 1)]
        if self.timer is not None:  # playing: on at the new pace
            self._stop()
            self.timer = self.set_interval(self.period, self._tick)
        self._draw_status()

    def action_verify(self) -> None:
        self._verify()

    @work(thread=True, exclusive=True, group="verify")
    def _verify(self) -> None:
        replay = self.replay
        verdict = verify_run(self.compiled, replay.seed, replay.choices,
                             replay.board, replay.result)
        self.app.call_from_thread(self._verified, verdict)

    def _verified(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.notify(verdict.message, severity="information" if verdict.ok else "error",
                    timeout=6)
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
        playing = f" · playing every {self.period:g}\u00a0s (space pauses)" \
            if self.timer is not None else ""
        notes = ""
        if self.verdict is not None:
            notes = " · ✓ verified" if self.verdict.ok else f" · ✗ {self.verdict.message}"
        elif self.changed:
            notes = " · the project changed since this run: v verifies"
        if self.problem:
            notes += f" · {self.problem}"
        text = (f"{inert(self.path.name)}: move {run.position} of {len(replay.choices)} · {state}"
                f"{playing} · seed {replay.seed}{notes}")
        view = self.query_one("#status", LinesView)
        style = self.styles_ui.error if self.problem else self.styles_ui.text
        view.set_lines(fold_lines([Text(text, style)],
                                  max(view.size.width - 2, 20) if view.size.width else 78))
