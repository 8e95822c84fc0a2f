"""Map editor (tilecode.md §8.5): background and sprite brushes, pen-down strokes, stacks shown
with a count, flood fill and an eyedropper; every change undoable, a stroke as one step."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.style import Style
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.widgets import Header

from studio.engines.tilecode.map_edit import (
    clear_sprites,
    flood_tiles,
    paint_tile,
    set_map,
    sprites_on,
    stamp_sprite,
)
from studio.engines.tilecode.model import KIND_CODES
from studio.screens.formatting import counted
from studio.screens.tilecode.board_editor import BoardEditorScreen
from studio.screens.tilecode.render import MapRenderer, look_for
from studio.widgets.board import Board
from studio.widgets.board_edges import MarkedBoard
from studio.widgets.canvas import Canvas
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView


class MapEditorScreen(BoardEditorScreen):
    """Paint the map: ``1``–``4`` background brushes, ``5``–``8`` sprite brushes."""

    SCREEN_TITLE = "map"
    DEFAULT_CSS = """
    MapEditorScreen #brushes { height: 1; padding: 0 1; }
    MapEditorScreen #status { height: 1; padding: 0 1; background: $boost; }
    MapEditorScreen Board { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(i + 1), f"brush({i})", f"Brush {i + 1}", show=False) for i in range(8)],
        Binding("delete,backspace", "clear", "Clear sprites"),
        Binding("home", "recentre", "Recentre"),
        Binding("v", "render_mode", "Glyph/art"),
        Binding("escape,x", "back", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("pen", "Pen down / up", "While the pen is down every cursor move paints"),
        ("fill", "Flood fill", "Fill the connected area of one background with the brush"),
        ("render_mode", "Switch glyph / art mode", "2×1 glyph cells or 4×2 art cells"),
    ]

    def __init__(self, document) -> None:
        super().__init__(document)
        self.brush = 4  # the player sprite: what a new map usually needs first

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="brushes", classes="-bar", focusable=False)
        yield MarkedBoard(self._renderer(), cursor=(0, 0), id="map")
        yield LinesView(id="status", classes="-bar", focusable=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        board = self.query_one(Board)
        board.set_camera(-3, -3)  # as the original: the map starts a little in from the corner
        board.focus()

    def _renderer(self) -> MapRenderer:
        return MapRenderer.for_map(look_for(self.game, self.styles_ui), self.game.map,
                                   self.game.render)

    # --------------------------------------------------------------------------- drawing

    def refresh_view(self) -> None:
        self.board.renderer = self._renderer()
        self._draw_brushes()
        self.show_status()

    def _draw_brushes(self) -> None:
        styles = self.styles_ui
        look = look_for(self.game, styles)
        canvas = Canvas(80, 1)
        x = canvas.put(0, 0, "brush ", styles.muted)
        for i, code in enumerate(KIND_CODES):
            glyph, style = look.code_glyph(code)
            label_style = styles.selected if i == self.brush else styles.muted
            start = x
            x = canvas.put(x, 0, f"{i + 1}", label_style)
            x = canvas.put(x, 0, glyph, style)
            if i == self.brush:
                x = canvas.put(x, 0, f" {look.names[i]}", styles.selected)
            canvas.hit(Region(start, 0, x - start, 1), i)
            x += 2 if i != 3 else 4
        self.query_one("#brushes", LinesView).set_lines(canvas.strips(), canvas.hits)

    def show_status(self) -> None:
        styles = self.styles_ui
        game = self.game
        x, y = self.cursor
        tmap = game.map
        bg = tmap.background[y][x]
        kinds = sprites_on(tmap, x, y)
        names = ", ".join(game.sprites[k].name for k in kinds) or "no sprite"
        pen = "pen DOWN" if self.pen else "pen up"
        text = (f"({x},{y}) {game.backgrounds[bg].name} · {names}"
                f"{' (stack of ' + str(len(kinds)) + ')' if len(kinds) > 1 else ''} · "
                f"{pen} · {tmap.width}×{tmap.height}, {counted(len(tmap.sprites), 'sprite')}")
        canvas = Canvas(max(len(text) + 1, 10), 1)
        canvas.put(0, 0, text, styles.text + (Style(bold=True) if self.pen else Style()))
        self.query_one("#status", LinesView).set_lines(canvas.strips())

    # --------------------------------------------------------------------------- actions

    def action_brush(self, index: int) -> None:
        self.brush = index
        self._draw_brushes()

    def paint(self, x: int, y: int, stroke: bool) -> None:
        tmap = self.game.map
        code = KIND_CODES[self.brush]
        if self.brush < 4:
            new = paint_tile(tmap, x, y, self.brush)
            label = f"paint {code} at ({x},{y})"
        else:
            if stroke and sprites_on(tmap, x, y) == [self.brush - 4]:
                return  # a stroke places sprites; it never toggles one away
            removing = sprites_on(tmap, x, y) == [self.brush - 4]  # the same again toggles
            new = stamp_sprite(tmap, x, y, self.brush - 4)
            label = f"{'remove' if removing else 'place'} {code} at ({x},{y})"
        if stroke:
            label = f"stroke of {code}"
        self.edit(label, set_map(self.game, new), self.merge_key)

    @on(LinesView.Clicked, "#brushes")
    def _brush_clicked(self, message: LinesView.Clicked) -> None:
        self.action_brush(message.key)

    def action_fill(self) -> None:
        if self.brush >= 4:
            self.notify("Flood fill paints backgrounds: choose a background brush (1-4).",
                        timeout=3)
            return
        x, y = self.cursor
        self.edit(f"fill with {KIND_CODES[self.brush]} from ({x},{y})",
                  set_map(self.game, flood_tiles(self.game.map, x, y, self.brush)))

    def action_pick(self) -> None:
        x, y = self.cursor
        kinds = sprites_on(self.game.map, x, y)
        self.action_brush(4 + min(kinds) if kinds else self.game.map.background[y][x])

    def action_clear(self) -> None:
        x, y = self.cursor
        if sprites_on(self.game.map, x, y):
            self.edit(f"clear sprites at ({x},{y})",
                      set_map(self.game, clear_sprites(self.game.map, x, y)))

    def action_recentre(self) -> None:
        self.board.recentre()

    def action_render_mode(self) -> None:
        mode = "art" if self.game.render == "glyph" else "glyph"
        self.edit(f"{mode} mode", replace(self.game, render=mode))
