"""Canvas: draw a small picture cell by cell (text, boxes, clickable regions), then hand its
lines to a :class:`~studio.widgets.lines.LinesView`.

Screens like the rule editor are a grid of boxes more than a layout of widgets; drawing them on
a canvas keeps their geometry in one place and lets LinesView repaint only changed lines.
Also here: the theme's colours as Rich styles, so pictures follow the dark, light and ANSI themes.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from rich.cells import cell_len
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.color import Color
from textual.geometry import Region
from textual.strip import Strip

from studio.engines.common.inert import inert

BOX = {"light": "┌┐└┘─│", "heavy": "┏┓┗┛━┃", "double": "╔╗╚╝═║"}


@dataclass(frozen=True)
class UIStyles:
    """The theme's colours for pictures drawn by hand."""

    text: Style
    muted: Style
    accent: Style
    primary: Style
    error: Style
    warning: Style
    success: Style
    cursor: Style
    """The cell under the cursor."""
    selected: Style
    """A current choice (outlined in the original)."""
    filled: Style
    """A cell that holds something (a selector cell with rules)."""
    panel: Style
    ansi: bool
    """The theme keeps to the terminal's 16 colours: kind colours are downgraded too."""

    def colour(self, hex_colour: str) -> RichColor:
        """A game colour (``#rrggbb``) as this theme can show it."""
        colour = RichColor.parse(hex_colour)
        return colour.downgrade(ColorSystem.STANDARD) if self.ansi else colour


_STYLES: dict[tuple[str, bool], UIStyles] = {}


def ui_styles(app: App) -> UIStyles:
    """The current theme's colours as Rich styles (computed once per theme)."""
    key = (str(app.theme), bool(getattr(app, "ansi_color", False)))
    cached = _STYLES.get(key)
    if cached is None:
        cached = _STYLES[key] = _compute_styles(app)
    return cached


def _compute_styles(app: App) -> UIStyles:
    variables = app.get_css_variables()

    def colour(name: str, fallback: str) -> RichColor | None:
        try:
            parsed = Color.parse(variables.get(name, fallback))
        except Exception:  # a variable such as "auto 60%" is not a colour by itself
            parsed = Color.parse(fallback)
        return None if parsed.a == 0 else parsed.rich_color

    primary = colour("primary", "#0178d4")
    return UIStyles(
        text=Style(color=colour("foreground", "#e0e0e0")),
        muted=Style(dim=True),
        accent=Style(color=colour("accent", "#fea62b"), bold=True),
        primary=Style(color=primary, bold=True),
        error=Style(color=colour("error", "#b93c5b"), bold=True),
        warning=Style(color=colour("warning", "#fea62b")),
        success=Style(color=colour("success", "#4ebf71")),
        cursor=Style(reverse=True, bold=True),
        selected=Style(color=colour("accent", "#fea62b"), bold=True, underline=True),
        filled=Style(bgcolor=colour("panel", "#242f38") or primary, bold=True),
        panel=Style(bgcolor=colour("panel", "#242f38")),
        ansi=getattr(app, "ansi_color", False),
    )


class Canvas:
    """A width × height grid of styled cells.

    Text may hold wide characters (a 2-cell glyph); it is clipped at the canvas edge.
    """

    def __init__(self, width: int, height: int, style: Style | None = None) -> None:
        self.width = width
        self.height = height
        self._base = style or Style()
        self._cells: list[list[tuple[str, Style]]] = [
            [(" ", self._base) for _ in range(width)] for _ in range(height)
        ]
        self.hits: list[tuple[Region, Hashable]] = []

    @classmethod
    def of_lines(cls, lines: list[str], style: Style | None = None) -> Canvas:
        """Plain lines in one style, a column to spare (a status bar's text)."""
        canvas = cls(max(map(cell_len, lines), default=0) + 1, len(lines))
        for y, line in enumerate(lines):
            canvas.put(0, y, line, style)
        return canvas

    def put(self, x: int, y: int, text: str, style: Style | None = None) -> int:
        """Write ``text`` at (x, y); returns the column after it. A control character in it
        shows as its escape (it would be dropped below, as a character of no width)."""
        text = inert(text)
        if not 0 <= y < self.height:
            return x + cell_len(text)
        row = self._cells[y]
        for char in text:
            width = cell_len(char)
            if width == 0:
                continue
            if 0 <= x and x + width <= self.width:
                row[x] = (char, style or self._base)
                if width == 2:
                    row[x + 1] = ("", style or self._base)
            x += width
        return x

    def fill(self, region: Region, style: Style, char: str = " ") -> None:
        """Paint a rectangle."""
        for y in range(max(region.y, 0), min(region.bottom, self.height)):
            for x in range(max(region.x, 0), min(region.right, self.width)):
                self._cells[y][x] = (char, style)

    def restyle(self, region: Region, style: Style) -> None:
        """Combine ``style`` over the cells of a rectangle, keeping their characters."""
        for y in range(max(region.y, 0), min(region.bottom, self.height)):
            row = self._cells[y]
            for x in range(max(region.x, 0), min(region.right, self.width)):
                char, old = row[x]
                row[x] = (char, old + style)

    def box(self, region: Region, style: Style, kind: str = "light") -> None:
        """Draw a frame on the edge of ``region``."""
        tl, tr, bl, br, h, v = BOX[kind]
        x0, y0, x1, y1 = region.x, region.y, region.right - 1, region.bottom - 1
        self.put(x0, y0, tl + h * (x1 - x0 - 1) + tr, style)
        self.put(x0, y1, bl + h * (x1 - x0 - 1) + br, style)
        for y in range(y0 + 1, y1):
            self.put(x0, y, v, style)
            self.put(x1, y, v, style)

    def hit(self, region: Region, key: Hashable) -> None:
        """Register ``region`` as clickable, standing for ``key``."""
        self.hits.append((region, key))

    def strips(self) -> list[Strip]:
        """The picture as one strip per line (runs of equal style joined)."""
        out: list[Strip] = []
        for row in self._cells:
            segments: list[Segment] = []
            text = ""
            current: Style | None = None
            for char, style in row:
                if style != current and text:
                    segments.append(Segment(text, current))
                    text = ""
                current = style
                text += char
            if text:
                segments.append(Segment(text, current))
            out.append(Strip(segments, self.width))
        return out


def span_strip(spans: list[tuple[str, Style]], width: int, base: Style | None = None) -> Strip:
    """One line from a few styled spans, padded to ``width``, or cut to it ending in ``…`` (a
    label that just stops, "take go", reads as the whole label).

    Much cheaper than a :class:`Canvas` for long lists of one-line items (a tree of hundreds of
    nodes): a few segments per line instead of a styled cell per column.
    """
    base = base or Style()
    # Labels are names from project files (a node's comment, a kind's name): shown inert, and
    # cut to the width as shown.
    segments = [Segment(inert(text), base + style if style else base)
                for text, style in spans if text]
    strip = Strip(segments)
    if strip.cell_length <= width:
        return strip.adjust_cell_length(width, base)
    if width < 1:
        return Strip([])
    cut = strip.crop(0, width - 1)
    last = segments[-1].style if segments else base
    return Strip([*cut, Segment("…", last)]).adjust_cell_length(width, base)
