"""Replay viewer (tilecode.md §8.10): a ``.tcreplay.toml`` played back on its project, with
play/pause, step forwards and back, jump to a round, verify, and the debug panel."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.timer import Timer

from studio.engines.tilecode.errors import TilecodeError
from studio.engines.tilecode.model import Game
from studio.engines.tilecode.replay import Replay
from studio.engines.tilecode.session import ReplayRun
from studio.screens.dialogs import NameDialog
from studio.screens.formatting import bar_lines
from studio.screens.replay_keys import replay_bindings
from studio.screens.tilecode.debug_panel import (
    INSPECT_BINDINGS,
    Inspection,
    player_position,
)
from studio.screens.tilecode.play import PERIODS
from studio.screens.tilecode.render import MapRenderer, look_for
from studio.storage import ProjectError, load_project
from studio.storage.tilecode.kind import play_errors, project_to_game
from studio.storage.tilecode.replay import load_replay, project_changed, replay_project_path
from studio.widgets.board import Board
from studio.widgets.canvas import Canvas, ui_styles
from studio.widgets.lines import LinesView


def open_replay(path: Path) -> ReplayScreen:
    """The viewer on a replay file and the TileCode project beside it.

    Raises:
        ProjectError: the replay or its project cannot be read, or the project cannot run.
    """
    replay = load_replay(path)
    project_path = replay_project_path(path, replay)
    if project_path is None:
        raise ProjectError(f"the project {replay.project!r} is not beside the replay",
                           file=path, hint="put the replay in the folder of its project")
    project = load_project(project_path)
    game = project_to_game(project)
    errors = play_errors(game)
    if errors:
        raise ProjectError(str(errors[0]), file=project_path,
                           hint="fix the project's rules first: errors block play")
    try:
        return ReplayScreen(game, replay, path, project_changed(replay, project))
    except TilecodeError as error:
        raise ProjectError(str(error), file=path) from None


CHANGED = {None: " · the project changed since: v verifies",
           True: " · the project changed since, and it plays back the same (verified)",
           False: " · the project changed since, and it plays back differently (v)"}
"""What the bar says of a replay whose project changed, by the last verify's verdict."""
"""Beside the seed while the replay is of another version of the project (a warning that
faded left nothing on screen to say why the run went otherwise)."""


