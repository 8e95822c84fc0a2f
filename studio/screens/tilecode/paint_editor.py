"""Paint editor (tilecode.md §8.6): the 16×16 art of the 8 kinds, a 16-colour palette, pen
strokes, flood fill and an eyedropper. The canvas is a :class:`Board` with a pixel renderer."""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.widgets import Header

from studio.engines.tilecode.art_edit import flood_fill, kind_at, pixel, set_art, set_pixel
from studio.engines.tilecode.model import ART_SIZE, KIND_CODES
from studio.screens.formatting import fit
from studio.screens.tilecode.board_editor import BoardEditorScreen
from studio.screens.tilecode.render import TileLook, half_blocks, look_for
from studio.widgets.board import Board
from studio.widgets.canvas import Canvas
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView


class PixelRenderer:
    """A 16×16 art as a board of 2×1 cells; palette index 0 is a checkerboard on sprites."""

    cell_size = (2, 1)
    width = height = ART_SIZE

    def __init__(self, art: tuple[str, ...] | None, look: TileLook, sprite: bool) -> None:
        self.art = art
        self.look = look
        self.sprite = sprite

    def row_key(self, y: int):
        return self.art[y] if self.art else None

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        out = []
        for x in range(x0, x1):
            index = pixel(self.art, x, y)
            if index == 0 and self.sprite:
                shade = "#3a3a3a" if (x + y) % 2 else "#262626"
                out.append(Segment("  ", Style(bgcolor=shade)))
            else:
                out.append(Segment("  ", Style(bgcolor=self.look.palette[index])))
        return out

    def render_cursor(self, y: int, x: int, line: int, segments: list[Segment]) -> list[Segment]:
        bg = segments[0].style.bgcolor if segments and segments[0].style else None
        return [Segment("[]", Style(color="#ffff00", bgcolor=bg, bold=True))]


