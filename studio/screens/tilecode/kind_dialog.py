"""Name, terminal glyph and colour of one kind (the gallery of §8.3, reduced to what a terminal
needs): one undoable edit when accepted."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from studio.engines.tilecode.art_edit import (
    is_color,
    is_glyph,
    kind_at,
    kind_color,
    kind_glyph,
    set_kind,
)
from studio.engines.tilecode.model import KIND_CODES, Game
from studio.widgets.dialogs import Dialog
from studio.widgets.document import Document


class KindDialog(Dialog[bool]):
    """Edit a kind's name, glyph and colour; empty glyph or colour means "derive from the art"."""

    DEFAULT_CSS = """
    KindDialog Grid { grid-size: 2; grid-columns: 8 1fr; height: auto; grid-gutter: 0 1; }
    KindDialog Input { width: 1fr; }
    KindDialog .note { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, document: Document[Game], index: int) -> None:
        super().__init__()
        self.document = document
        self.index = index

    def compose(self) -> ComposeResult:
        kind = kind_at(self.document.model, self.index)
        background = self.index < 4
        with Vertical():
            yield Label(f"Kind {KIND_CODES[self.index]}", classes="title")
            with Grid():
                yield Label("Name")
                yield Input(kind.name, id="name")
                yield Label("Glyph")
                yield Input(kind.glyph or "", id="glyph",
                            placeholder=f"{kind_glyph(kind, background)} (from the name)")
                yield Label("Colour")
                yield Input(kind.color or "", id="color",
                            placeholder=f"{kind_color(kind, background)} (from the art)")
            yield Static("Glyph: 1 or 2 terminal cells. Colour: #rrggbb. Leave either empty to "
                         "derive it.", classes="note")
            yield Static("", classes="problem", id="problem", markup=False)  # quotes input
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("OK", variant="primary", id="ok")

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted)
    def accept(self) -> None:
        name = self.query_one("#name", Input).value.strip()
        glyph = self.query_one("#glyph", Input).value or None
        color = (self.query_one("#color", Input).value.strip() or None)
        problem = ""
        if not name:
            problem = "every kind needs a name"
        elif glyph is not None and not is_glyph(glyph):
            problem = f"glyph {glyph!r} must fill 1 or 2 terminal cells"
        elif color is not None and not is_color(color):
            problem = f"colour {color!r} must look like #91463d"
        if problem:
            self.query_one("#problem", Static).update(problem)
            return
        game = self.document.model
        kind = replace(kind_at(game, self.index), name=name, glyph=glyph,
                       color=None if color is None else color.lower())
        self.document.edit(f"edit kind {KIND_CODES[self.index]}", set_kind(game, self.index, kind))
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)
