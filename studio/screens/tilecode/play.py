"""Play (tilecode.md §8.10): rounds on a timer, the camera on the player, pause, single round,
speed, restart, the debug panel, game over, and saving the run as a replay.

The screen drives a :class:`~studio.engines.tilecode.session.PlaySession` (the same one
``studio run`` uses), runs each round in a worker thread and repaints only changed rows.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.timer import Timer

from studio.engines.tilecode.model import MAX_SEED
from studio.engines.tilecode.session import PlaySession
from studio.screens.formatting import bar_lines
from studio.screens.tilecode.base import TilecodeScreen
from studio.screens.tilecode.debug_panel import (
    INSPECT_BINDINGS,
    Inspection,
    player_position,
)
from studio.screens.tilecode.game_over import GameOverDialog
from studio.screens.tilecode.render import MapRenderer, look_for
from studio.storage import ProjectError
from studio.storage.tilecode.check import missing_player
from studio.storage.tilecode.kind import game_to_project
from studio.storage.tilecode.replay import project_sha256, replay_path_for, save_replay
from studio.widgets.board import Board
from studio.widgets.canvas import Canvas
from studio.widgets.lines import LinesView

PERIODS = (30, 50, 80, 100, 150, 200, 300, 500, 800, 1200, 2000)
INLINE_MS = 3.0
"""Rounds faster than this run on the event loop; slower ones in a worker thread."""
"""Round periods offered by ``+`` and ``-`` (ms)."""


WIDEST_ROUND = 99_999
"""The bar keeps one layout for runs up to this many rounds."""


def fresh_seed() -> int:
    """A new run seed from system entropy (the "new game" of §6.2)."""
    return random.SystemRandom().randrange(MAX_SEED + 1)


class PlayScreen(Inspection, TilecodeScreen):
    """Play the game; arrows / wasd are the d-pad, space / z the A button."""

    SCREEN_TITLE = "play"
    DEFAULT_CSS = """
    PlayScreen #bar { height: auto; max-height: 2; padding: 0 1; background: $boost; }
    PlayScreen Horizontal { height: 1fr; }
    PlayScreen Board { width: 1fr; height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,a", "button('left')", "Left", show=False),
        Binding("up,w", "button('up')", "Up", show=False),
        Binding("right,d", "button('right')", "Right", show=False),
        Binding("down,s", "button('down')", "Down", show=False),
        Binding("space,z", "button('A')", "A button"),
        Binding("p", "pause", "Pause"),
        Binding("n", "single", "1 round"),
        Binding("plus,equals_sign", "speed(-1)", "Faster", key_display="+"),
        Binding("minus", "speed(1)", "Slower", key_display="-"),
        Binding("r", "restart", "Restart"),
        Binding("R", "restart(True)", "New seed", key_display="R"),
        *INSPECT_BINDINGS,
        Binding("ctrl+s", "save_replay", "Save replay"),
        Binding("escape", "leave", "Quit play"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("pause", "Pause / resume", "Stop or start the round timer"),
        ("restart", "Restart (same seed)", "Play again from the start with the same seed"),
        ("restart(True)", "Restart with a new seed", "Play again with a fresh random seed"),
        ("save_replay", "Save replay", "Save this run as a .tcreplay.toml beside the project"),
        ("debug", "Debug panel", "Why the sprite under the inspection cursor did what it did"),
    ]

    def __init__(self, document, seed: int | None = None, paused: bool = False) -> None:
        super().__init__(document)
        game = self.game
        self.session = PlaySession(game, seed if seed is not None else
                                   (game.seed if game.seed is not None else fresh_seed()))
        self.period = game.round_ms
        self.paused = paused
        self.pending: set[str] = set()
        self.busy = False
        self.queued: list[tuple[str, tuple[object, ...]]] = []
        """Restart, single round and save pressed while a round ran: done, in order, after it."""
        self.round_seconds = 1.0
        """How long the last round took; the first one runs in a thread to find out."""
        self.timer: Timer | None = None
        self.best = game.high_score
        self.covered = False
        """Another screen (help, a question) is over play: the game waits under it, and a game
        over that came meanwhile is shown when play is back on top."""
        self._over_unseen: bool | None = None
        """A game over not shown yet (covered): whether it set a new high score."""

    def compose(self) -> ComposeResult:
        yield from self.compose_view(self._renderer())

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    def _renderer(self) -> MapRenderer:
        look = look_for(self.session.game, self.styles_ui)
        return MapRenderer.for_state(look, self.session.state, self.game.render, self.game.help)

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self._follow)
        self._set_timer()
        self._after_round()
        missing = missing_player(self.game)
        if missing:
            # Named by the keys that get there: `m` is the game home's, not play's.
            self.notify(f"{missing}. Place one in the map editor (escape, then m).",
                        severity="warning", timeout=6)

    def on_unmount(self) -> None:
        super().on_unmount()
        if self.timer is not None:
            self.timer.stop()

    def on_screen_suspend(self) -> None:
        self.covered = True
        self._set_timer()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self.covered = False
        self._set_timer()
        if self._over_unseen is not None:
            new_high, self._over_unseen = self._over_unseen, None
            self._show_game_over(new_high)

    # ---------------------------------------------------------------------------- drawing

    def refresh_view(self) -> None:
        self._draw_bar()

    def _draw_bar(self) -> None:
        styles = self.styles_ui
        state = self.session.state
        status = {"won": "WON", "lost": "GAME OVER"}.get(state.status,
                                                         "paused" if self.paused else "playing")
        pending = "+".join(sorted(self.pending)) or "-"
        # A 19-digit seed does not fit beside the rest at 80 columns: it takes a line of its own
        # rather than hide the buttons of the next round (or itself). Whether it does is decided
        # by the widest bar this run can show, not the current one, so the board never jumps.
        high = max(self.best, state.score)
        head = (f"Score {state.score}  High {high}  Round {state.round}  {status} · "
                f"{self.period} ms · next: {pending}")
        widest = (f"Score {state.score:06}  High {high:06}  Round {WIDEST_ROUND}  GAME OVER · "
                  f"{self.period} ms · next: A+right  Seed {self.session.seed}")
        lines = bar_lines(head, f"Seed {self.session.seed}", self.app.size.width - 2,
                          len(widest))
        self.query_one("#bar", LinesView).set_lines(Canvas.of_lines(lines, styles.text).strips())

    def on_resize(self) -> None:
        self._draw_bar()  # one line or two, by the width

    def _follow(self) -> None:
        # With the debug panel open too: the player walks on while its rounds are inspected
        # (the inspection cursor stays where it was put; moving it brings the camera there).
        where = player_position(self.game, self.session.state)
        self.board.follow(*(where or (0, 0)), slack=True)

    def _after_round(self) -> None:
        self.board.renderer = self._renderer()
        self._follow()
        self._draw_bar()
        if self.debug:
            self.draw_panel()
        if self.session.over:
            self._game_over()

    def _when_idle(self, action: str, *args: object) -> bool:
        """Whether ``action`` may run now; else it waits for the round in flight (a round
        changes the session under it, and a key the player pressed must not be lost)."""
        if not self.busy:
            return True
        self.queued.append((action, args))
        return False

    def inspected(self):
        session = self.session
        return self.game, session.previous, session.state, session.events

    def inspection_closed(self) -> None:
        self._follow()

    # ----------------------------------------------------------------------------- rounds

    def _set_timer(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        if not self.paused and not self.covered and not self.session.over:
            self.timer = self.set_interval(self.period / 1000, self._tick)

    def _tick(self) -> None:
        if not self.busy and not self.session.over:
            self.run_round()

    def run_round(self) -> None:
        """Run one round with the buttons pressed since the last one.

        A round that took under :data:`INLINE_MS` last time runs right here (a thread would
        cost more than it saves); a slower one runs in a worker thread, so keys and frames
        never wait for it.
        """
        buttons = tuple(self.pending)
        self.pending.clear()
        self.busy = True
        if self.round_seconds * 1000 < INLINE_MS:
            self._play_round(buttons)
            self._round_done()
        else:
            self._round_worker(buttons)

    def _play_round(self, buttons: tuple[str, ...]) -> None:
        start = time.perf_counter()
        for button in buttons:
            self.session.press(button)
        self.session.step()
        self.round_seconds = time.perf_counter() - start

    @work(thread=True, exclusive=True, group="round")
    def _round_worker(self, buttons: tuple[str, ...]) -> None:
        self._play_round(buttons)
        self.app.call_from_thread(self._round_done)

    def _round_done(self) -> None:
        self.busy = False
        self._after_round()
        while self.queued and not self.busy:
            action, args = self.queued.pop(0)
            getattr(self, f"action_{action}")(*args)

    def _game_over(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        new_high = self._keep_high_score()
        if any(action == "restart" for action, _ in self.queued):
            return  # the player already asked to play again: no dialog over the new run
        if self.covered:  # a round in flight ended the game under help or a question
            self._over_unseen = new_high
            return
        self._show_game_over(new_high)

    def _show_game_over(self, new_high: bool) -> None:
        state = self.session.state
        self.app.push_screen(GameOverDialog(state.status, state.score, new_high),
                             self._game_over_choice)

    def _keep_high_score(self) -> bool:
        """Put a beaten high score in the project (one undoable edit); True when it was beaten.

        At game over, and whenever a run is left unfinished (restart, escape): a score is
        the player's whether or not the run ended in a win or a loss."""
        score = self.session.state.score
        if score <= self.game.high_score:
            return False
        self.best = score
        self.edit(f"new high score {score}", replace(self.game, high_score=score))
        return True

    def _game_over_choice(self, choice: str | None) -> None:
        if choice == "restart":
            self.action_restart()
        elif choice == "new":
            self.action_restart(True)
        elif choice == "save":
            self.action_save_replay()
            self._show_game_over(False)
        elif choice == "debug":
            if not self.debug:
                self.action_debug()
        else:
            self.dismiss(None)

    # ---------------------------------------------------------------------------- actions

    def action_button(self, button: str) -> None:
        if not self.session.over:
            self.pending.add(button)
            self._draw_bar()

    def action_pause(self) -> None:
        self.paused = not self.paused
        self._set_timer()
        self._draw_bar()

    def action_single(self) -> None:
        if not self.paused:
            self.action_pause()
        if self._when_idle("single") and not self.session.over:
            self.run_round()

    def action_speed(self, direction: int) -> None:
        index = min(range(len(PERIODS)), key=lambda i: abs(PERIODS[i] - self.period))
        self.period = PERIODS[min(max(index + direction, 0), len(PERIODS) - 1)]
        self._set_timer()
        self._draw_bar()

    def action_restart(self, new_seed: bool = False) -> None:
        if not self._when_idle("restart", new_seed):
            return
        self._keep_high_score()
        self.session.restart(fresh_seed() if new_seed else None)
        self.pending.clear()
        self._set_timer()
        self._after_round()
        self.notify(f"Restarted with seed {self.session.seed}", timeout=2)

    def action_save_replay(self) -> None:
        if not self._when_idle("save_replay"):
            return
        document = self.document
        name = document.path.name if document.path else f"{self.game.name}.toml"
        sha = project_sha256(game_to_project(self.game))
        replay = self.session.replay(name, sha)
        target = replay_path_for(document.path or name)
        try:
            path = save_replay(replay, target)
        except ProjectError as error:
            self.notify(str(error), severity="error")
            return
        self.notify(f"Replay saved: {path.name} ({replay.rounds} rounds, seed {replay.seed})")
        # Recorded against the game as it is in memory: a warning only where the file's
        # version plays differently (a new high score, unsaved, does not count).
        if document.dirty and project_sha256(document.project) != sha:
            self.notify("The project has unsaved changes: save it too (ctrl+s in the editor), "
                        "or the replay will not match the file.", severity="warning", timeout=6)

    async def confirm_close(self) -> bool:
        """Quitting keeps a new high score as leaving does, so the save question offers it."""
        self._keep_high_score()
        return True

    def action_leave(self) -> None:
        # At once, even with a round in flight (its worker finishes on its own): the score
        # kept is the last round's, a state the worker replaces whole, never half-written.
        self._keep_high_score()
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "redo", "save", "save_as"):
            return False  # playing edits nothing; ctrl+s saves the run's replay here
        if action in ("single",):
            return None if self.session.over else True
        if action == "next_sprite":
            return self.debug
        return super().check_action(action, parameters)
