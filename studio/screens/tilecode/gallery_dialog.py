"""The paint editor's gallery picker: preset images (storage ``gallery``), one chosen with a
preview beside the list."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from studio.engines.tilecode.art_edit import art_blocks
from studio.screens.tilecode.render import TileLook, half_blocks
from studio.storage.tilecode.gallery import GALLERY, preset
from studio.widgets.canvas import Canvas
from studio.widgets.dialogs import Dialog
from studio.widgets.lines import LinesView


class GalleryDialog(Dialog["str | None"]):
    """Choose a preset image: arrows move, ``enter`` takes it (the caller replaces the image,
    one undoable edit), ``escape`` keeps the image as it is."""

    DEFAULT_CSS = """
    GalleryDialog > Vertical { width: 44; }
    GalleryDialog Horizontal { height: 10; }
    GalleryDialog OptionList { width: 24; height: 10; }
    GalleryDialog #gallery-preview { width: 18; height: 8; padding: 0 1; }
    GalleryDialog .note { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, look: TileLook, sprite: bool) -> None:
        super().__init__()
        self.look = look
        self.sprite = sprite

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Gallery: replace the image with", classes="title")
            with Horizontal():
                yield OptionList(*(Option(f"{'sprite' if p.sprite else 'tile  '}  {p.name}",
                                          id=p.name) for p in GALLERY), id="presets")
                yield LinesView(id="gallery-preview", focusable=False)
            yield Label("enter takes it · escape keeps yours", classes="note")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        # Sprites first when a sprite is being painted: the likelier choice is on top.
        first = next((i for i, p in enumerate(GALLERY) if p.sprite == self.sprite), 0)
        options.highlighted = first
        options.focus()
        self._preview(GALLERY[first].name)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self._preview(event.option.id)

    def _preview(self, name: str) -> None:
        pixels = preset(name).pixels
        cells = half_blocks(art_blocks(pixels, 16), self.look, self.sprite)
        canvas = Canvas(16, 8)
        for y, row in enumerate(cells):
            for x, (char, style) in enumerate(row):
                canvas.put(x, y, char, style)
        self.query_one("#gallery-preview", LinesView).set_lines(canvas.strips())

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
