"""The replay browser (haunted.md §13.4): the project's recorded matches with their teams, maps,
result and seed; open, verify, delete, filter."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Input, Static

from studio.engines.haunted import replay as replays
from studio.screens.dialogs import ConfirmDialog
from studio.screens.formatting import counted, fit, inert
from studio.screens.haunted.base import QUIET_DOCUMENT_KEYS, HauntedScreen
from studio.screens.haunted.screens import make
from studio.sessions.haunted.replays import (
    ReplayInfo,
    list_replays,
    replay_info,
    replays_folder,
)
from studio.storage import move_to_trash
from studio.storage.errors import ProjectError
from studio.storage.haunted.replay import load_replay
from studio.widgets.footer import KeysFooter
from studio.widgets.row_table import RowTable

COLUMNS = ("when", "teams", "result", "maps", "seed")
"""Maps after the result: at 80 columns the last columns are cut (the line below has it all)."""
NAME_CUT = 12
"""Team names are cut to this where the table is narrow."""
SHORTEST_CUT = 8
"""... and to this where the winner's name in the result column is long too."""
MAPS_AT_LEAST = 12
"""Columns kept for the maps (with their margins) before team names are cut further: "Default
+4" (the first map and how many more) fits."""


def result_cell(info: ReplayInfo, cut: int) -> str:
    """The result as the table shows it: the winner's name cut as the team names are (the
    line below has it whole), so that the maps keep their room."""
    result = info.result.replace(", coin toss", ", toss")
    for team in info.teams:
        if result.startswith(f"{team} wins "):
            return fit(team.removeprefix("builtin:"), cut) + result[len(team):]
    return result.removeprefix("builtin:")


def maps_cell(maps: tuple[str, ...], width: int) -> str:
    """The maps in ``width`` columns: all of them, else the first and how many more ("Default
    +4"), else how many. Cut letter by letter they read as "C" or "Def…"."""
    whole = ", ".join(maps) or "-"
    if cell_len(whole) <= width or not maps:
        return fit(whole, width)
    more = f" +{len(maps) - 1}" if len(maps) > 1 else ""
    first = width - len(more)
    if first >= min(cell_len(maps[0]), 6):
        return fit(maps[0], first) + more
    return fit(counted(len(maps), "map"), width)


