"""Teams & AIs (haunted.md §13.6): the team registry; AIs added, written, tested and edited.

Registry edits go through :mod:`studio.sessions.haunted.teams` (the storage validation decides,
so a refused edit says what ``studio validate`` would) and are undoable and saved with the
project. AI code never runs here: a load test starts a worker process from a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar
from weakref import WeakKeyDictionary

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Static

from studio.engines.haunted.builtin_ais import PREFIX
from studio.screens.dialogs import ConfirmDialog
from studio.screens.formatting import fit, inert
from studio.screens.haunted.base import HauntedScreen
from studio.screens.haunted.screens import make
from studio.screens.haunted.team_adding import TeamAdding, refusal
from studio.screens.haunted.team_dialogs import Field, FormDialog
from studio.screens.haunted.roster import RosterKey
from studio.screens.haunted.team_columns import COLUMNS, SHORT, column_widths
from studio.screens.haunted.team_submissions import COLUMN, SubmissionsView
from studio.sessions import access
from studio.sessions.haunted import teams as registry
from studio.sessions.haunted.checks import LoadTest, first_map, run_load_test
from studio.storage import ProjectError
from studio.storage.haunted.kind import MONSTERS, source_path
from studio.storage.haunted.project import HauntedModel
from studio.widgets.footer import KeysFooter
from studio.widgets.row_table import RowTable

RUNTIME_LABELS = {"builtin": "built-in", "python": "Python", "js": "JS"}
_TESTS: WeakKeyDictionary[object, dict] = WeakKeyDictionary()
"""Load test results per open project (its document)."""
Change = Callable[[HauntedModel], HauntedModel]


class TeamsScreen(SubmissionsView, RosterKey, TeamAdding, HauntedScreen):
    """The registry in registration order, with the last load test of each AI."""

    SCREEN_TITLE = "teams & AIs"
    AUTO_FOCUS = "#teams"
    DEFAULT_CSS = """
    TeamsScreen #teams { height: 1fr; }
    TeamsScreen #details { height: auto; max-height: 9; padding: 0 1; background: $boost; }
    TeamsScreen #problems { height: auto; padding: 0 1; color: $text-error; }
    TeamsScreen #submissions { height: auto; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add", "Add"),
        Binding("enter", "fields", "Fields"),
        Binding("e", "edit", "Edit AI"),
        Binding("t", "test", "Test-load"),
        Binding("d", "delete", "Delete"),
        Binding("c", "duplicate", "Copy"),
        Binding("k", "move_up", "Up"),
        Binding("j", "move_down", "Down"),
        Binding("i", "import_csv", "Import CSV"),
        Binding("D", "deadline", "Deadline", show=False),
        Binding("R", "roster", "Roster", show=False),
        Binding("escape", "back", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("add", "Add a team", "From an AI file, a new Python/JavaScript AI, or a built-in (a)"),
        ("fields", "Edit the team's fields", "Name, team, school, school size, monsters (enter)"),
        ("edit", "Edit the team's AI", "Open its code in the AI editor (e)"),
        ("test", "Test-load the team's AI", "Start a worker, load, answer one move (t)"),
        ("delete", "Delete the team", "Remove the entry; its AI file is kept (d)"),
        ("duplicate", "Duplicate the team", "A copy of the entry with the same AI (c)"),
        ("move_up", "Move the team up", "Earlier in registration order (k)"),
        ("move_down", "Move the team down", "Later in registration order (j)"),
        ("import_csv", "Import the original team list", "A Microsoft Forms CSV export (i)"),
        ("deadline", "Set the submission deadline",
         "When submissions close; empty reopens them (D)"),
    ]

    def __init__(self, document, **options) -> None:
        super().__init__(document)
        self.tests: dict[tuple[str, str, int], LoadTest | None] = _TESTS.setdefault(document, {})
        """Last load test per AI (see :meth:`key`); None while one runs. Kept with the open
        project, so leaving the screen and coming back keeps the results."""
        self._select: int | None = options.get("select")
        self._wide: tuple[int, ...] | None = None
        """The column widths the table was built with."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield RowTable(cursor_type="row", zebra_stripes=True, id="teams")
        yield Static(id="submissions")
        yield Static(id="details")
        yield Static(id="problems")
        yield KeysFooter()

    # ------------------------------------------------------------------------------ view

    @property
    def selected(self) -> int | None:
        """The index of the highlighted entry (None when the registry is empty)."""
        count = len(self.model.team_tables)
        tables = self.query(DataTable)
        if not tables:
            return None  # asked by the key bindings before the list is mounted, or after it goes
        row = tables.first().cursor_row
        return min(max(row, 0), count - 1) if count else None

    @staticmethod
    def ai_of(table: dict) -> tuple[str, str]:
        """The AI an entry runs: (runtime, source)."""
        return str(table.get("runtime", "builtin")), str(table.get("source", ""))

    def key(self, table: dict) -> tuple[str, str, int]:
        """What a load test belongs to: the AI, whichever entries run it, as its file is now
        (a result stands until the file changes)."""
        runtime, source = self.ai_of(table)
        stamp = 0
        if runtime != "builtin":
            try:
                stat = (self.folder / source).stat()
                stamp = hash((stat.st_mtime_ns, stat.st_size))
            except OSError:
                pass
        return runtime, source, stamp

    def source_of(self, table: dict) -> str:
        """What the entry runs: ``builtin:NAME`` or its file's path.

        Raises:
            ProjectError: the file is outside the project's folder.
        """
        runtime, source = self.ai_of(table)
        return PREFIX + source if runtime == "builtin" else str(source_path(self.folder, source))

    def _test_cell(self, table: dict) -> Text:
        key = self.key(table)
        if key not in self.tests:
            return Text("–", style="dim")
        result = self.tests[key]
        if result is None:
            return Text("testing…", style="italic")
        return Text(result.summary(), style="green" if result.ok else "bold red")

    def _widths(self) -> tuple[int, ...]:
        return column_widths(self.model.team_tables, self.size.width, self.submitted is not None)

    def _columns(self, table: DataTable) -> None:
        """(Re)build the columns when their widths change."""
        widths = self._widths()
        if table.columns and widths == self._wide:
            return
        self._wide = widths
        table.clear(columns=True)
        for label, width in zip(COLUMNS + (COLUMN,), widths):
            if width:  # 0: left out (see _widths)
                table.add_column(label if width >= len(label) else SHORT.get(label, label),
                                 width=width)

    def on_resize(self) -> None:
        if self.is_mounted and self._widths() != self._wide:
            self.refresh_view()

    def refresh_view(self) -> None:
        table = self.query_one(DataTable)
        row = self._select if self._select is not None else table.cursor_row
        self._select = None
        self.read_submissions()
        self._columns(table)
        table.clear()
        _no, name_w, team_w, school_w, _runtime, monsters_w, test_w, *_rest = self._wide
        for index, team in enumerate(self.model.team_tables):
            runtime = str(team.get("runtime", "builtin"))
            test = self._test_cell(team)
            if test.cell_len > test_w:
                test = Text(fit(test.plain, test_w), style=test.style)
            cells = (  # cut with "…" where the column cuts ("Inner Sch" read as whole)
                str(index + 1), Text(fit(inert(str(team.get("name", ""))), name_w), style="bold"),
                fit(inert(str(team.get("team", ""))), team_w),
                fit(inert(str(team.get("school", ""))), school_w),
                Text(RUNTIME_LABELS.get(runtime, runtime), style="dim" if runtime == "builtin" else ""),
                fit(f"{team.get('monster', 'bobo')}/{team.get('alternate', 'pinky')}", monsters_w),
                test, *([self.submitted_cell(team)] if self.submitted is not None else []))
            table.add_row(*(cell for cell, width in zip(cells, self._wide) if width))
        if table.row_count:
            table.move_cursor(row=min(max(row, 0), table.row_count - 1), animate=False)
        problem = registry.registry_problem(self.model)
        note = self.query_one("#submissions", Static)
        note.display = bool(self.submissions_note)
        note.update(Text(inert(self.submissions_note, log=True)))
        self.query_one("#problems", Static).update(
            Text(inert(f"✗ {problem.location}: {refusal(problem)}", log=True)) if problem else "")
        self._show_details()

    def _show_details(self) -> None:
        index = self.selected
        details = self.query_one("#details", Static)
        if index is None:
            details.update("No teams yet: a adds one (a file, a new AI from the template, a "
                           "built-in), i imports the original team list.")
            return
        team = self.model.team_tables[index]
        runtime, source = self.ai_of(team)
        if runtime == "builtin":
            lines = [f"built-in AI {source!r} (read-only: e shows its source)"]
        else:
            try:
                missing = "" if source_path(self.folder, source).is_file() else "  ✗ no such file"
            except ProjectError:
                missing = "  ✗ outside the project's folder: it cannot run"
            language = "JavaScript" if runtime == "js" else "Python"
            lines = [f"{source} ({language}){missing}"]
        size = team.get("school_size")
        lines[0] += f" · school size {size}" if size else ""
        lines += self.submission_lines(team)
        result = self.tests.get(self.key(team), "none")
        if result is None:
            lines.append("load test running…")
        elif isinstance(result, LoadTest):
            # Tracebacks name the file by its absolute path: shown relative, like the source.
            here = f"{self.folder.resolve()}/"
            found = [line.replace(here, "") for line in result.details()]
            lines += [("✓ " if result.ok else "✗ ") + found[0], *found[1:6]]
        else:
            lines.append("t test-loads this AI (a worker, one move on the first map)")
        details.update(Text(inert("\n".join(lines), log=True)))  # what the AI printed, too

    @on(DataTable.RowHighlighted)
    def _highlighted(self) -> None:
        self._show_details()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        index = self.selected
        if action in ("fields", "edit", "test", "delete", "duplicate", "move_up", "move_down"):
            if index is None:
                return False
            if action == "move_up":
                return index > 0 or None
            if action == "move_down":
                return index < len(self.model.team_tables) - 1 or None
            return True
        return super().check_action(action, parameters)

    # --------------------------------------------------------------------------- editing

    def apply(self, label: str, change: Change, select: int | None = None) -> str:
        """Make ``change`` one undoable edit; returns "" or why it was refused."""
        try:
            model = change(self.model)
        except ProjectError as exc:
            return refusal(exc)
        self._select = select
        if not self.edit(label, model):
            self._select = None
        return ""

    def _apply_or_say(self, label: str, change: Change, select: int | None = None) -> None:
        problem = self.apply(label, change, select)
        if problem:
            self.notify(problem, title="Refused", severity="error")

    def action_move_up(self) -> None:
        self._move(-1)

    def action_move_down(self) -> None:
        self._move(1)

    def _move(self, step: int) -> None:
        index = self.selected
        if index is None or not 0 <= index + step < len(self.model.team_tables):
            return
        name = self.model.team_tables[index].get("name")
        self._apply_or_say(f"move {name} {'up' if step < 0 else 'down'}",
                           lambda m: registry.move(m, index, step), index + step)

    def action_duplicate(self) -> None:
        index = self.selected
        if index is not None:
            name = self.model.team_tables[index].get("name")
            self._apply_or_say(f"duplicate {name}", lambda m: registry.duplicate(m, index),
                               index + 1)

    @work(exclusive=True, group="dialog")
    async def action_delete(self) -> None:
        index = self.selected
        if index is None:
            return
        team = self.model.team_tables[index]
        kept = "" if team.get("runtime") == "builtin" else f"\nIts file {team.get('source')} is kept."
        question = f"Remove {team.get('name')!r} from the registry (and its tournaments)?{kept}"
        if await self.app.push_screen_wait(ConfirmDialog("Delete team", question, "Delete")):
            self._apply_or_say(f"delete {team.get('name')}", lambda m: registry.delete(m, index),
                               index)

    @work(exclusive=True, group="dialog")
    async def action_fields(self) -> None:
        index = self.selected
        if index is None:
            return
        team = self.model.team_tables[index]

        def monster(key: str, default: str) -> str:
            value = team.get(key, default)
            return value if value in MONSTERS else default

        fields = [Field("name", "Name", str(team.get("name", ""))),
                  Field("team", "Team", str(team.get("team", ""))),
                  Field("school", "School", str(team.get("school", ""))),
                  Field("school_size", "School size", str(team.get("school_size", "")),
                        placeholder="students (for seeding)"),
                  Field("monster", "Monster", monster("monster", "bobo"), MONSTERS),
                  Field("alternate", "Alternate", monster("alternate", "pinky"), MONSTERS)]

        def submit(values: dict[str, str]) -> str:
            if values["monster"] == values["alternate"]:
                return ("the alternate must differ from the monster: it is worn when the other "
                        "team's first choice is the same")
            return self.apply(f"edit {team.get('name')}",
                              lambda m: registry.replace(m, index, registry.with_fields(team, values)),
                              index)

        await self.app.push_screen_wait(FormDialog(
            f"Team {team.get('name')}", fields, submit, "Apply",
            "The away team wears its alternate when both first choices are the same."))

    # ------------------------------------------------------------------------ AI actions

    def action_edit(self) -> None:
        index = self.selected
        if index is None:
            return
        refused = access.current().open_source(self.model.team_tables[index])
        if refused:
            self.notify(refused, title="Refused", severity="error")
            return
        self.app.push_screen(make("ai", self.document, team_index=index))

    def action_test(self) -> None:
        index = self.selected
        if index is None:
            return
        team = self.model.team_tables[index]
        refused = access.current().open_source(team)  # its errors quote the source's lines
        if refused:
            self.notify(refused, title="Refused", severity="error")
            return
        board = first_map(self.model)
        if board is None:
            self.notify("The project has no valid map to test on", severity="error")
            return
        key = self.key(team)
        if key in self.tests and self.tests[key] is None:
            return  # already running
        try:
            source = self.source_of(team)
        except ProjectError as exc:
            self.notify(str(exc), severity="error")
            return
        self.tests[key] = None
        self.refresh_view()
        self._load_test(key, source, board)

    @work(thread=True, group="load-test")
    def _load_test(self, key: tuple[str, str, int], source: str, board) -> None:
        # A worker thread: the load test blocks up to the load and move limits.
        result = run_load_test(source, self.model.config(), board)
        try:
            self.app.call_from_thread(self._tested, key, result)
        except RuntimeError:
            pass  # the app closed meanwhile

    def _tested(self, key: tuple[str, str, int], result: LoadTest) -> None:
        self.tests[key] = result
        if self.is_mounted:
            self.refresh_view()
