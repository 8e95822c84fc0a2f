"""The tournament screen (haunted.md §13.7): pick, create, rename or delete a tournament of the
project; set its entrants, mode, seeding, seed and the match settings; run or resume it on a
worker thread with a progress line; then read the bracket (single elimination) or the standings
with Elo (round robin), open any match's replay, and export the results as CSV.

Four panes, ``tab`` moves between them; the arrows work in the active one. Edits are undoable
and saved with ctrl+s. The run itself is :class:`~studio.sessions.haunted.tournament.TournamentRun`,
the same as ``studio tournament``: its results live in ``replays/<tournament>/`` beside the
project, which is where this screen reads them back from when it opens.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Header, Static

from studio.engines.haunted.tournament import SINGLE
from studio.screens.formatting import fit, inert
from studio.screens.haunted.base import HAUNTED_ABOUT, HauntedScreen
from studio.screens.haunted.tournament_edits import EDITS, EditingTournament
from studio.screens.haunted.tournament_panes import entrant_lines, setting_lines
from studio.screens.haunted.tournament_results import BRACKET_HEADINGS, Spot, draw, step
from studio.screens.haunted.tournament_run import RunningTournament
from studio.sessions.haunted.results import Results
from studio.sessions.haunted.tournament import (
    TournamentPlan,
    TournamentRun,
    index_document,
    project_plan,
    read_index,
    tournament_folder,
)
from studio.storage import ProjectError
from studio.storage.haunted.kind import requires_confinement
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

PANES = ("tournaments", "entrants", "settings", "results")
KEYS = {"tournaments": "n r d", "entrants": "a d k j", "settings": "← → space e",
        "results": "⏎ replay"}
"""The active pane's own keys, shown in its title: ? help lists only what applies now."""