class ReplayBrowserScreen(HauntedScreen):
    """A table of replays, newest first."""

    SCREEN_TITLE = "replays"
    AUTO_FOCUS = "#replays"
    DEFAULT_CSS = """
    ReplayBrowserScreen #filter { margin: 0 1; }
    ReplayBrowserScreen #replays { height: 1fr; }
    ReplayBrowserScreen #detail { height: auto; padding: 0 1; border-top: solid $panel; }
    ReplayBrowserScreen #status { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *QUIET_DOCUMENT_KEYS,
        Binding("enter", "open", "Open"),
        Binding("v", "verify", "Verify"),
        Binding("d,delete", "delete", "Delete"),
        Binding("slash", "filter", "Filter", key_display="/"),
        Binding("f5,ctrl+r", "reload", "Refresh"),
        Binding("escape", "back", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("verify", "Verify the replay", "Re-simulate it and compare with the record"),
        ("reload", "Refresh the list", "Read the replays folder again"),
    ]

    def __init__(self, document) -> None:
        super().__init__(document)
        self.infos: list[ReplayInfo] = []
        self.shown: list[ReplayInfo] = []
        self._filled_width: int | None = None
        """The width the rows were last cut to."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="filter: team, map or result (/)", id="filter", compact=True)
        yield RowTable(id="replays", cursor_type="row", zebra_stripes=False)
        yield Static(id="detail")
        yield Static(id="status")
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.action_reload()

    def action_reload(self) -> None:
        self.query_one("#status", Static).update("reading the replays…")
        self._load()

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        infos = [replay_info(path) for path in list_replays(self.folder)]
        self.app.call_from_thread(self._loaded, infos)

    def _loaded(self, infos: list[ReplayInfo]) -> None:
        self.infos = infos
        self._fill()

    def _fill(self) -> None:
        needle = self.query_one("#filter", Input).value.strip().casefold()
        table = self.query_one(DataTable)
        row_before = table.cursor_row
        self._filled_width = table.size.width or self.app.size.width
        columns, rows = self._rows(self._filled_width)
        table.clear(columns=True)  # the columns' widths are those of the new cuts
        table.add_columns(*columns)
        self.shown = []
        for info, row in zip(self.infos, rows):
            if needle and needle not in _searched(info):
                continue
            table.add_row(*row[:len(columns)])
            self.shown.append(info)
        if self.shown and row_before:
            table.move_cursor(row=min(row_before, len(self.shown) - 1))
        self._show_detail()
        folder = replays_folder(self.folder)
        if folder.is_relative_to(Path.cwd()):
            folder = folder.relative_to(Path.cwd())
        count = f"{len(self.shown)} of {len(self.infos)}" if needle else len(self.infos)
        self.query_one("#status", Static).update(Text(inert(
            f"{counted(count, 'replay')} in {folder}" if self.infos else
            f"No replays yet: matches save theirs in {folder}")))

    def _rows(self, width: int) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        """The columns that fit ``width`` and the rows, names cut as little as the room allows.
        Team names come first (cut to 12 characters at the least; the line below has them
        whole); the seed shows only whole (a cut seed copied would be another seed); the maps
        take the room left, ending in ``…`` where they are cut."""
        def rows(teams: int) -> list[list[str]]:
            return [[info.created.replace("T", " ").rstrip("Z")[5:16] or info.path.name[:11],
                     " vs ".join(fit(t.removeprefix("builtin:"), teams) for t in info.teams),
                     info.error and f"✗ {info.error}" or result_cell(info, teams),
                     ", ".join(info.maps) or "-",
                     "" if info.seed is None else str(info.seed)] for info in self.infos]

        def room(shown: list[list[str]], column: int) -> int:
            # A column is as wide as the widest of its cells and heading, plus a space each side.
            return max(map(cell_len, (COLUMNS[column], *(row[column] for row in shown)))) + 2

        longest = max((len(name) for info in self.infos for name in info.teams),
                      default=NAME_CUT)
        # Down to NAME_CUT; further (to SHORTEST_CUT) only where long names in the results too
        # would leave the maps no room.
        for teams in range(max(longest, NAME_CUT), SHORTEST_CUT - 1, -1):
            shown = rows(teams)
            used = sum(room(shown, k) for k in range(3))
            if used + MAPS_AT_LEAST <= width:
                break
        seed = room(shown, 4) if self.infos else 0
        # Too narrow for the maps as well (60 columns): they go, as the seed does at 80, rather
        # than show cut to "ma" and "De" with no mark; the line below has them.
        columns = len(COLUMNS) if used + MAPS_AT_LEAST + seed <= width else \
            4 if used + MAPS_AT_LEAST <= width else 3
        maps = max(width - used - (seed if columns == 5 else 0) - 2, MAPS_AT_LEAST - 2)
        for info, row in zip(self.infos, shown):
            row[3] = maps_cell(info.maps, maps)
        return COLUMNS[:columns], [tuple(row) for row in shown]

    def on_resize(self) -> None:
        self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        # The rows are cut again for a new width only: the screen's first layout came after the
        # list was filled (or before, by a hair), and refilling it at the same width re-made the
        # columns just as a test looked at them, before the table had measured them.
        table = self.query_one(DataTable)
        if (table.size.width or self.app.size.width) != self._filled_width:
            self._fill()

    @on(DataTable.RowHighlighted)
    def _show_detail(self) -> None:
        """The selected replay in full: the table cuts names to fit and, at 80 columns, leaves
        the seed off-screen; a seed copied from there must be the whole seed."""
        info = self.selected()
        if info is None:
            self.query_one("#detail", Static).update("")
            return
        maps = ", ".join(info.maps) or "-"
        about = f"✗ {info.error}" if info.error else \
            f"{info.result} · {counted(info.rounds, 'round')} · maps {maps}"
        seed = "" if info.seed is None else f" · seed {info.seed}"
        # Names, maps and the reason a replay is broken are the replay file's own.
        self.query_one("#detail", Static).update(Text(inert(
            f"{self._shown_path(info)}{seed}\n{' vs '.join(info.teams)}: {about}", log=True)))

    def _shown_path(self, info: ReplayInfo) -> str:
        """The replay's path within the replays folder: a tournament's matches are in a folder
        of their own, and each tournament has a ``match-001``."""
        folder = replays_folder(self.folder)
        path = info.path
        return path.relative_to(folder).as_posix() if path.is_relative_to(folder) else path.name

    @on(Input.Changed, "#filter")
    def _filter_changed(self) -> None:
        self._fill()

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.query_one(DataTable).focus()

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_back(self) -> None:
        # In the filter field escape clears it and goes back to the list (it left the screen).
        field = self.query_one("#filter", Input)
        if self.focused is field:
            field.value = ""
            self.query_one(DataTable).focus()
            return
        super().action_back()

    def selected(self) -> ReplayInfo | None:
        table = self.query_one(DataTable)
        if not self.shown or table.cursor_row is None or table.cursor_row >= len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def action_open(self) -> None:
        if self.focused is self.query_one("#filter"):
            self.query_one(DataTable).focus()
            return
        info = self.selected()
        if info is not None:
            self.app.push_screen(make("replay", self.document, path=info.path))

    def action_verify(self) -> None:
        info = self.selected()
        if info is not None:
            self._verify(info.path)

    @work(thread=True, exclusive=True, group="verify")
    def _verify(self, path: Path) -> None:
        try:
            problems = replays.verify(load_replay(path))
        except ProjectError as exc:
            problems = [str(exc)]
        text = f"✓ {path.name}: verified" if not problems else f"✗ {path.name}: {problems[0]}"
        self.app.call_from_thread(self.query_one("#status", Static).update, text)

    @work(exclusive=True, group="dialog")
    async def action_delete(self) -> None:
        info = self.selected()
        if info is None:
            return
        if await self.app.push_screen_wait(ConfirmDialog(
                "Delete replay", f"Move {self._shown_path(info)} to the trash folder?",
                "Delete")):
            try:
                move_to_trash(info.path)
            except ProjectError as exc:
                self.notify(str(exc), severity="error")
                return
            self.infos = [i for i in self.infos if i.path != info.path]
            self._fill()


def _searched(info: ReplayInfo) -> str:
    """What the filter looks in: the names whole, as the table may show them cut."""
    return " ".join((info.created.replace("T", " "), *info.teams, info.result, info.error,
                     *info.maps, str(info.seed))).casefold()
