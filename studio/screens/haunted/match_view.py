"""The match view (haunted.md §13.3): a match played live between two AIs.

The match runs on a worker thread through :class:`~studio.sessions.haunted.live.LiveMatch`; the AIs
think in their sandboxed worker processes, so keys keep working while an AI takes its 2 s. The
match thread posts :class:`MatchViewScreen.Updated` after each change; the screen redraws once per
message, and only the board rows and panel lines that changed reach the terminal.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.message import Message

from studio.engines.haunted.board import Map
from studio.screens.dialogs import ConfirmDialog
from studio.screens.haunted.base import HAUNTED_ABOUT, QUIET_DOCUMENT_KEYS
from studio.screens.haunted.match_layout import MatchLayout, Shown
from studio.sessions.haunted.entrants import MatchPlan
from studio.sessions.haunted.feed import match_feed_path
from studio.sessions.haunted.live import LiveMatch, LiveView, round_line
from studio.sessions.haunted.replays import new_replay_path, save_match
from studio.storage.errors import ProjectError


FRAME_RATE = 10
"""Most frames a second the view draws while a match runs at full speed."""


class MatchViewScreen(MatchLayout):
    """A live match: board, scoreboard, turn panel and log."""

    HELP_ABOUT: ClassVar[str] = HAUNTED_ABOUT

    SCREEN_TITLE = "match"
    BINDINGS: ClassVar[list[BindingType]] = [
        *QUIET_DOCUMENT_KEYS,
        Binding("space", "pause", "Pause"),
        Binding("space", "resume", "Resume"),  # the same key: the footer says what it does now
        Binding("n,right", "step", "Next turn"),
        Binding("plus,equals_sign", "faster", "Faster", key_display="+"),
        Binding("minus", "slower", "Slower", key_display="-"),
        Binding("f", "finish_round", "Finish round"),
        Binding("F", "finish_match", "Finish match"),
        Binding("l", "toggle_log", "Log"),
        Binding("s", "save_replay", "Save replay"),
        Binding("escape", "stop", "Abort / back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("pause", "Pause or resume", "Hold the match after this turn (space)"),
        ("finish_round", "Finish the round", "Play the rest of this round at full speed"),
        ("finish_match", "Finish the match", "Play the rest of the match at full speed"),
        ("save_replay", "Save the replay now", "Write what was played so far to replays/"),
        ("toggle_log", "Show or hide the log", "Events and each AI's output, turn by turn"),
    ]

    class Updated(Message):
        """The match changed (posted from the match thread; one pending at a time)."""

    def __init__(self, document, plan: MatchPlan) -> None:
        super().__init__(document)
        self.plan = plan
        # Named now: the live feed is written beside it while the match runs, and a feed left by
        # a studio that was killed becomes this replay (see recover_dropped).
        self._planned = new_replay_path(self.folder, plan.names())
        self.live = LiveMatch(plan, self._match_changed, feed=match_feed_path(self._planned))
        self._pending = False
        self._drawn_at = 0.0
        self._shown_version = -1
        self._log_shown = 0
        self.replay_path: Path | None = None
        """Where the replay was last saved."""

    def first_board(self) -> Map:
        return self.plan.maps[self.plan.config.maps[0]]

    def on_mount(self) -> None:
        super().on_mount()
        self.sub_title = self.plan.extra.get("note", self.sub_title)
        self._play()

    def on_unmount(self) -> None:
        super().on_unmount()
        # Leaving or quitting must not leave the match thread waiting for a key forever (the
        # app would hang on exit); what was played is saved as an aborted match's replay.
        self.live.abort()

    def keep_on_hang_up(self) -> None:
        """The studio is ending without a word (a dropped SSH link, SIGTERM): save what was
        played now, as ``s`` does; the match thread replaces it with the aborted match's
        replay once the turn being played ends, if the process lives that long."""
        body = self.live.replay_so_far() if self.live.running else None
        if body is not None:
            self._save(body)
        self.live.abort()

    @work(thread=True, exclusive=True, group="match")
    def _play(self) -> None:
        result = self.live.run()
        if result is not None:
            self._save(result, automatic=True)
            if self.replay_path is not None:  # the replay holds all the feed said
                match_feed_path(self._planned).unlink(missing_ok=True)
        self._match_changed()

    # ------------------------------------------------------------------------------ updates

    def _match_changed(self) -> None:
        """From any thread: ask for one redraw (coalesced)."""
        if not self._pending:
            self._pending = True
            self.post_message(self.Updated())

    @on(Updated)
    def _redraw(self) -> None:
        # At full speed turns come far faster than frames: draw at most FRAME_RATE times a
        # second, and leave the rest of the time to the match thread (they share the GIL).
        wait = self._drawn_at + 1 / FRAME_RATE - time.monotonic()
        if wait > 0:
            self.set_timer(wait, self._redraw_now)
            return
        self._redraw_now()

    def _redraw_now(self) -> None:
        self._pending = False
        self._drawn_at = time.monotonic()
        view = self.live.view()
        if view.version == self._shown_version and view.result is None:
            return
        self._shown_version = view.version
        self._draw(view)
        if not self.live.running:
            self.refresh_bindings()

    def refresh_view(self) -> None:
        self._draw(self.live.view())

    def _draw(self, view: LiveView) -> None:
        pace = f"{view.pace:g} s/turn" if view.pace else "full speed"
        status = f"paused (then {pace})" if view.paused else pace  # + and - show while paused
        if view.fast:
            status = f"finishing the {view.fast}"
        if view.result is not None or view.error:
            status = "match over"
        elif self.plan.no_time_limit:  # a move may take long: it said nothing of why it waited
            status += " · no time limit: a move waits for its AI"
        self.show(Shown(view.names, self.plan.config, view.round_index, view.home, view.monsters,
                        view.state, view.events, view.record, view.wins, view.ties,
                        f"seed {self.plan.seed} · {status}", self._banner(view),
                        coin=bool(view.result and view.result.coin_toss)))
        if len(view.log) != self._log_shown:
            self._log_shown = len(view.log)
            self.show_log(view.log)

    def _banner(self, view: LiveView) -> list[Text]:
        styles = self.styles_ui
        if view.error:
            return [Text(f"✗ {view.error}", style=styles.error), Text("escape: back", style=styles.muted)]
        lines: list[Text] = []
        if view.result is not None:
            last = view.rounds[-1] if view.rounds else None
            if last is not None and last.failures:  # say why, e.g. an AI that did not load
                lines.append(Text(round_line(last, view.names), style=styles.error))
            lines.append(Text(view.log[-1] if view.log else "match over", style=styles.success))
            if self.replay_path is not None:
                lines.append(Text(f"replay: {self.replay_path.name}", style=styles.muted))
            lines.append(Text("escape: back", style=styles.muted))
        elif view.rounds and view.state is not None and view.state.end is not None:
            lines.append(Text(view.log[-1] if view.log else "", style=styles.accent))
        return lines

    # ------------------------------------------------------------------------------ keys

    def action_pause(self) -> None:
        self.live.toggle_pause()
        self.refresh_bindings()

    def action_resume(self) -> None:
        self.action_pause()

    def action_step(self) -> None:
        self.live.step()
        self.refresh_bindings()  # a step pauses

    def action_faster(self) -> None:
        self.live.faster()

    def action_slower(self) -> None:
        self.live.slower()

    def action_finish_round(self) -> None:
        self.live.finish_round()

    def action_finish_match(self) -> None:
        self.live.finish_match()

    def action_save_replay(self) -> None:
        body = self.live.replay_so_far()
        if body is None:
            self.notify("Nothing has been played yet", timeout=2)
            return
        self._save(body)

    def _save(self, body, automatic: bool = False) -> None:
        """Write the replay; safe from the match thread too. One match keeps one file: saving
        again (and the automatic save at the end) replaces what was saved before."""
        path = self.replay_path or self._planned
        try:
            self.replay_path = save_match(body, path)
        except ProjectError as exc:
            if automatic:  # on the match thread
                self.app.call_from_thread(self.notify, str(exc), severity="error")
            else:
                self.notify(str(exc), severity="error")
            return
        if not automatic:
            self.notify(f"Replay saved: {self.replay_path}", timeout=3)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        running = self.live.running
        if action in ("pause", "resume"):
            return running and (action == "resume") == self.live.view().paused
        if action in ("step", "faster", "slower", "finish_round", "finish_match"):
            return running
        return super().check_action(action, parameters)

    @work(exclusive=True, group="dialog")
    async def action_stop(self) -> None:
        if self.live.running:
            self.live.hold(True)
            try:
                if not await self.app.push_screen_wait(ConfirmDialog(
                        "Abort the match", "Stop the match now? It waits for your answer; what "
                        "was played is kept as a replay.", "Abort", still=lambda: self.live.running,
                        ended="The match is over")):
                    return
                self.live.abort()
            finally:
                self.live.hold(False)
            return
        self.dismiss(None)
