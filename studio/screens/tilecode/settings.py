"""Game settings (tilecode.md §8.4): map size (shrinking asks, then crops right and bottom),
round period, default seed, render mode, help numbers; the format and provenance of the game."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.widgets import Button, Header, Input, Label, Static

from studio.engines.tilecode.map_edit import ROUND_MS, resize, resize_loss, set_map
from studio.engines.tilecode.model import MAX_MAP, MAX_SEED, MIN_MAP
from studio.screens.dialogs import ConfirmDialog
from studio.screens.formatting import counted, inert
from studio.screens.tilecode.base import TilecodeScreen
from studio.widgets.footer import KeysFooter
from studio.widgets.save import SavePath
from studio.widgets.toggles import Checkbox, FormCheckbox



def parse_whole(text: str, low: int, high: int, what: str) -> int:
    """A whole number in [low, high] from a field; ValueError names the field and the range."""
    try:
        value = int(text.strip())
    except ValueError:
        raise ValueError(f"{what} must be a whole number") from None
    if not low <= value <= high:
        raise ValueError(f"{what} must be from {low} to {high}")
    return value


class SettingsScreen(TilecodeScreen):
    """Edit the game's settings; ``Apply`` (or ``enter`` in a field) records one undoable edit.

    Values typed but not applied are applied by ``ctrl+s`` and by leaving (each an undoable
    edit), so nothing typed here is lost; a value that does not parse keeps the screen open.
    """

    SCREEN_TITLE = "settings"
    DEFAULT_CSS = """
    SettingsScreen VerticalScroll { padding: 1 2; }
    SettingsScreen Grid { grid-size: 2; grid-columns: 22 1fr; height: auto; grid-gutter: 1 1; }
    SettingsScreen Input { width: 24; }
    SettingsScreen #problem { color: $text-error; height: auto; }
    SettingsScreen #about { color: $text-muted; margin-top: 1; height: auto; }
    SettingsScreen Horizontal { height: auto; margin-top: 1; }
    SettingsScreen Horizontal Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "apply", "Apply", show=False),
    ]

    def compose(self) -> ComposeResult:
        game = self.game
        yield Header()
        with VerticalScroll():
            with Grid():
                yield Label(f"Map width ({MIN_MAP}-{MAX_MAP})")
                yield Input(str(game.map.width), id="width", type="integer", compact=True)
                yield Label(f"Map height ({MIN_MAP}-{MAX_MAP})")
                yield Input(str(game.map.height), id="height", type="integer", compact=True)
                yield Label(f"Round ms ({ROUND_MS[0]}-{ROUND_MS[1]})")
                yield Input(str(game.round_ms), id="round_ms", type="integer", compact=True)
                yield Label("Seed (blank = random)")
                yield Input("" if game.seed is None else str(game.seed), id="seed",
                            type="integer", placeholder="random", compact=True)
                yield Label("Render mode")
                yield FormCheckbox("art: 4×2 half-block tiles (else 2×1 glyphs)",
                                   game.render == "art", id="render", compact=True)
                yield Label("Help numbers")
                yield FormCheckbox("number Do rows and tiles", game.help, id="help", compact=True)
            yield Static("", id="problem")
            with Horizontal():
                yield Button("Apply", variant="primary", id="apply", compact=True)
                yield Button("Back", id="back", compact=True)
            yield Static(self._about(), id="about")
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#width", Input).focus()

    def _about(self) -> str:
        game = self.game
        lines = ["Format 1 (TileCode project). Growing the map fills with background b0; "
                 "shrinking crops the right and bottom edges."]
        if game.provenance:
            lines.append("Imported: " + ", ".join(f"{k} {v}" for k, v in game.provenance.items()))
        return "\n".join(lines)

    def refresh_view(self) -> None:
        # Undo or redo changed the settings under the form: show them.
        game = self.game
        values = {"width": game.map.width, "height": game.map.height, "round_ms": game.round_ms,
                  "seed": "" if game.seed is None else game.seed}
        for key, value in values.items():
            field = self.query_one(f"#{key}", Input)
            if field.value != str(value):
                field.value = str(value)
        self.query_one("#render", Checkbox).value = game.render == "art"
        self.query_one("#help", Checkbox).value = game.help

    def _form(self) -> dict[str, object]:
        values: dict[str, object] = {key: self.query_one(f"#{key}", Input).value.strip()
                                     for key in ("width", "height", "round_ms", "seed")}
        values["render"] = self.query_one("#render", Checkbox).value
        values["help"] = self.query_one("#help", Checkbox).value
        return values

    def form_differs(self) -> bool:
        """Whether the form holds values the game does not have (typed, not applied)."""
        game = self.game
        return self._form() != {"width": str(game.map.width), "height": str(game.map.height),
                                "round_ms": str(game.round_ms),
                                "seed": "" if game.seed is None else str(game.seed),
                                "render": game.render == "art", "help": game.help}

    @on(Input.Submitted)
    @on(Button.Pressed, "#apply")
    def _apply_pressed(self) -> None:
        self.apply()

    @on(Button.Pressed, "#back")
    def _back_pressed(self) -> None:
        self.action_back()

    @work(exclusive=True, group="settings")
    async def action_back(self) -> None:
        if self.form_differs() and not await self.apply_form():
            return  # a value does not parse, or the crop was declined: the form stays
        self.dismiss(None)

    @work(exclusive=True, group="save")
    async def action_save(self) -> None:
        if self.form_differs() and not await self.apply_form():
            return
        await SavePath(self.app, self.document).save()

    @work(exclusive=True, group="settings")
    async def apply(self) -> None:
        await self.apply_form()

    def action_apply(self) -> None:
        self.apply()  # enter on a checkbox (a field's enter submits it: the same)

    async def confirm_close(self) -> bool:
        """Quitting applies what was typed first, as leaving does, so that the save question
        knows of it; a value that does not parse keeps the studio open with the reason."""
        return not self.form_differs() or await self.apply_form()

    async def apply_form(self) -> bool:
        """Record the form as one edit; False when a value is refused or the crop declined."""
        problem = self.query_one("#problem", Static)
        try:
            width = parse_whole(self.query_one("#width", Input).value, MIN_MAP, MAX_MAP, "width")
            height = parse_whole(self.query_one("#height", Input).value, MIN_MAP, MAX_MAP,
                                 "height")
            round_ms = parse_whole(self.query_one("#round_ms", Input).value, *ROUND_MS,
                                   "round period")
            seed_text = self.query_one("#seed", Input).value.strip()
            seed = None if not seed_text else parse_whole(seed_text, 0, MAX_SEED, "seed")
        except ValueError as exc:
            problem.update(Text(inert(str(exc), log=True)))
            return False
        problem.update("")
        game = self.game
        tiles, sprites = resize_loss(game.map, width, height)
        if tiles or sprites:
            question = (f"Shrinking the map to {width}×{height} removes {counted(tiles, 'tile')} and "
                        f"{counted(sprites, 'sprite')} at the right and bottom. ctrl+z brings them back.")
            if not await self.app.push_screen_wait(ConfirmDialog("Crop the map?", question,
                                                                 yes="Crop")):
                return False
        new = game
        if (width, height) != (game.map.width, game.map.height):
            new = set_map(new, resize(new.map, width, height))
        new = replace(new, round_ms=round_ms, seed=seed,
                      render="art" if self.query_one("#render", Checkbox).value else "glyph",
                      help=self.query_one("#help", Checkbox).value)
        if self.edit("settings", new):
            self.notify("Settings applied", timeout=2)
        return True
