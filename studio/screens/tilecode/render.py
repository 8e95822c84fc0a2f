"""How TileCode tiles look in a terminal: glyph mode (2×1 cells) and art mode (4×2 half-blocks).

``TileLook`` turns a game's kinds into styles and pixel blocks once; ``MapRenderer`` is the
:class:`~studio.widgets.board.CellRenderer` for a map or a run state. Both the map editor and
the play screen draw through it, so a tile looks the same everywhere.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import NamedTuple

from rich.cells import cell_len
from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style

from studio.engines.common.inert import inert
from studio.engines.tilecode.art_edit import art_blocks, kind_color, kind_glyph
from studio.engines.tilecode.model import PALETTE, Game, TileMap
from studio.engines.tilecode.state import DIR_NAMES, RESTING, State
from studio.widgets.canvas import UIStyles

ARROWS = {"left": "←", "up": "↑", "right": "→", "down": "↓", "resting": "·", "moving": "»",
          "any": "*"}
"""Direction predicates and sprite directions as one terminal cell."""
CURSOR = Style(color="#ffff00", bold=True)


def _shade(colour: RichColor, factor: float) -> RichColor:
    r, g, b = colour.get_truecolor()
    return RichColor.from_rgb(r * factor, g * factor, b * factor)


def _contrast(colour: RichColor) -> RichColor:
    r, g, b = colour.get_truecolor()
    return RichColor.parse("#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff")


class TileLook:
    """The terminal look of a game's 8 kinds under one theme."""

    def __init__(self, game: Game, styles: UIStyles) -> None:
        self.styles = styles
        self.bg_colour = [styles.colour(kind_color(k, True)) for k in game.backgrounds]
        self.sprite_colour = [styles.colour(kind_color(k, False)) for k in game.sprites]
        self.bg_glyph = [_two_cells(kind_glyph(k, True)) for k in game.backgrounds]
        self.sprite_glyph = [kind_glyph(k, False) for k in game.sprites]
        self.bg_style = [
            Style(color=_shade(c, 0.7) if not styles.ansi else self._contrast(c), bgcolor=c)
            for c in self.bg_colour
        ]
        self.bg_blocks = [art_blocks(k.art) if k.art else None for k in game.backgrounds]
        self.sprite_blocks = [art_blocks(k.art) if k.art else None for k in game.sprites]
        self.palette = [styles.colour(c) for c in PALETTE]
        self.names = [k.name for k in (*game.backgrounds, *game.sprites)]
        self._sprite_styles: dict[tuple[int, int], Style] = {}
        self.art_cells: dict[tuple, list[Segment]] = {}
        """Art-mode cells by (background, sprite kind, line, badge): drawn once per look."""

    def sprite_style(self, kind: int, background: int) -> Style:
        """A sprite glyph in front of a background: its colour, readable on that background."""
        style = self._sprite_styles.get((kind, background))
        if style is None:
            style = self._sprite_styles[(kind, background)] = self._sprite_style(kind, background)
        return style

    def _sprite_style(self, kind: int, background: int) -> Style:
        colour = self.sprite_colour[kind]
        bg = self.bg_colour[background]
        if colour.get_truecolor() == bg.get_truecolor():
            colour = self._contrast(bg)
        return Style(color=colour, bgcolor=bg, bold=True)

    def _contrast(self, colour: RichColor) -> RichColor:
        """Black or white, whichever reads on ``colour`` (in the theme's colour range)."""
        return self.styles.colour(_contrast(colour).get_truecolor().hex)

    def code_glyph(self, code: str) -> tuple[str, Style]:
        """A kind code (``b2``, ``s0``) as its glyph and colour, on the default background."""
        index = int(code[1])
        if code[0] == "b":
            return self.bg_glyph[index], self.bg_style[index]
        return self.sprite_glyph[index], Style(color=self.sprite_colour[index], bold=True)

    def code_name(self, code: str) -> str:
        """A kind code's name (``b2`` → the third background's), made inert: a game's names are
        anyone's text."""
        index = int(code[1]) + (0 if code[0] == "b" else len(self.bg_glyph))
        return inert(self.names[index]) if 0 <= index < len(self.names) else ""

    def pixel_rows(self, background: int, sprite: int | None) -> list[list[int]]:
        """The 4×4 pixel indices of a tile: the sprite's art over the background's."""
        bg = self.bg_blocks[background]
        rows = [list(r) for r in bg] if bg else [[-1 - background] * 4 for _ in range(4)]
        if sprite is not None:
            blocks = self.sprite_blocks[sprite]
            if blocks is None:
                rows[1][1] = rows[1][2] = rows[2][1] = rows[2][2] = -5 - sprite
            else:
                for y in range(4):
                    for x in range(4):
                        if blocks[y][x]:
                            rows[y][x] = blocks[y][x]
        return rows

    def pixel_colour(self, index: int) -> RichColor:
        """A pixel index, where negative indices stand for a kind's flat colour (no art)."""
        if index >= 0:
            return self.palette[index]
        if index >= -4:
            return self.bg_colour[-1 - index]
        return self.sprite_colour[-5 - index]


