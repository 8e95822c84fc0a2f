"""Project settings of a behaviour-tree game: the default seed, each player's seat, what a
missing link does, and the board's display (glyphs, cell width, hidden tiles).

Reached with ``,`` from the tree editor and from play (their ``action_settings``). Applying records
one undoable edit of the document, in the history the tree editor's edits share.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.widgets import Button, Header, Input, Label, Static

from studio.engines.btree import BtreeError
from studio.screens.btree.base import BtreeScreen
from studio.screens.formatting import inert
from studio.storage import ProjectError
from studio.engines.btree.play.seats import SEAT_HINT
from studio.storage.btree.kind import SEATS, pids_of
from studio.storage.btree.project import compile_model
from studio.storage.btree.settings import MAX_CELL_WIDTH, SettingsForm, apply_form, form_of
from studio.widgets.footer import KeysFooter
from studio.widgets.save import SavePath
from studio.widgets.toggles import FormCheckbox


class BtreeSettingsScreen(BtreeScreen):
    """Edit the project's settings; ``Apply`` (or ``enter`` in a field) records one undoable edit;
    leaving and ``ctrl+s`` apply what was typed first, so nothing typed is lost."""

    SCREEN_TITLE = "settings"
    HELP_ABOUT: ClassVar[str] = (
        "The game's settings: the seed play starts with, who moves for each player (human, "
        "random, first, solver: the solver's line, or computer: a search, 1 s a move, "
        "computer:0.5 for half a second), whether a link or x-file whose target is "
        "missing is an error or expands to nothing (as trrbt does), and how the board is drawn. "
        "Seed and seats take effect when play starts or restarts (r).")
    DEFAULT_CSS = """
    BtreeSettingsScreen VerticalScroll { padding: 1 2; }
    BtreeSettingsScreen Grid { grid-size: 2; grid-columns: 26 1fr; height: auto;
                               grid-gutter: 1 1; }
    BtreeSettingsScreen Input { width: 1fr; max-width: 40; }
    BtreeSettingsScreen #problem { color: $text-error; height: auto; }
    BtreeSettingsScreen Horizontal { height: auto; margin-top: 1; }
    BtreeSettingsScreen Horizontal Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "apply", "Apply", show=False),
    ]

    def __init__(self, document) -> None:
        super().__init__(document)
        compiled = compile_model(self.model)
        self.pids = [] if isinstance(compiled, BtreeError) else pids_of(compiled)

    def _current(self) -> SettingsForm:
        return form_of(self.model.settings, self.pids)

    def compose(self) -> ComposeResult:
        form = self._current()
        yield Header()
        with VerticalScroll():
            with Grid():
                yield Label("Seed (play starts with it)")
                yield Input(form.seed, id="seed", type="integer", compact=True)
                for index, (pid, seat) in enumerate(form.seats.items()):
                    yield Label(inert(f"Player {pid}: seat"), markup=False)
                    yield Input(seat, id=f"seat-{index}", placeholder=" / ".join(SEATS),
                                compact=True)
                yield Label("Missing links")
                yield FormCheckbox("expand to nothing, as trrbt does",
                                   form.missing_empty, id="missing", compact=True)
                yield Label("Glyphs (TILE=GLYPH …)")
                yield Input(form.glyphs, id="glyphs", placeholder="e.g. X=✕ _=·", compact=True)
                yield Label(f"Cell width (0 = auto, ≤{MAX_CELL_WIDTH})")
                yield Input(form.cell_width, id="cell_width", type="integer", compact=True)
                yield Label("Hidden tiles")
                yield FormCheckbox("show _ tiles and hidden layers", form.show_hidden,
                                   id="hidden", compact=True)
                yield Label("Sprite images")
                yield FormCheckbox("draw them where they fit (i in play)", form.images,
                                   id="images", compact=True)
            yield Static("", id="problem")
            with Horizontal():
                yield Button("Apply", variant="primary", id="apply", compact=True)
                yield Button("Back", id="back", compact=True)
            yield Static(f"Seats: {SEAT_HINT}. Seed and seats apply when play starts "
                         "or restarts (r). A missing link (unticked) is an error naming it.",
                         id="about", markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#seed", Input).focus()

    def _form(self) -> SettingsForm:
        seats = {pid: self.query_one(f"#seat-{index}", Input).value
                 for index, pid in enumerate(self._current().seats)}
        return SettingsForm(self.query_one("#seed", Input).value, self.query_one(
            "#missing", FormCheckbox).value, seats, self.query_one("#glyphs", Input).value,
            self.query_one("#cell_width", Input).value, self.query_one("#hidden", FormCheckbox).value,
            self.query_one("#images", FormCheckbox).value)

    def refresh_view(self) -> None:
        # Undo or redo changed the settings under the form: show them.
        form = self._current()
        values = {"seed": form.seed, "glyphs": form.glyphs, "cell_width": form.cell_width}
        values.update({f"seat-{i}": seat for i, seat in enumerate(form.seats.values())})
        for key, value in values.items():
            field = self.query_one(f"#{key}", Input)
            if field.value != value:
                field.value = value
        self.query_one("#missing", FormCheckbox).value = form.missing_empty
        self.query_one("#hidden", FormCheckbox).value = form.show_hidden
        self.query_one("#images", FormCheckbox).value = form.images

    def form_differs(self) -> bool:
        """Whether the form holds values the project does not have (typed, not applied)."""
        return self._form() != self._current()

    def apply_form(self) -> bool:
        """Record the form as one edit; False (the reason shown) when a value is refused."""
        problem = self.query_one("#problem", Static)
        try:
            settings = apply_form(self.model.settings, self._form())
        except ProjectError as exc:
            problem.update(Text(inert(exc.message, log=True)))
            return False
        problem.update("")
        if self.edit("settings", replace(self.model, settings=settings)):
            self.notify("Settings applied", timeout=2)
        return True

    @on(Input.Submitted)
    @on(Button.Pressed, "#apply")
    def action_apply(self) -> None:
        self.apply_form()

    @on(Button.Pressed, "#back")
    def _back_pressed(self) -> None:
        self.action_back()

    def action_back(self) -> None:
        if not self.form_differs() or self.apply_form():
            self.dismiss(None)

    @work(exclusive=True, group="save")
    async def action_save(self) -> None:
        if not self.form_differs() or self.apply_form():
            await SavePath(self.app, self.document).save()

    async def confirm_close(self) -> bool:
        """Quitting applies what was typed first, as leaving does."""
        return not self.form_differs() or self.apply_form()
