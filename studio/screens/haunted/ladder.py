"""The Ladder screen (issue 30): the always-current standings, the matches the submissions call
for, and their replays, as each role may see them.

What it shows is read from the ladder's files (:func:`~studio.sessions.haunted.ladder.load_ladder`)
and read again when ``index.json`` changes (a runner in another process plays on), checked twice a
second by its time stamp, so nothing is redrawn while nothing happens. The teacher's catch-up
runs on a thread worker; leaving the screen cancels it, and the match cut short is played again
by the next run. Who may do what is :mod:`studio.sessions.access`'s to say.
"""

from __future__ import annotations

import threading
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Static

from studio.screens.dialogs import ConfirmDialog
from studio.screens.formatting import inert
from studio.screens.haunted.base import QUIET_DOCUMENT_KEYS, HauntedScreen
from studio.screens.haunted.screens import make
from studio.sessions import access as roles
from studio.sessions.haunted.ladder import (
    Ladder, LadderCancelled, catch_up, ladder_folder, load_ladder, replay_path, reset_ladder,
)
from studio.storage.errors import ProjectError
from studio.storage.haunted.ladder import LadderSettings, ladder_of
from studio.widgets.footer import KeysFooter

STANDING_COLUMNS = ("#", "Team", "Elo", "P", "W", "L", "Last submission (UTC)")
MATCH_COLUMNS = ("No.", "Home", "Away", "Map", "Result")