_LOOKS: list[tuple[tuple, tuple, UIStyles, TileLook]] = []


def look_for(game: Game, styles: UIStyles) -> TileLook:
    """The look of a game's kinds, reused while the kinds and the theme stay the same.

    Kinds are immutable tuples that an edit replaces, so identity tells whether they changed;
    building a look reads every art, which a play round must not pay for.
    """
    for backgrounds, sprites, theme, look in _LOOKS:
        if backgrounds is game.backgrounds and sprites is game.sprites and theme is styles:
            return look
    look = TileLook(game, styles)
    _LOOKS.insert(0, (game.backgrounds, game.sprites, styles, look))
    del _LOOKS[8:]
    return look


def _two_cells(glyph: str) -> str:
    return glyph if cell_len(glyph) == 2 else (glyph * 2)[:2]


class TileSprites(NamedTuple):
    """What a tile shows of its sprites: the topmost, how many there are, its direction."""

    kind: int
    count: int
    dir: str = "resting"


RawSprite = tuple[int, int, int]
"""(x, kind, dir code) of one sprite, in ascending id: enough to draw a tile."""


def rows_from_map(tile_map: TileMap) -> dict[int, list[RawSprite]]:
    """The sprites of an initial map, grouped by row (direction: resting)."""
    rows: dict[int, list[RawSprite]] = {}
    for sprite in tile_map.sprites:
        rows.setdefault(sprite.y, []).append((sprite.x, sprite.kind, RESTING))
    return rows


def rows_from_state(state: State) -> dict[int, list[RawSprite]]:
    """The live sprites of a run state, grouped by row, in ascending id."""
    rows: dict[int, list[RawSprite]] = {}
    for kind, x, y, d in zip(state.kinds, state.xs, state.ys, state.dirs):
        rows.setdefault(y, []).append((x, kind, d))
    return rows


def stack_row(raw: list[RawSprite]) -> dict[int, TileSprites]:
    """One row's tiles: the topmost sprite (lowest kind, then lowest id) and the count."""
    out: dict[int, TileSprites] = {}
    for x, kind, d in raw:
        shown = out.get(x)
        if shown is None:
            out[x] = TileSprites(kind, 1, DIR_NAMES[d])
        elif kind < shown.kind:
            out[x] = TileSprites(kind, shown.count + 1, DIR_NAMES[d])
        else:
            out[x] = shown._replace(count=shown.count + 1)
    return out


