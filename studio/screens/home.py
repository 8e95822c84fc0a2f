"""The home screen: the projects of a folder, and what can be done with them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState

from studio.screens.formatting import inert, summary_value
from studio.screens.home_actions import ProjectFileActions
from studio.storage.errors import ProjectError
from studio.storage.kinds import TITLES
from studio.storage.listing import ProjectEntry, folder_stamp, glance_folder
from studio.widgets.footer import KeysFooter
from studio.widgets.row_table import RowTable

FIRST_READ_WAIT = 0.3
"""Seconds the first frame waits for the folder's list (at a glance: :func:`glance_folder`)
before it shows "Reading…" instead."""

FULL_READ_DELAY = 0.3
"""Seconds after the first frame's list before the folder is read in full (:meth:`on_mount`)."""

KIND_STYLES = {"tilecode": "bold green", "btree": "bold cyan", "haunted": "bold magenta"}


class _Scan:
    """One read of the folder, as the thread hands it to the screen (``previous``: the project
    to keep selected). A plain class: a dataclass costs a millisecond of start-up."""

    __slots__ = ("stamp", "entries", "error", "previous")

    def __init__(self, stamp: tuple, entries: list[ProjectEntry], error: ProjectError | None,
                 previous: Path | None) -> None:
        self.stamp, self.entries, self.error, self.previous = stamp, entries, error, previous


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def human_time(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


class HomeScreen(ProjectFileActions, Screen[None]):
    """Lists the projects of one folder; opens, creates, duplicates, renames and trashes them."""

    HELP_ABOUT: ClassVar[str] = (
        "The projects of this folder, one file each, of three kinds: a TileCode game (a tile "
        "map programmed with When/Do rules), a behaviour-tree game (all its logic is one tree "
        "of nodes) and a Haunted Tiles competition (students' AIs move monsters on a board of "
        "breaking tiles). enter opens one in its kind's screens; n makes a new one. Games of "
        "trrbt (.yaml, .json) are listed as \"trrbt file\": enter imports one into a project.")

    DEFAULT_CSS = """
    HomeScreen DataTable { height: 1fr; }
    HomeScreen #empty { height: 1fr; content-align: center middle; color: $text-muted; }
    HomeScreen #details { height: 3; padding: 0 1; background: $boost; color: $text-muted; }
    HomeScreen #details.-error { color: $text-error; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open"),
        Binding("n", "new", "New"),
        Binding("d", "duplicate", "Duplicate"),
        Binding("r", "rename", "Rename"),
        Binding("delete,x", "delete", "Delete"),
        Binding("f5,ctrl+r", "refresh", "Refresh"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("open", "Open project", "Open the selected project"),
        ("new", "New project", "Create a project in this folder"),
        ("duplicate", "Duplicate project", "Copy the selected project under a new name"),
        ("rename", "Rename project", "Give the selected project a new name"),
        ("delete", "Delete project", "Move the selected project to the trash folder"),
        ("refresh", "Refresh", "Read the folder again"),
    ]
    """(action, palette title, palette help): the palette offers those ``check_action`` allows."""

    def __init__(self, folder: Path, first_frame: bool = True) -> None:
        """``first_frame``: this screen is the first the studio shows (not one under a project
        opened at start), so its first frame waits a little for the list (:meth:`on_mount`)."""
        super().__init__()
        self.folder = folder
        self._first_frame = first_frame
        self.entries: list[ProjectEntry] = []
        self._offered: tuple[bool | None, ...] | None = None
        self._table: DataTable[Text | str] | None = None
        """The list, kept: every key the footer and the palette offer asks for the selection."""
        self._stamped: tuple | None = None
        """What the folder looked like when the list was last read (see :func:`folder_stamp`)."""
        self._select: Path | None = None
        """The project to select once the folder is read (a new, renamed or copied one)."""
        self._reading: Worker | None = None
        """The latest read of the folder, until it is shown."""
        self.scanning = False
        """True while the folder is being read (the tests wait on it)."""
        self._shown_rows: list[tuple[str, ...]] = []
        """What the table lists, as text: a read that finds the same leaves it be."""

    def compose(self) -> ComposeResult:
        yield Header()
        table: DataTable[Text | str] = RowTable(cursor_type="row", zebra_stripes=True,
                                                    id="projects")
        # Labels as Text: a str is read as markup, which loads Rich's emoji table (~5 ms).
        table.add_column(Text("Name"), key="name")
        table.add_column(Text("Kind"), key="kind", width=16)
        table.add_column(Text("Size"), key="size", width=9)
        table.add_column(Text("Changed"), key="changed", width=16)
        self._table = table
        yield table
        yield Static("", id="empty")
        yield Static("", id="details")
        yield KeysFooter()

    async def on_mount(self) -> None:
        self.title = "studio"
        self.sub_title = str(self.folder)
        if not self._first_frame:  # a project opened at start covers the list: nobody waits
            self.reload()
            return
        # The first frame lists the folder from each file's header (some 5 ms for the bundled
        # games) and the full read, which parses and validates every project and so loads
        # every kind's storage and engine (some 100 ms), follows it in a thread. Only a slow
        # folder shows "Reading…" first, with the keys working meanwhile.
        self.scanning = True
        glancing = self._glance()
        try:
            await asyncio.wait_for(asyncio.shield(glancing.wait()), FIRST_READ_WAIT)
        except (asyncio.TimeoutError, WorkerCancelled, WorkerFailed):
            self.reload()  # the full read says what is wrong, or shows when it can
            return
        if self._stamped is None and glancing.result is not None:
            self._show_entries(glancing.result, None)
        # The full read takes the processor (and the GIL) for some 100 ms: started at once, it
        # held back the frame it follows by as much. It waits until that frame is out.
        self.call_after_refresh(self.set_timer, FULL_READ_DELAY, self.reload)

    @work(thread=True, exclusive=True, group="glance", exit_on_error=False)
    def _glance(self) -> list[ProjectEntry]:
        return glance_folder(self.folder)

    # ------------------------------------------------------------------------------ state

    @property
    def selected(self) -> ProjectEntry | None:
        table = self._table if self._table is not None else self.query_one(DataTable)
        if not self.entries or table.cursor_row is None:
            return None
        if 0 <= table.cursor_row < len(self.entries):
            return self.entries[table.cursor_row]
        return None

    def on_screen_resume(self) -> None:
        # Back from a project: what it saved (a new size, a replay beside it) shows now, not
        # after f5; an unchanged folder is not read again, nor the table redrawn.
        if self._stamped is not None:
            self._settle()
            self.reload(if_changed=True)

    def reload(self, select: Path | None = None, *, if_changed: bool = False) -> None:
        """Read the folder again, keeping the selection on ``select`` (or the same row).

        The folder is read in a thread: a slow disk, a network folder or a folder of large files
        must not hold the keys (over SSH, every key of the session). The table is filled when the
        read is done (:meth:`_scanned`); a newer reload supersedes one still running.
        """
        if select is not None:
            # Kept until a read shows it: a later reload (the screen resuming as the dialog
            # that asked for this one closes) supersedes this read but not its selection.
            self._select = select
        previous = self._select or (self.selected.path if self.selected else None)
        self.scanning = True
        if self._stamped is None and not self.entries:  # nothing else to show meanwhile
            empty = self.query_one("#empty", Static)
            empty.update(Text(f"Reading {inert(str(self.folder))}…"))
            empty.display, self.query_one(DataTable).display = True, False
        self._reading = self._scan(previous, self._stamped if if_changed else None)

    @work(thread=True, exclusive=True, group="folder", exit_on_error=False)
    def _scan(self, previous: Path | None, unless: tuple | None) -> _Scan | None:
        from studio.storage.folder import scan_folder  # with every kind's storage: not at start

        stamp = folder_stamp(self.folder)
        if unless is not None and stamp == unless:
            return None
        try:
            return _Scan(stamp, scan_folder(self.folder), None, previous)
        except ProjectError as exc:
            return _Scan(stamp, [], exc, previous)

    @on(Worker.StateChanged)
    def _scanned(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "folder" and event.state in (WorkerState.SUCCESS,
                                                              WorkerState.ERROR):
            event.stop()
            self._read(event.worker)

    def _read(self, worker: Worker) -> None:
        """Show what the latest read found (once: the first read may be shown by on_mount)."""
        if worker is not self._reading:
            return  # superseded by a newer read, or shown already
        self._reading = None
        if worker.state == WorkerState.ERROR:
            # A reader's own bug: scan_folder lists broken files, so this is not the file's.
            self._show_scan(_Scan((), [], ProjectError(
                f"the studio failed reading the folder ({worker.error})", file=self.folder,
                hint="please report this as a bug of the studio"), None))
        elif worker.result is not None:
            self._show_scan(worker.result)
        self._select = None
        self.scanning = False

    def _show_scan(self, scan: _Scan) -> None:
        self._stamped = scan.stamp
        if scan.error is not None:
            self.notify(str(scan.error), severity="error")
        # The row asked for, else the one the cursor is on now: it may have moved during the
        # read (the first frame's list takes keys while the folder is read in full).
        current = self.selected.path if self.selected else None
        self._show_entries(scan.entries, self._select or current or scan.previous)

    def _show_entries(self, entries: list[ProjectEntry], previous: Path | None) -> None:
        """List ``entries``; the table is filled again only when what it shows changes (the
        full read of the folder after the first frame's glance usually changes nothing)."""
        table = self.query_one(DataTable)
        row = table.cursor_row
        self.entries = entries
        rows = [(Text(inert(entry.label)), self._kind_cell(entry),
                 Text(human_size(entry.size), justify="right"), human_time(entry.modified),
                 str(entry.path)) for entry in entries]
        shown = [(name.plain, kind.plain, str(kind.style), changed, key)
                 for name, kind, _size, changed, key in rows]
        if shown != self._shown_rows or table.row_count != len(rows):
            self._shown_rows = shown
            table.clear()
            for name, kind, size, changed, key in rows:
                table.add_row(name, kind, size, changed, key=key)
        paths = [entry.path for entry in entries]
        if previous in paths:
            row = paths.index(previous)
        if entries and row != table.cursor_row:
            table.move_cursor(row=min(max(row, 0), len(entries) - 1), animate=False)
        empty = self.query_one("#empty", Static)
        empty.display = not entries
        table.display = bool(entries)
        empty.update(Text(f"No projects in {inert(str(self.folder))} yet.\nPress n to create one."))
        self._show_details()
        if self.is_current:
            self._settle()

    def _settle(self) -> None:
        """Focus and footer keys for the list as it is: only while this screen shows (a read
        that ends under another screen leaves that screen's focus alone; resuming settles)."""
        if self.entries:
            self.query_one(DataTable).focus()
        self._refresh_footer()

    @staticmethod
    def _kind_cell(entry: ProjectEntry) -> Text:
        if entry.is_tcreplay:
            return Text("TileCode replay", style="green")
        if entry.trrbt is not None:
            return Text("trrbt file", style="cyan")
        if entry.is_btreplay:
            return Text("Tree game replay", style="cyan")
        kind = entry.kind
        if kind in TITLES and (entry.project is not None or entry.pending):
            return Text(TITLES[kind], style=KIND_STYLES[kind])
        if entry.pending:
            return Text("…", style="dim")  # the full read tells
        return Text("⚠ broken", style="bold red")

    def _show_details(self) -> None:
        details = self.query_one("#details", Static)
        entry = self.selected
        details.set_class(bool(entry and entry.error), "-error")
        if entry is None:
            details.update("")
        elif entry.pending and entry.trrbt is None:
            details.update(Text(inert(f"{entry.path.name} — reading…")))
        elif entry.error is not None:
            details.update(Text(inert(str(entry.error), log=True)))
        elif entry.replay is not None:
            replay = entry.replay
            details.update(Text(inert(
                f"{entry.path.name} — replay of {replay.project}: seed {replay.seed}, "
                f"{replay.rounds} rounds, {replay.result}, score {replay.score}")))
        elif entry.btreplay is not None:
            replay = entry.btreplay
            details.update(Text(inert(
                f"{entry.path.name} — a saved play run: seed {replay.seed}, "
                f"{len(replay.choices)} moves, {replay.result_text}; enter steps through it")))
        elif entry.trrbt is not None:
            game = f"“{entry.trrbt}”, " if entry.trrbt else ""
            details.update(Text(inert(
                f"{entry.path.name} — {game}a game of trrbt (the original tool): enter imports "
                "it into a new project here (the file is kept as it is)")))
        else:
            summary = entry.project.summary() if entry.project else {}
            shown = ", ".join(
                f"{key} {summary_value(value)}"
                for key, value in summary.items()
                if key not in ("kind", "name")
            )
            # The file's name and the summary (names of maps, teams, sprites) come from outside.
            details.update(Text(inert(f"{entry.path.name} — {shown}")))

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self) -> None:
        self._show_details()
        self._refresh_footer()

    def _refresh_footer(self) -> None:
        """Redraw the footer only when the keys it offers change.

        Every redraw of the footer sends its whole line again (about 1.2 KB at 80 columns), and
        moving along the list rarely changes what can be done: over SSH that was most of a move.
        """
        offered = tuple(self.check_action(action, ()) for action, _title, _help in self.PALETTE)
        if offered != self._offered:
            self._offered = offered
            self.refresh_bindings()

    @on(DataTable.RowSelected)
    def _row_selected(self) -> None:
        self.action_open()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        entry = self.selected
        if action in ("open", "delete"):
            return entry is not None
        if action in ("duplicate", "rename"):
            return entry is not None and entry.project is not None and entry.replay is None
        return True

    def palette_commands(self) -> Iterator[tuple[str, str, str]]:
        """The palette entries that apply now, as (title, help, action)."""
        for action, title, help_text in self.PALETTE:
            if self.check_action(action, ()):
                yield title, help_text, action

    # ---------------------------------------------------------------------------- actions

    def action_open(self) -> None:
        entry = self.selected
        if entry is not None and entry.trrbt is not None:
            self.import_game(entry)
        elif entry is not None:
            self.app.open_project_file(entry.path)

    def action_refresh(self) -> None:
        self.reload()
