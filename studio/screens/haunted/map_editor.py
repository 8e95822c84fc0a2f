"""Map editor (haunted.md §13.5, §10.3): strength brushes, start tools, symmetry helpers, resize,
the fairness check, a quick test match, and the project's list of maps.

Every edit goes through the document as one undo step (a pen stroke as one); the operations are
the pure ones of :mod:`studio.engines.haunted.map_edit`. A map may be invalid while it is drawn
(a start on a hole): it stays in the project, flagged in the tools pane, and saving refuses it
with its field path until it is fixed.
"""

from __future__ import annotations

import json
import zlib
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Header

from studio.engines.haunted.map_edit import (
    Fairness,
    MapDraft,
    at,
    blank,
    fairness,
    mirrored_tiles,
    next_symmetry,
    paint,
    place_start,
    problems,
    start_mirror,
)
from studio.engines.haunted.match import MatchConfig
from studio.screens.board_editing import BoardEditing
from studio.screens.haunted.board_render import HauntedCells, cell_size_for, haunted_styles
from studio.screens.haunted.map_fairness import FairnessSimulation
from studio.screens.haunted.map_manage import MapManaging
from studio.screens.haunted.map_tools import ToolState, tool_lines
from studio.screens.haunted.screens import make
from studio.sessions.haunted.entrants import MatchPlan
from studio.storage import ProjectError
from studio.storage.haunted.maps import draft_of, map_names, with_draft
from studio.widgets.board import Board
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

TOOLS_MIN = 38
"""Columns kept for the tools pane when choosing the tile size."""
QUICK_TEST_AI = "builtin:greedy"