class MapRenderer:
    """Draws a background grid and sprite stacks for :class:`~studio.widgets.board.Board`.

    Sprites arrive grouped by row and are stacked only for the rows actually drawn, so a round
    on a big map costs what the view shows, not what the map holds.

    Args:
        look: the game's look.
        width, height: the map size.
        background: background kind per tile, flat row-major.
        sprites: per row, the row's sprites as (x, kind, dir code) in ascending id.
        mode: ``glyph`` or ``art``.
        arrows: show each moving sprite's direction (help mode in play).
    """

    def __init__(self, look: TileLook, width: int, height: int, background: tuple[int, ...],
                 sprites: dict[int, list[RawSprite]], mode: str = "glyph",
                 arrows: bool = False) -> None:
        self.look = look
        self.width = width
        self.height = height
        self.background = background
        self.mode = mode
        self.arrows = arrows
        self.cell_size = (2, 1) if mode == "glyph" else (4, 2)
        self._raw = sprites
        self._rows: dict[int, dict[int, TileSprites]] = {}

    @classmethod
    def for_map(cls, look: TileLook, tile_map: TileMap, mode: str) -> MapRenderer:
        flat = tuple(k for row in tile_map.background for k in row)
        return cls(look, tile_map.width, tile_map.height, flat, rows_from_map(tile_map), mode)

    @classmethod
    def for_state(cls, look: TileLook, state: State, mode: str, arrows: bool) -> MapRenderer:
        return cls(look, state.width, state.height, state.bg, rows_from_state(state), mode,
                   arrows)

    def sprites_in_row(self, y: int) -> dict[int, TileSprites]:
        row = self._rows.get(y)
        if row is None:
            row = self._rows[y] = stack_row(self._raw.get(y, []))
        return row

    def row_key(self, y: int) -> Hashable:
        start = y * self.width
        raw = self._raw.get(y)
        if raw and not self.arrows:
            raw = [(x, kind, 0) for x, kind, _d in raw]  # unseen directions change nothing
        return (self.background[start:start + self.width],
                tuple(sorted(raw)) if raw else (), self.arrows)

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        start = y * self.width
        row = self.sprites_in_row(y)
        background = self.background
        out: list[Segment] = []
        if self.mode == "glyph":
            # Neighbouring cells of one look join into one segment: fewer style changes sent.
            # (The hot loop of a play frame: locals only, the common empty tile first.)
            look = self.look
            bg_glyph, bg_style = look.bg_glyph, look.bg_style
            text, style = "", None
            get = row.get
            for x in range(x0, x1):
                stack = get(x)
                kind = background[start + x]
                if stack is None:
                    cell_text, cell_style = bg_glyph[kind], bg_style[kind]
                else:
                    cell_text, cell_style = self._glyph_cell(kind, stack)
                if cell_style is style:
                    text += cell_text
                    continue
                if text:
                    out.append(Segment(text, style))
                text, style = cell_text, cell_style
            if text:
                out.append(Segment(text, style))
            return out
        for x in range(x0, x1):
            out.extend(self._art_cell(background[start + x], row.get(x), line))
        return out

    def _glyph_cell(self, bg: int, stack: TileSprites | None) -> tuple[str, Style]:
        look = self.look
        if stack is None:
            return look.bg_glyph[bg], look.bg_style[bg]
        glyph = look.sprite_glyph[stack.kind]
        if cell_len(glyph) == 2:
            return glyph, look.sprite_style(stack.kind, bg)
        second = " "
        if stack.count > 1:
            second = str(stack.count) if stack.count < 10 else "+"
        elif self.arrows and stack.dir != "resting":
            second = ARROWS[stack.dir]
        return glyph + second, look.sprite_style(stack.kind, bg)

    def _art_cell(self, bg: int, stack: TileSprites | None, line: int) -> list[Segment]:
        badge = None
        if stack is not None and stack.count > 1 and line == 0:
            badge = str(stack.count) if stack.count < 10 else "+"
        elif stack is not None and self.arrows and stack.dir != "resting" and line == 1:
            badge = ARROWS[stack.dir]
        key = (bg, None if stack is None else stack.kind, line, badge)
        cells = self.look.art_cells.get(key)
        if cells is None:
            cells = self.look.art_cells[key] = self._draw_art_cell(bg, stack, line, badge)
        return cells

    def _draw_art_cell(self, bg: int, stack: TileSprites | None, line: int,
                       badge: str | None) -> list[Segment]:
        look = self.look
        pixels = look.pixel_rows(bg, None if stack is None else stack.kind)
        top, bottom = pixels[2 * line], pixels[2 * line + 1]
        cells = [Segment("▀", Style(color=look.pixel_colour(t), bgcolor=look.pixel_colour(b)))
                 for t, b in zip(top, bottom)]
        if badge:
            cells[3] = Segment(badge, Style(color="#ffffff", bgcolor="#000000", bold=True))
        return cells

    def render_cursor(self, y: int, x: int, line: int, segments: list[Segment]) -> list[Segment]:
        """Glyph cells reverse; art cells get a frame, since reversing half-blocks hides them."""
        if self.mode == "glyph":
            return list(Segment.apply_style(segments, post_style=Style(reverse=True, bold=True)))
        frame = "┏━━┓" if line == 0 else "┗━━┛"
        out = []
        for char, segment in zip(frame, segments):  # art cells are four one-cell segments
            bg = segment.style.bgcolor if segment.style else None
            out.append(Segment(char, Style(color=CURSOR.color, bgcolor=bg, bold=True)))
        return out


def half_blocks(pixels: list[list[int]] | tuple[tuple[int, ...], ...], look: TileLook,
                transparent: bool) -> list[list[tuple[str, Style]]]:
    """Pixel rows as terminal cells, two pixels (top and bottom) per cell.

    With ``transparent`` (sprites), palette index 0 shows the terminal's own background.
    """
    out = []
    for top_row, bottom_row in zip(pixels[0::2], pixels[1::2]):
        cells = []
        for top, bottom in zip(top_row, bottom_row):
            if transparent and top == 0 and bottom == 0:
                cells.append((" ", Style()))
            elif transparent and top == 0:
                cells.append(("▄", Style(color=look.pixel_colour(bottom))))
            elif transparent and bottom == 0:
                cells.append(("▀", Style(color=look.pixel_colour(top))))
            else:
                cells.append(("▀", Style(color=look.pixel_colour(top),
                                          bgcolor=look.pixel_colour(bottom))))
        out.append(cells)
    return out


def rows_of(cells: Iterable[tuple[int, int]]) -> set[int]:
    """The board rows a set of (x, y) tiles touches."""
    return {y for _x, y in cells}