class ReplayScreen(Inspection, Screen[None]):
    """Watch a recorded run; nothing here changes the project."""

    DEFAULT_CSS = """
    ReplayScreen #bar { height: auto; max-height: 2; padding: 0 1; background: $boost; }
    ReplayScreen Horizontal { height: 1fr; }
    ReplayScreen Board { width: 1fr; height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = replay_bindings("round", *INSPECT_BINDINGS)

    def __init__(self, game: Game, replay: Replay, path: Path | None = None,
                 changed: bool = False) -> None:
        super().__init__()
        self.game = game
        self.replay = replay
        self.path = path
        self.changed = changed
        self.verified: bool | None = None
        """The last verify's verdict (None: not verified yet)."""
        self.run = ReplayRun(game, replay)
        self.position = 0
        self.playing = False
        self.period = game.round_ms
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield from self.compose_view(self._renderer())

    def on_mount(self) -> None:
        self.title = f"{self.game.name} — replay"
        self.sub_title = self.path.name if self.path else ""
        if self.changed:  # said once in full, and kept in the bar (CHANGED)
            self.notify("The project changed since this replay was recorded: it may not "
                        "play back the same (v verifies).", severity="warning", timeout=6)
        self.call_after_refresh(self._show)

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    def _renderer(self) -> MapRenderer:
        look = look_for(self.game, ui_styles(self.app))
        return MapRenderer.for_state(look, self.run.state_at(self.position), self.game.render,
                                     self.game.help)

    def on_resize(self) -> None:
        if self.is_mounted:
            self._show()  # the bar takes one line or two, by the width

    def _widest_head(self) -> str:
        """The longest round, score, status and buttons this replay's bar shows (worked out
        once): scores only grow (+10), so the final one is the longest."""
        if getattr(self, "_widest", None) is None:
            run, last = self.run, self.run.last
            end = " (the end)" if last == self.replay.rounds else " (it ends here)"
            buttons = max((len("+".join(run.buttons_at(i))) for i in range(last + 1)), default=1)
            self._widest = (f"Round {last} of {self.replay.rounds}{end}  "
                            f"Score {run.state_at(last).score}  {'play':<4}  "
                            f"buttons {'x' * max(buttons, 1)}")
        return self._widest

    def _show(self) -> None:
        self.board.renderer = self._renderer()
        state = self.run.state_at(self.position)
        # With the debug panel open too, as in play: slack keeps an inspected cell near the
        # player in view instead of re-centring on every round.
        self.board.follow(*(player_position(self.game, state) or (0, 0)), slack=self.debug)
        styles = ui_styles(self.app)
        buttons = "+".join(self.run.buttons_at(self.position)) or "-"
        end = ""
        if self.position == self.run.last:  # was "Round 108/108 of 108"
            end = " (the end)" if self.run.last == self.replay.rounds else " (it ends here)"
        tail = f"Seed {self.replay.seed}" + (CHANGED[self.verified] if self.changed else "")
        # One line or two is decided by the widest this replay's bar can be, as in play: at 80
        # columns round 10 pushed the seed to a line of its own and the board jumped a row.
        rounds = self.replay.rounds
        widest = f"{self._widest_head()}  ❚❚ {self.period} ms  {tail}"
        lines = bar_lines(f"Round {self.position} of {rounds}{end}  Score {state.score}"
                          f"  {state.status}  buttons {buttons}  "
                          f"{'▶' if self.playing else '❚❚'} {self.period} ms",
                          tail, self.app.size.width - 2, len(widest))
        self.query_one("#bar", LinesView).set_lines(Canvas.of_lines(lines, styles.text).strips())
        if self.debug:
            self.draw_panel()

    def inspected(self):
        before = self.run.state_at(max(self.position - 1, 0))
        return self.game, before, self.run.state_at(self.position), \
            self.run.events_at(self.position)

    def inspection_closed(self) -> None:
        self._show()

    # ---------------------------------------------------------------------------- actions

    def action_play(self) -> None:
        self.playing = not self.playing
        self._set_timer()
        self._show()

    def _set_timer(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        if self.playing:
            self.timer = self.set_interval(self.period / 1000, self._tick)

    def _tick(self) -> None:
        if self.position >= self.run.last:
            self.playing = False
            self._set_timer()
            self._show()
            return
        self.position += 1
        self._show()

    def action_step(self, delta: int) -> None:
        self.position = min(max(self.position + delta, 0), self.run.last)
        self._show()

    def action_ends(self, end: int) -> None:
        self.jump_to(self.run.last if end else 0)

    def jump_to(self, position: int) -> None:
        self.position = min(max(position, 0), self.run.last)
        self._show()

    @work(exclusive=True, group="dialog")
    async def action_go_to(self) -> None:
        answer = await self.app.push_screen_wait(
            NameDialog(f"Go to round (0-{self.run.last})", str(self.position), "Go"))
        if answer is None:
            return
        try:
            wanted = int(answer)
        except ValueError:
            self.notify(f"{answer!r} is not a round number", severity="error")
            return
        self.jump_to(wanted)
        if self.position != wanted:  # clamped: say where it went instead
            self.notify(f"there is no round {wanted}: showing round {self.position}",
                        severity="warning", timeout=4)

    def action_speed(self, direction: int) -> None:
        index = min(range(len(PERIODS)), key=lambda i: abs(PERIODS[i] - self.period))
        self.period = PERIODS[min(max(index + direction, 0), len(PERIODS) - 1)]
        self._set_timer()
        self._show()

    def action_verify(self) -> None:
        try:
            verdict = self.run.verify()
        except TilecodeError as error:
            self.notify(str(error), severity="error")
            return
        self.notify(verdict.message, severity="information" if verdict.ok else "error",
                    timeout=6)
        if self.verified != verdict.ok:
            self.verified = verdict.ok  # the bar stops asking for a check already made
            self._show()

    def action_back(self) -> None:
        if self.timer is not None:
            self.timer.stop()
        self.dismiss(None)