class PaintEditorScreen(BoardEditorScreen):
    """Draw one kind's art; ``pageup``/``pagedown`` switch kinds, ``[``/``]`` colours."""

    SCREEN_TITLE = "paint"
    MIN_SIZE = (72, 20)
    """The sprite list, the image and its palette side by side."""
    DEFAULT_CSS = """
    PaintEditorScreen #kinds { height: 5; padding: 0 1; }
    PaintEditorScreen #palette { width: 14; height: 16; }
    PaintEditorScreen Board { width: 34; height: 16; }
    PaintEditorScreen #preview { width: 1fr; height: 16; padding: 0 1; }
    PaintEditorScreen Horizontal { height: 16; }
    PaintEditorScreen #status { height: 1; padding: 0 1; background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "colour(-1)", "Colour -", key_display="["),
        Binding("right_square_bracket", "colour(1)", "Colour +", key_display="]"),
        Binding("pageup,comma", "kind(-1)", "Prev kind", key_display="pgup"),
        Binding("pagedown,full_stop", "kind(1)", "Next kind", key_display="pgdn"),
        Binding("g", "gallery", "Gallery"),
        Binding("escape,x", "back", "Back"),
    ]

    def __init__(self, document, kind: int = 4) -> None:
        super().__init__(document)
        self.kind = kind
        self.colour = 1

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="kinds", focusable=False)
        with Horizontal():
            yield LinesView(id="palette", focusable=False)
            yield Board(self._renderer(), cursor=(8, 8), margin=0)
            with Vertical():
                yield LinesView(id="preview", focusable=False)
        yield LinesView(id="status", classes="-bar", focusable=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.board.focus()

    def _renderer(self) -> PixelRenderer:
        kind = kind_at(self.game, self.kind)
        return PixelRenderer(kind.art, look_for(self.game, self.styles_ui), self.kind >= 4)

    # --------------------------------------------------------------------------- drawing

    def refresh_view(self) -> None:
        self.board.renderer = self._renderer()
        styles = self.styles_ui
        look = look_for(self.game, styles)
        self._draw_kinds(look, styles)
        self._draw_palette(look, styles)
        self._draw_preview(look, styles)
        self.show_status()

    def _draw_kinds(self, look: TileLook, styles) -> None:
        from studio.engines.tilecode.art_edit import art_blocks

        canvas = Canvas(8 * 9, 5)
        for i, code in enumerate(KIND_CODES):
            x = i * 9
            art = kind_at(self.game, i).art
            if art is not None:
                for line, cells in enumerate(half_blocks(art_blocks(art, 8), look, i >= 4)):
                    for col, (char, style) in enumerate(cells):
                        canvas.put(x + col, line, char, style)
            label = styles.selected if i == self.kind else styles.muted
            canvas.put(x, 4, fit(f"{code} {look.names[i]}", 8), label)
            canvas.hit(Region(x, 0, 8, 5), i)
        self.query_one("#kinds", LinesView).set_lines(canvas.strips(), canvas.hits)

    def _draw_palette(self, look: TileLook, styles) -> None:
        canvas = Canvas(14, 16)
        for index in range(16):
            col, row = index // 8, index % 8
            x, y = col * 7, row * 2
            swatch = Style(bgcolor=look.palette[index])
            label = styles.selected if index == self.colour else styles.muted
            canvas.put(x, y, f"{index:x}", label)
            canvas.fill(Region(x + 2, y, 4, 1), swatch)
            if index == self.colour:
                canvas.put(x + 2, y, "◀▶", Style(color="#ffff00", bgcolor=look.palette[index],
                                                 bold=True))
            canvas.hit(Region(x, y, 6, 2), index)
        self.query_one("#palette", LinesView).set_lines(canvas.strips(), canvas.hits)

    def _draw_preview(self, look: TileLook, styles) -> None:
        art = kind_at(self.game, self.kind).art
        canvas = Canvas(20, 12)
        canvas.put(0, 0, "actual size", styles.muted)
        if art is not None:
            rows = [[int(c, 16) for c in row] for row in art]
            for line, cells in enumerate(half_blocks(rows, look, self.kind >= 4)):
                for col, (char, style) in enumerate(cells):
                    canvas.put(col, 1 + line, char, style)
        else:
            canvas.put(0, 1, "(no art yet)", styles.muted)
        canvas.put(0, 10, "0 = transparent" if self.kind >= 4 else "0 = black", styles.muted)
        self.query_one("#preview", LinesView).set_lines(canvas.strips())

    def show_status(self) -> None:
        styles = self.styles_ui
        x, y = self.cursor
        kind = kind_at(self.game, self.kind)
        text = (f"{KIND_CODES[self.kind]} {kind.name} · pixel ({x},{y}) = "
                f"{pixel(kind.art, x, y):x} · colour {self.colour:x} · "
                f"{'pen DOWN' if self.pen else 'pen up'}")
        # At 80 columns the footer runs out before the gallery's key: the status line says it.
        text += " · g gallery"
        canvas = Canvas(len(text) + 1, 1)
        canvas.put(0, 0, text, styles.text)
        self.query_one("#status", LinesView).set_lines(canvas.strips())

    # --------------------------------------------------------------------------- actions

    def _art(self):
        return kind_at(self.game, self.kind).art

    def paint(self, x: int, y: int, stroke: bool) -> None:
        code = KIND_CODES[self.kind]
        label = f"pen stroke on {code}" if stroke else f"pixel ({x},{y}) of {code}"
        art = set_pixel(self._art(), x, y, self.colour)
        self.edit(label, set_art(self.game, self.kind, art), self.merge_key)

    def action_fill(self) -> None:
        x, y = self.cursor
        art = flood_fill(self._art(), x, y, self.colour)
        self.edit(f"fill {KIND_CODES[self.kind]} from ({x},{y})",
                  set_art(self.game, self.kind, art))

    def action_gallery(self) -> None:
        from studio.screens.tilecode.gallery_dialog import GalleryDialog
        from studio.storage.tilecode.gallery import preset

        code = KIND_CODES[self.kind]

        def chosen(name: str | None) -> None:
            if name is not None:
                self.edit(f"gallery {name} on {code}",
                          set_art(self.game, self.kind, preset(name).pixels))

        self.app.push_screen(GalleryDialog(look_for(self.game, self.styles_ui), self.kind >= 4),
                             chosen)

    def action_pick(self) -> None:
        x, y = self.cursor
        self.colour = pixel(self._art(), x, y)
        self.refresh_view()

    def action_colour(self, delta: int) -> None:
        self.colour = (self.colour + delta) % 16
        self.refresh_view()

    def action_kind(self, delta: int) -> None:
        self.kind = (self.kind + delta) % 8
        self.refresh_view()

    @on(LinesView.Clicked, "#palette")
    def _palette_clicked(self, message: LinesView.Clicked) -> None:
        self.colour = message.key
        self.refresh_view()

    @on(LinesView.Clicked, "#kinds")
    def _kind_clicked(self, message: LinesView.Clicked) -> None:
        self.kind = message.key
        self.refresh_view()