class MapEditorScreen(FairnessSimulation, MapManaging, BoardEditing):
    """Edit the project's maps; ``map`` names the one to open first."""

    SCREEN_TITLE = "maps"
    AUTO_FOCUS = "#board"
    DEFAULT_CSS = """
    MapEditorScreen #body { height: 1fr; }
    MapEditorScreen #board { width: auto; height: auto; max-height: 100%; margin: 1 2 0 2; }
    MapEditorScreen #tools { width: 1fr; height: 1fr; max-height: 100%; padding: 1 1 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"digit({n})", "Strength brush (paints here)", show=False)
          for n in range(4)),
        Binding("h", "start('home')", "Home start: then 1-3", show=False),
        Binding("a", "start('away')", "Away start: then 1-3", show=False),
        Binding("space,enter", "apply", "Paint"),
        Binding("p,shift+space", "pen", "Pen"),
        Binding("y", "symmetry", "Symmetry"),
        Binding("r", "resize", "Resize"),
        Binding("c", "fairness", "Fairness on/off"),
        Binding("f", "simulate_fairness", "Fairness by simulation", show=False),
        Binding("t", "quick_test", "Test"),
        Binding("m", "maps", "Maps"),
        Binding("left_square_bracket", "map(-1)", "Previous map", show=False),
        Binding("right_square_bracket", "map(1)", "Next map", show=False),
        Binding("n", "manage('new')", "New map", show=False),
        Binding("d", "manage('duplicate')", "Duplicate map", show=False),
        Binding("e", "manage('rename')", "Rename map", show=False),
        Binding("delete", "manage('delete')", "Delete map", show=False),
        Binding("i", "import_maps", "Import maps.json", show=False),
        Binding("pageup", "scroll_tools(-1)", "Scroll the tools pane up", show=False),
        Binding("pagedown", "scroll_tools(1)", "Scroll the tools pane down", show=False),
        Binding("escape", "escape", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        *((f"digit({n})", f"Brush {n}", f"Paint strength {n} ({'a hole' if n == 0 else 'tile'})")
          for n in range(4)),
        ("pen", "Pen down / up", "While the pen is down every cursor move paints"),
        ("symmetry", "Cycle symmetry", "none → left/right → top/bottom → both → point"),
        ("resize", "Resize the map…", "5 to 15; keeps the top-left part, new tiles at 3"),
        ("fairness", "Check fairness", "Symmetric under top/bottom or point with sides exchanged?"),
        ("simulate_fairness", "Simulate fairness",
         "Home vs away win rates over 10,000 rounds per policy pair (f)"),
        ("quick_test", "Quick test", "One round greedy against greedy on this map"),
        ("maps", "Choose a map…", "The project's maps: edit, add, duplicate, rename, delete"),
        ("manage('new')", "New map…", "A 7×7 map at full strength"),
        ("manage('duplicate')", "Duplicate map…", "A copy of this map under a new name"),
        ("manage('rename')", "Rename map…", "Also renames it in the match rotation"),
        ("manage('delete')", "Delete map…", "Asks first; ctrl+z brings it back"),
        ("import_maps", "Import maps.json…", "Add the maps of an original maps.json"),
    ]

    def __init__(self, document, map: str | None = None) -> None:
        super().__init__(document)
        names = map_names(self.model)
        self.index = names.index(map) if map in names else 0
        self.brush = "3"
        self.symmetry = "none"
        self.pending: str | None = None
        """``home`` / ``away`` after ``h`` / ``a``: the next 1-3 places that start."""
        self.show_fairness = False
        self._fairness_said: str | None = None
        """The verdict last toasted (None: none while the check is off)."""
        self._parsed: tuple[object, MapDraft | None, ProjectError | None] = (None, None, None)
        self._checked: tuple[object, ProjectError | None] = (None, None)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield Board(self._renderer(), cursor=(0, 0), id="board")
            yield LinesView(id="tools", focusable=False)
        yield KeysFooter()

    # ------------------------------------------------------------------------------ reading

    @property
    def draft(self) -> MapDraft | None:
        """The map being edited (None when the project has none, or it cannot be shown)."""
        tables = self.model.map_tables
        if not tables:
            return None
        self.index = min(max(self.index, 0), len(tables) - 1)
        table = tables[self.index]
        if self._parsed[0] is not table:  # tables are replaced, never changed, by an edit
            try:
                self._parsed = (table, draft_of(table, self.index), None)
            except ProjectError as exc:
                self._parsed = (table, None, exc)
        return self._parsed[1]

    def _project_problem(self) -> ProjectError | None:
        model = self.model
        if self._checked[0] is not model:
            self._checked = (model, next(iter(model.problems()), None))
        return self._checked[1]

    @property
    def tile(self) -> tuple[int, int]:
        """The cursor as (row, col)."""
        x, y = self.cursor
        return y, x

    # ------------------------------------------------------------------------------ drawing

    def _renderer(self) -> HauntedCells:
        draft = self.draft or blank("", 5)
        markers: dict[tuple[int, int], list[str]] = {}
        for label, tile in draft.labelled_starts():
            markers.setdefault(tile, []).append(label)
        width, height = self.app.size
        cell = cell_size_for(draft.size, (width - TOOLS_MIN - 4, height - 3))
        return HauntedCells(draft.size, draft.strengths, markers,
                            styles=haunted_styles(self.styles_ui), cell=cell)

    def refresh_view(self) -> None:
        self.board.renderer = self._renderer()
        self.show_status()

    def action_scroll_tools(self, direction: int) -> None:
        """A page of the tools pane: the checks and a simulation outgrow it at 80×24."""
        self.query_one("#tools", LinesView).page(direction)

    def show_status(self) -> None:
        """Redraw the tools pane (wrapped to its width, so nothing is cut off at 80×24)."""
        tools = self.query_one("#tools", LinesView)
        draft, ui = self.draft, self.styles_ui
        if draft is None:
            error = self._parsed[2]
            tools.set_lines([Text(f"✗ {error}", style=ui.error) if error
                             else Text("No maps: n adds one")])
            return
        state = ToolState(self.index, len(self.model.map_tables), self.brush, self.symmetry,
                          self.pen, self.pending, self.tile)
        checked = fairness(draft) if self.show_fairness else None
        self._say_fairness(checked)
        lines = tool_lines(draft, state, problems(draft), self._project_problem(), checked, ui)
        lines += self.simulation_lines()
        columns = self.board.renderer.cell_size[0]
        # Room is kept for the scroll bar, which comes once the lines outgrow the pane and was
        # drawn over their last letters.
        room = tools.size.width or self.app.size.width - draft.size * columns - 7
        width = max(room - tools.styles.scrollbar_size_vertical, 20)
        tools.set_lines([piece for line in lines
                         for piece in line.wrap(self.app.console, width, overflow="fold")])

    def on_lines_view_resized(self, event: LinesView.Resized) -> None:
        # A bigger map narrows the pane at its next layout: wrapped at the old width, the brush
        # line lost its last starts.
        if event.view.id == "tools":
            self.show_status()

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_view()

    # ----------------------------------------------------------------------------- painting

    def paint(self, x: int, y: int, stroke: bool) -> None:
        draft = self.draft
        if draft is None:
            return
        row, col, brush = y, x, self.brush
        if brush.isdigit():
            new = paint(draft, row, col, int(brush), self.symmetry)
            mirrored = len(mirrored_tiles(draft.size, row, col, self.symmetry)) - 1
            label = f"paint {brush} at {at((row, col))}" + (f" (+{mirrored} mirrored)"
                                                            if mirrored else "")
        else:
            side, index = ("home" if brush[0] == "H" else "away"), int(brush[1])
            new = place_start(draft, side, index, row, col, self.symmetry)
            mirror = start_mirror(draft.size, row, col, self.symmetry)
            other = "A" if brush[0] == "H" else "H"
            label = f"place {brush} at {at((row, col))}" + (
                f" and {other}{index} at {at(mirror)}" if mirror else "")
        if new is not draft:
            self.edit(f"stroke of {brush}" if stroke else label,
                      with_draft(self.model, self.index, new), self.merge_key)

    def action_digit(self, n: int) -> None:
        """``0``-``3`` choose a strength brush and paint; after ``h``/``a``, 1-3 pick a start."""
        if self.pending and n >= 1:
            self.brush = f"{'H' if self.pending == 'home' else 'A'}{n - 1}"
        else:
            self.brush = str(n)
        self.pending = None
        self.action_apply()
        self.show_status()

    def action_start(self, side: str) -> None:
        self.pending = side
        self.show_status()

    def on_key(self, event: events.Key) -> None:
        # Runs before the bindings: any key but the start digits drops a pending h / a.
        if self.pending and event.key not in ("1", "2", "3", "h", "a", "escape"):
            self.pending = None
            self.show_status()

    def action_symmetry(self) -> None:
        self.symmetry = next_symmetry(self.symmetry)
        self.show_status()

    def action_fairness(self) -> None:
        """Show (or hide) the fairness check; while shown it follows every edit."""
        self.show_fairness = not self.show_fairness
        self._fairness_said = None
        self.show_status()

    def _say_fairness(self, result: Fairness | None) -> None:
        """Toast the check's verdict when it is turned on and whenever it changes, in place of
        the last one: a "Fair" toast stayed up beside the pane's "✗ not fair" after an edit."""
        if result is None:
            self._fairness_said = None
            return
        verdict = ("Fair: " + " and ".join(result.modes) if result.fair
                   else "Not fair: the tools pane says where")
        if verdict != self._fairness_said:
            self._fairness_said = verdict
            self.app.notify_in_place("fairness", verdict, timeout=3)

    def action_escape(self) -> None:
        if self.pending:
            self.pending = None
            self.show_status()
        elif self.pen:
            self.end_pen()
            self.show_status()
        else:
            self.action_back()

    # -------------------------------------------------------------------------- the project

    def action_undo(self) -> None:
        before = self.model
        super().action_undo()
        self._follow(before)

    def action_redo(self) -> None:
        before = self.model
        super().action_redo()
        self._follow(before)

    def _follow(self, before) -> None:
        """Show the map an undo or redo changed (it may not be the one on screen)."""
        old, new = before.map_tables, self.model.map_tables
        changed = [i for i in range(max(len(old), len(new)))
                   if i >= len(old) or i >= len(new) or old[i] is not new[i]]
        if changed and changed[0] != self.index:
            self.open_map(changed[0])

    def open_map(self, index: int) -> None:
        self.end_pen()
        self.index = index
        self.refresh_view()

    def action_map(self, step: int) -> None:
        count = len(self.model.map_tables)
        if count:
            self.open_map((self.index + step) % count)

    # ---------------------------------------------------------------------------- quick test

    def action_quick_test(self) -> None:
        """One round, greedy against greedy, on this map as it is now (saved or not)."""
        draft = self.draft
        try:
            board = draft.to_map() if draft is not None else None
        except ValueError as exc:
            board, reason = None, str(exc)
        else:
            reason = "there is no map"
        if board is None:
            self.notify(f"Fix the map first: {reason}", severity="error", timeout=4)
            return
        # The seed comes from the map itself: the same map gives the same test, so what changes
        # between two tests is the edit made, not the dice.
        seed = zlib.crc32(json.dumps(board.to_json(), sort_keys=True).encode())
        plan = MatchPlan(home=QUICK_TEST_AI, away=QUICK_TEST_AI,
                         config=MatchConfig(rounds=1, max_rounds=1, maps=(board.name,)),
                         seed=seed, maps={board.name: board}, teams=(), folder=self.folder,
                         extra={"note": f"quick test of {board.name}"})
        try:
            screen = make("match", self.document, plan=plan)
        except ImportError:
            self.notify("The match view is not part of this build yet.", severity="warning")
            return
        self.end_pen()
        self.app.push_screen(screen)


async def _nothing() -> None:
    """The picker's "open": opening the map was all there was to do."""