class TournamentScreen(EditingTournament, RunningTournament, HauntedScreen):
    """Set up, run and read the tournaments of one Haunted Tiles project."""

    HELP_ABOUT: ClassVar[str] = (
        "A tournament plays every match of a format (round robin, single or double "
        "elimination) between the entered AIs, each match best of its rounds, and saves every "
        "replay beside the project. " + HAUNTED_ABOUT)

    SCREEN_TITLE = "tournament"
    MIN_SIZE = (80, 24)
    """Three panes side by side and the bracket: below this the entrants pane had no width."""
    # The pane the keys go to has a heavy border, not only another colour: told apart by colour
    # alone, space and enter went to the wrong pane on a monochrome terminal.
    DEFAULT_CSS = """
    TournamentScreen #top { height: 9; }
    TournamentScreen .pane { height: 100%; border: round $primary 30%; overflow-x: hidden; }
    TournamentScreen .pane.-active { border: heavy $accent; }
    TournamentScreen #tournaments { width: 17; }
    TournamentScreen #entrants { width: 1fr; min-width: 26; }
    TournamentScreen #settings { width: 1fr; min-width: 36; }
    TournamentScreen #status { height: auto; max-height: 2; padding: 0 1; }
    TournamentScreen #results { height: 1fr; max-height: 100%; border: round $primary 30%; }
    TournamentScreen #results.-active { border: heavy $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "pane(1)", "Pane"),
        Binding("shift+tab", "pane(-1)", "Previous pane", show=False),
        Binding("up", "move(0, -1)", "Up", show=False),
        Binding("down", "move(0, 1)", "Down", show=False),
        Binding("left", "move(-1, 0)", "Left", show=False),
        Binding("right", "move(1, 0)", "Right", show=False),
        Binding("home", "move(0, -1000000000)", "First", show=False),  # clamped: the first row
        Binding("end", "move(0, 1000000000)", "Last", show=False),
        Binding("ctrl+z", "undo", "Undo", show=False),  # in ? help: the footer is full at 80
        Binding("ctrl+y", "redo", "Redo", show=False),
        Binding("enter", "open_match", "Replay"),
        Binding("enter", "run", "Run"),
        Binding("f5,ctrl+r", "run", "Run / resume", show=False),
        Binding("R", "run_afresh", "Run afresh", show=False),
        Binding("space", "change(1)", "Change"),
        Binding("e", "type_value", "Type"),
        Binding("a", "add_entrant", "Add"),
        Binding("d,delete", "remove_entrant", "Remove"),
        Binding("k", "move_entrant(-1)", "Up"),
        Binding("j", "move_entrant(1)", "Down"),
        Binding("d,delete", "delete_tournament", "Delete"),
        Binding("n", "new_tournament", "New"),
        Binding("r", "rename", "Rename"),
        Binding("x", "export", "CSV"),
        Binding("c", "where_to_run", "Where", show=False),  # in ? help and the palette
        Binding("escape", "cancel_run", "Cancel run"),
        Binding("escape", "leave", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("run", "Run or resume the tournament", "Play the matches not played yet (enter, f5, ctrl+r)"),
        ("run_afresh", "Run the tournament afresh",
         "Replace the saved results, e.g. after an AI's file changed (R)"),
        ("cancel_run", "Cancel the run", "Stop; finished matches stay saved (escape)"),
        ("export", "Export results as CSV", "Standings and matches beside the project (x)"),
        ("where_to_run", "Where to run",
         "Here, on this machine's cores (local:N) or a Dask cluster (tcp://HOST:PORT) (c)"),
        ("new_tournament", "New tournament", "Every team, single elimination (n)"),
        ("rename", "Rename tournament", "Give the tournament another name (r)"),
        ("delete_tournament", "Delete tournament", "Remove it from the project (d)"),
        ("add_entrant", "Add an entrant", "Enter a team of the registry (a)"),
    ]

    def __init__(self, document, *, tournament: str | None = None,
                 in_process_builtins: bool = False) -> None:
        super().__init__(document)
        names = [t.get("name") for t in self.model.tournament_tables]
        self.selected = names.index(tournament) if tournament in names else 0
        self.pane = "tournaments"
        self.cursor = {pane: 0 for pane in PANES}
        self.in_process = in_process_builtins
        """Built-ins play inside the studio (trusted fast mode); files always use workers."""
        self.active_run: TournamentRun | None = None
        self.results: Results | None = None
        """The saved results of the selected tournament, or those of the run going on."""
        self.preview: Results | None = None
        """The draw before any match is played (shown while there are no results)."""
        self.spots: list[Spot] = []
        self._loaded: str | None = None
        self._note = ""
        """What the status line says about the last run or the saved results ("" for nothing)."""
        self._cancelling = False
        self.skipped: dict[str, str] = {}
        """Entrants left out of the run (no submission in time) -> why, before and during it."""
        self.submitted: dict[str, str] = {}
        """Entrants playing a submission -> its SHA-256."""
        self.where = ""
        """Where runs play: "" here, one match at a time; else ``local[:N]`` or a Dask
        scheduler's address. This machine's choice, not the project's: never saved in it."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            for pane in PANES[:3]:
                yield LinesView(id=pane, classes="pane", focusable=False)
        yield Static(id="status")
        yield LinesView(id="results", focusable=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        # Rounds, time limit and maps are the project's [match]: every match plays with them.
        titles = ("Tournaments", "Entrants", "Settings · match: project-wide")
        for pane, title in zip(PANES[:3], titles):
            self.query_one(f"#{pane}").border_title = title
        super().on_mount()
        self._activate(self.pane)
        # Pictures are drawn in the theme's colours: draw them again when the theme changes.
        self.watch(self.app, "theme", lambda _: self.refresh_view(), init=False)

    # ------------------------------------------------------------------------------ reading

    @property
    def running(self) -> bool:
        return self.active_run is not None

    @property
    def tournament_name(self) -> str | None:
        tables = self.model.tournament_tables
        return tables[self.selected].get("name") if tables else None

    def _plan(self) -> TournamentPlan:
        """The current tournament as a run plan; ProjectError while the project is invalid."""
        model = self.model
        for problem in model.problems():
            raise problem
        table = next(t for t in model.tournaments() if t["name"] == self.tournament_name)
        return project_plan(table, model.teams(), model.maps(), model.config(), self.folder,
                            in_process=self.in_process,
                            required=requires_confinement(model.body))

    def _load_results(self) -> None:
        """Read the saved results of the selected tournament (once per tournament name)."""
        if self.running or self._loaded == self.tournament_name:
            return
        self._loaded = self.tournament_name
        self.results, self.cursor["results"], self._note = None, 0, ""
        if self.tournament_name is not None:
            try:
                document = read_index(tournament_folder(self.folder, self.tournament_name))
            except ProjectError as exc:
                self._note, document = exc.message, None
            self.results = Results(document) if document else None

    def refresh_view(self) -> None:
        count = len(self.model.tournament_tables)
        self.selected = min(self.selected, max(count - 1, 0))
        self._load_results()
        self.preview, self.skipped, self.submitted = None, {}, {}
        try:
            plan = self.active_run.plan if self.active_run is not None else self._plan()
            self.skipped, self.submitted = dict(plan.skipped), dict(plan.submissions)
            if self.results is None and not self.running:
                self.preview = Results(index_document(plan, []))
        except (ProjectError, StopIteration):
            pass  # an invalid project has no draw; the status line says why it cannot run
        for pane in PANES:
            self._draw(pane)
        self._draw_status()

    # ------------------------------------------------------------------------------ drawing

    def _draw(self, pane: str) -> None:
        styles = self.styles_ui
        active = self.pane == pane
        view = self.query_one(f"#{pane}", LinesView)
        lines: list[Text] = []
        if pane == "results":
            shown = self.results or self.preview
            empty = "The project cannot run it now: see the line above." if self.tournament_name \
                else "No tournament yet: n in the Tournaments pane creates one."
            lines, self.spots = draw(shown, styles, self.cursor[pane] if active else -1, empty,
                                     view.text_width)
            view.border_title = "Results" if shown is None else \
                "Bracket" if shown.mode == SINGLE else "Standings"
        elif pane == "tournaments":
            # A name longer than the pane ends in "…" (the edge cut it without a mark).
            room = max(view.content_size.width - 1, 4) if view.content_size.width else 200
            lines = [Text(f" {fit(inert(str(t.get('name', '?'))), room)}")
                     for t in self.model.tournament_tables] or [
                Text(" none yet: n creates one", styles.muted)]
            self.cursor[pane] = self.selected
        elif self.tournament_name is None:
            lines = []
        elif pane == "entrants":
            lines = entrant_lines(self.model, self.selected, styles, view.text_width,
                                  self.skipped, self.submitted)
            view.border_title = f"Entrants · {len(self.skipped)} skipped" if self.skipped \
                else "Entrants"
        else:
            lines = setting_lines(self.model, self.selected, styles, view.text_width)
        if pane != "results" and lines and (active or pane == "tournaments"):
            self.cursor[pane] = min(self.cursor[pane], len(lines) - 1)
            lines[self.cursor[pane]].stylize(styles.cursor if active else styles.selected)
        hits = [(spot.region, k) for k, spot in enumerate(self.spots)] if pane == "results" else []
        bracket = pane == "results" and view.border_title == "Bracket"
        view.set_lines(lines, hits, fixed=BRACKET_HEADINGS if bracket else 0)
        if pane != "results" and lines:
            view.show_line(self.cursor[pane])
        elif self.spots and active:
            spot = self.spots[min(self.cursor[pane], len(self.spots) - 1)].region
            view.scroll_to_region(spot, animate=False, immediate=True)

    def on_resize(self) -> None:
        # The entrants' details, where the settings' values are cut and how much of a name the
        # other panes show depend on the panes' widths, known once the layout has run.
        for pane in PANES:
            self.call_after_refresh(self._draw, pane)

    # ------------------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        name = action.split("(")[0]
        if self.running and name in EDITS:
            return False
        has = self.tournament_name is not None
        rules = {
            "run": has and not self.running,
            "run_afresh": has and not self.running,
            "cancel_run": self.running,
            "open_match": self.pane == "results",
            "change": self.pane == "settings" and has,
            "type_value": self.pane == "settings" and has,
            "add_entrant": self.pane == "entrants" and has,
            "remove_entrant": self.pane == "entrants" and has,
            "move_entrant": self.pane == "entrants" and has,
            "new_tournament": self.pane == "tournaments",
            "delete_tournament": self.pane == "tournaments" and has,
            "rename": self.pane == "tournaments" and has,
            "export": self.results is not None,
            "where_to_run": not self.running,
        }
        if name in rules:
            return rules[name]
        return super().check_action(name, parameters)

    def _activate(self, pane: str) -> None:
        self.pane = pane
        for name in PANES:
            view = self.query_one(f"#{name}")
            view.set_class(name == pane, "-active")
            view.border_subtitle = KEYS[name] if name == pane else ""
        for name in PANES:
            self._draw(name)
        self.refresh_bindings()

    @on(LinesView.Clicked, "#results")
    def _clicked(self, event: LinesView.Clicked) -> None:
        self.cursor["results"] = int(event.key)  # type: ignore[call-overload]
        self._activate("results")

    def action_pane(self, step_by: int) -> None:
        self._activate(PANES[(PANES.index(self.pane) + step_by) % len(PANES)])

    def action_move(self, dx: int, dy: int) -> None:
        pane = self.pane
        if pane == "results":
            self.cursor[pane] = step(self.spots, self.cursor[pane], dx, dy)
        elif pane == "settings" and dx:
            self.action_change(dx)
            return
        elif dy:
            size = len(self.query_one(f"#{pane}", LinesView).lines)
            self.cursor[pane] = min(max(self.cursor[pane] + dy, 0), max(size - 1, 0))
            if pane == "tournaments" and self.cursor[pane] != self.selected:
                self.selected = self.cursor[pane]
                self.refresh_view()
                return
        self._draw(pane)