class LadderScreen(HauntedScreen):
    """Standings and matches of the project's ladder."""

    SCREEN_TITLE = "ladder"
    AUTO_FOCUS = "#standings"
    HELP_ABOUT: ClassVar[str] = (
        "The ladder is always current: each submission plays the latest submission of every "
        "other team, on both sides, each match on the next map of the rotation. Elo is counted "
        "in submission order, so the standings do not depend on which match ended first. "
        "Students see every standing and their own team's replays; spectators the standings.")
    DEFAULT_CSS = """
    LadderScreen #summary { height: auto; padding: 0 1; }
    LadderScreen #standings { height: auto; max-height: 45%; }
    LadderScreen #matches { height: 1fr; }
    LadderScreen .title { padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Before the tables' own enter, so that help and the footer name it; when it cannot
        # act the table gets the key, and its selection says why (below).
        Binding("enter", "open_replay", "Replay", priority=True),
        Binding("c", "catch_up", "Catch up"),
        Binding("o", "toggle", "On/off"),
        Binding("x", "reset", "Reset"),
        Binding("w", "watch", "Watch live"),
        Binding("f5,ctrl+r", "reload", "Reload", show=False),
        Binding("escape", "back", "Back"),
        *QUIET_DOCUMENT_KEYS,
    ]
    EXPLAINED: ClassVar[tuple[str, ...]] = ("open_replay", "catch_up", "toggle", "reset")
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("catch_up", "Ladder: catch up", "Play the matches the submissions call for (c)"),
        ("toggle", "Ladder: turn on or off", "Whether submissions start the ladder's matches (o)"),
        ("reset", "Ladder: reset", "Forget every result; they are played again (x)"),
        ("reload", "Ladder: reload", "Read the standings again (f5 / ctrl+r)"),
    ]

    def __init__(self, document, access: roles.Access | None = None) -> None:
        super().__init__(document)
        self.access = access or roles.current()
        self.ladder: Ladder | None = None
        self.problem = ""
        self._stamp: float | None = None
        self._cancel = threading.Event()
        self.running = False
        self.status = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="summary")
        yield DataTable(id="standings", cursor_type="row", zebra_stripes=True)
        if self.access.role != roles.SPECTATOR:
            yield Static("Matches", classes="title")
            yield DataTable(id="matches", cursor_type="row")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#standings", DataTable).add_columns(*STANDING_COLUMNS)
        if self._matches() is not None:
            self._matches().add_columns(*MATCH_COLUMNS)
        self.set_interval(0.5, self._poll)

    def on_unmount(self) -> None:
        self._cancel.set()

    def _matches(self) -> DataTable | None:
        found = self.query("#matches")
        return found.first(DataTable) if found else None

    # ---------------------------------------------------------------------------- reading

    def _index_stamp(self) -> float | None:
        try:
            return (ladder_folder(self.folder) / "index.json").stat().st_mtime
        except OSError:
            return None

    def _poll(self) -> None:
        if self._index_stamp() != self._stamp:
            self.refresh_view()

    def action_reload(self) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        self._stamp = self._index_stamp()
        try:
            self.ladder, self.problem = load_ladder(self.model), ""
        except ProjectError as exc:
            self.ladder, self.problem = None, str(exc)
        self._draw()
        self.refresh_bindings()

    def _settings(self) -> LadderSettings:
        try:
            return ladder_of(self.model.body)
        except ProjectError:
            return LadderSettings()

    def _draw(self) -> None:
        ladder = self.ladder
        settings = self._settings()
        lines = []
        if ladder is None:
            lines.append(f"✗ {self.problem}")
        else:
            done = len(ladder.matches) - len(ladder.missing)
            lines.append(f"Ladder {'on' if settings.enabled else 'off'} · {done} of "
                         f"{len(ladder.matches)} matches played · "
                         f"{settings.games_per_pair} per pair and side · seed {settings.seed}")
            if ladder.stale:
                lines.append("✗ the settings or maps changed since these matches: reset (x)")
        if self.status:
            lines.append(self.status)
        self.query_one("#summary", Static).update(Text(inert("\n".join(lines), log=True)))
        standings = self.query_one("#standings", DataTable)
        standings.clear()
        for row in ladder.rows if ladder else ():
            last = row.last_submission.strftime("%m-%d %H:%M") if row.last_submission else "–"
            mine = bool(self.access.team) and row.team.casefold() == self.access.team.casefold()
            team = Text(inert(row.team), style="bold" if mine else "")
            standings.add_row(str(row.rank), team, f"{row.elo:.0f}", str(row.played),
                              str(row.wins), str(row.losses), last, key=row.team)
        matches = self._matches()
        if matches is None:
            return
        matches.clear()
        for match in reversed(ladder.matches if ladder else ()):  # the newest first
            entry = ladder.results.get(match.key)  # type: ignore[union-attr]
            if entry is None:
                result = Text("to play", style="dim")
            else:
                winner = match.home.team if entry["winner"] == "home" else match.away.team
                result = Text(inert(f"{entry['home_rounds']}-{entry['away_rounds']} {winner}"))
            matches.add_row(str(match.number), Text(inert(match.home.team)),
                            Text(inert(match.away.team)), Text(inert(match.map_name)), result,
                            key=match.key)

    # ---------------------------------------------------------------------------- keys

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        if action in ("catch_up", "toggle", "reset"):
            refused = self.access.manage_ladder()
            if refused:
                return refused.capitalize()
            if action == "catch_up" and self.running:
                return "The ladder is catching up already"
            if action == "catch_up" and not self._settings().enabled:
                return "The ladder is off: o turns it on"
        if action == "open_replay":
            return self._replay_refusal()
        return super().why_not(action, parameters)

    def _selected(self):
        table = self._matches()
        if table is None or self.ladder is None or not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((m for m in self.ladder.matches if m.key == key), None)

    def _replay_refusal(self) -> str | None:
        if self.access.role == roles.SPECTATOR:
            return self.access.open_ladder_replay("", "").capitalize()
        match = self._selected()
        if match is None or self.focused is not self._matches():
            return "Choose a match first: tab moves to the matches"
        refused = self.access.open_ladder_replay(match.home.team, match.away.team)
        if refused:
            return refused[0].upper() + refused[1:]
        if self.ladder is None or match.key not in self.ladder.results:
            return "This match has not been played yet"
        return None

    @on(DataTable.RowSelected, "#matches")
    def _row_chosen(self) -> None:
        refused = self._replay_refusal()
        if refused:
            self.notify(refused, severity="warning", timeout=5)

    @on(DataTable.RowSelected, "#standings")
    def _standing_chosen(self) -> None:
        matches = self._matches()
        if matches is not None:
            matches.focus()  # a team's line leads to the matches, where replays open

    def action_open_replay(self) -> None:
        match = self._selected()
        if match is None or self.ladder is None:
            return
        self.app.push_screen(make("replay", self.document,
                                  path=replay_path(self.ladder.folder, match.key)))

    def action_watch(self) -> None:
        self.app.push_screen(make("watch", self.document))

    def action_back(self) -> None:
        self.dismiss(None)

    def action_toggle(self) -> None:
        settings = self._settings()
        turned = LadderSettings(not settings.enabled, settings.games_per_pair, settings.seed)
        self.edit(f"ladder {'on' if turned.enabled else 'off'}",
                  self.model.with_table("ladder", turned.table()))
        self.notify(f"Ladder {'on: submissions start its matches' if turned.enabled else 'off'}"
                    " (ctrl+s saves)", timeout=4)
        self.refresh_view()

    @work(exclusive=True, group="dialog")
    async def action_reset(self) -> None:
        ok = await self.app.push_screen_wait(ConfirmDialog(
            "Reset the ladder",
            "Forget every ladder result and replay? The standings start again, and the next "
            "catch-up plays every match again.", "Reset"))
        if not ok:
            return
        removed = reset_ladder(self.folder)
        self.notify(f"Ladder reset: {removed} match(es) forgotten", timeout=4)
        self.refresh_view()

    def action_catch_up(self) -> None:
        self.running = True
        self._cancel.clear()
        self.status = "Catching up…"
        self._draw()
        self.refresh_bindings()
        self._run(self.model)

    @work(thread=True, exclusive=True, group="ladder")
    def _run(self, model) -> None:
        def said(match, entry) -> None:
            if entry is None:
                text = f"Playing {match.number}: {match.home.team} vs {match.away.team}…"
                self.app.call_from_thread(self._show_status, text)

        try:
            report = catch_up(model, cancel=self._cancel, on_match=said)
            message = f"Ladder up to date: {len(report.played)} match(es) played"
        except LadderCancelled:
            return
        except ProjectError as exc:
            message = f"✗ {exc}"
        self.app.call_from_thread(self._finished, message)

    def _show_status(self, text: str) -> None:
        self.status = text
        self.refresh_view()

    def _finished(self, message: str) -> None:
        self.running = False
        self.status = message
        self.refresh_view()
