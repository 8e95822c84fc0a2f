"""How a Haunted Tiles board looks in a terminal (haunted.md §13.3), for every screen that shows
one: the map editor, the match view, the replay viewer.

:class:`HauntedCells` is the :class:`~studio.widgets.board.CellRenderer` of a Haunted board. It
knows nothing of editing or playing: a screen hands it the strengths and its overlays —
markers (start tiles, monsters, a dead monster's ``x``), the tiles just hit — and the
:class:`~studio.widgets.board.Board` asks it for the rows in view::

    cells = HauntedCells(7, strengths, markers={(0, 3): ["H1"]}, hits={(2, 2)},
                         styles=haunted_styles(ui_styles(app)), cell=(4, 2))
    board.renderer = cells      # repaints only the rows whose content changed

Strength is shown by shade and digit: 3 ``█``, 2 ``▓``, 1 ``░`` in the warning colour, 0 blank
(a hole). Markers starting with ``H`` are drawn in the home colour, with ``A`` in the away
colour, anything else muted; a marker over a hole loses its tile background.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style

from studio.widgets.canvas import UIStyles

Coord = tuple[int, int]
SHADES = ("", "░", "▓", "█")
"""The shade of strengths 1..3 (index = strength; 0 is a hole)."""
HOME_COLOUR, AWAY_COLOUR = "#54d2ff", "#f46969"
"""Default team colours (the tints of grouchy and bobo); a match passes its monsters' tints."""
_PLAIN, _BOLD = Style(), Style(bold=True)
_DIGIT = Style(reverse=True, bold=True)
"""A digit inside a wide tile: carved out of the stone (reverse of its shade)."""
WIDE = (4, 2)
NARROW = (2, 1)
TILE_SIZES = ((8, 4), (6, 3), WIDE, NARROW)
"""Every tile size a board can be drawn in, largest first: each twice as wide as tall, so a
tile stays square on a terminal's tall cells. Larger ones take the room of a big terminal."""


@dataclass(frozen=True)
class HauntedStyles:
    """The styles a Haunted board is drawn with (see :func:`haunted_styles`)."""

    shade: tuple[Style, ...]
    """Per strength 0..3: the shade characters' style."""
    hit: tuple[Style, ...]
    """Per strength 0..3: the shade of a tile that was just hit."""
    home: Style
    away: Style
    other: Style
    """Markers of neither team (a dead monster's ``x``)."""
    cursor: Style

    def marker(self, label: str, hole: bool) -> Style:
        """The style of a marker; over a hole it keeps only its colour (no tile under it)."""
        style = self.home if label[:1] == "H" else self.away if label[:1] == "A" else self.other
        if hole and style.bgcolor is not None:
            return Style(color=style.bgcolor, bold=True)
        return style


_STYLES: dict[tuple[UIStyles, str, str], HauntedStyles] = {}


def haunted_styles(ui: UIStyles, home: str = HOME_COLOUR, away: str = AWAY_COLOUR) -> HauntedStyles:
    """The board styles for a theme and two team colours (``#rrggbb``), built once each."""
    key = (ui, home, away)
    cached = _STYLES.get(key)
    if cached is None:
        stone = ui.text.color
        shade = (Style(), Style(color=ui.warning.color), Style(color=stone), Style(color=stone))
        flash = Style(color=ui.accent.color, bold=True)
        cached = _STYLES[key] = HauntedStyles(
            shade=shade,
            hit=(flash,) * 4,
            home=Style(color="#000000", bgcolor=ui.colour(home), bold=True),
            away=Style(color="#000000", bgcolor=ui.colour(away), bold=True),
            other=ui.muted,
            cursor=ui.accent + Style(reverse=True, bold=True),
        )
    return cached


def cell_size_for(size: int, room: tuple[int, int],
                  sizes: Sequence[tuple[int, int]] = (WIDE, NARROW)) -> tuple[int, int]:
    """The largest of ``sizes`` (largest first) in which a ``size`` board fits in ``room``
    (columns, lines), else the smallest: wide tiles on a wide terminal, and on a narrow one
    while the map is small."""
    columns, lines = room
    for cell in sizes:
        if size * cell[0] <= columns and size * cell[1] <= lines:
            return cell
    return sizes[-1]


def _count(sign: str, labels: Sequence[str]) -> str:
    """How many markers, in two columns."""
    return f"{sign}{len(labels)}" if len(labels) < 10 else f"{sign}+"


class HauntedCells:
    """The cell renderer of a Haunted board.

    Args:
        size: the board is ``size`` × ``size`` tiles.
        strengths: row-major strengths 0..3 (``strengths[row * size + col]``).
        markers: labels drawn on tiles, by (row, col), e.g. ``{(0, 0): ["H0"], (3, 3): ["A1",
            "H2"]}``; several on one tile show side by side (4×2) or as a count.
        hits: tiles drawn in the flash colour (the last turn's hits).
        styles: from :func:`haunted_styles`.
        cell: terminal (columns, lines) per tile, one of :data:`TILE_SIZES`.
    """

    def __init__(self, size: int, strengths: Sequence[int],
                 markers: Mapping[Coord, Sequence[str]] | None = None,
                 hits: Collection[Coord] = (), *, styles: HauntedStyles,
                 cell: tuple[int, int] = WIDE) -> None:
        self.width = self.height = size
        self.size = size
        self.strengths = tuple(strengths)
        self.styles = styles
        self.cell_size = cell
        self._markers: dict[int, dict[int, tuple[str, ...]]] = {}
        for (r, c), labels in (markers or {}).items():
            if labels:
                self._markers.setdefault(r, {})[c] = tuple(labels)
        self._hits: dict[int, frozenset[int]] = {}
        for r, c in hits:
            self._hits[r] = self._hits.get(r, frozenset()) | {c}

    def row_key(self, y: int) -> Hashable:
        n = self.size
        marks = self._markers.get(y)
        return (self.strengths[y * n:(y + 1) * n], tuple(sorted(marks.items())) if marks else (),
                self._hits.get(y, frozenset()), self.cell_size)

    # ---------------------------------------------------------------------------- drawing

    def _tile(self, row: int, col: int, line: int) -> list[tuple[str, Style]]:
        """The (text, style) runs of one tile's terminal line.

        A wide tile is shade over a half-block line, with a groove on the right and below, so
        neighbouring tiles read as separate stones; its digit sits above its markers near the
        middle. A narrow one is shade and digit.
        """
        strength = self.strengths[row * self.size + col]
        hit = col in self._hits.get(row, ())
        shade = (self.styles.hit if hit else self.styles.shade)[strength]
        char = SHADES[strength] or " "
        labels = self._markers.get(row, {}).get(col, ())
        hole = strength == 0
        width, height = self.cell_size
        if width == 2:
            if not labels:
                return [(char + (str(strength) if strength else " "), shade + _BOLD)]
            if len(labels) == 1:
                return [(f"{labels[0]:<2.2}", self.styles.marker(labels[0], hole))]
            return [(_count("×", labels), self._group(labels))]
        body = width - 1  # the last column is the groove
        if line == _marker_line(height):
            fill = (" ", _PLAIN) if hole else ("▀", shade) if line == height - 1 else (char, shade)
            return self._markers_line(labels, body, fill, hole)
        if hole:
            return [(" " * width, _PLAIN)]
        if line == _digit_line(height):
            left = (body - 1) // 2
            return [(char * left, shade), (str(strength), shade + _DIGIT),
                    (char * (body - 1 - left), shade), (" ", _PLAIN)]
        return [(("▀" if line == height - 1 else char) * body, shade), (" ", _PLAIN)]

    def _markers_line(self, labels: Sequence[str], body: int, fill: tuple[str, Style],
                      hole: bool) -> list[tuple[str, Style]]:
        """The tile's line of markers: side by side, centred on the tile, as many as it holds
        (the groove's column too), the rest counted."""
        room = (body + 1) // 2
        if len(labels) > room:
            shown = [(f"{label:<2.2}", self.styles.marker(label, hole)) for label in labels[:room - 1]]
            return [*shown, (_count("+", labels[room - 1:]), self._group(labels))]
        runs = [(f"{label:<2.2}", self.styles.marker(label, hole)) for label in labels]
        used = 2 * len(labels)
        if used > body:
            return runs
        left = (body - used) // 2
        return [(fill[0] * left, fill[1]), *runs, (fill[0] * (body - used - left), fill[1]),
                (" ", _PLAIN)]

    def _group(self, labels: Sequence[str]) -> Style:
        """One style for several markers: their team's when they agree."""
        teams = {label[:1] for label in labels}
        return self.styles.marker(labels[0], False) if len(teams) == 1 else self.styles.other

    def render_row(self, y: int, x0: int, x1: int, line: int) -> list[Segment]:
        # Runs of one style join into one segment: fewer style changes sent per line.
        return list(Segment.simplify(Segment(text, style) for x in range(x0, x1)
                                     for text, style in self._tile(y, x, line)))

    def render_cursor(self, y: int, x: int, line: int, segments: list[Segment]) -> list[Segment]:
        """The tile under the cursor: its digit (0 too) and markers on the cursor colour.

        Reverse video would turn a ``█`` tile into a blank, the look of a hole.
        """
        strength = self.strengths[y * self.size + x]
        labels = self._markers.get(y, {}).get(x, ())
        cursor = self.styles.cursor
        width, height = self.cell_size
        if width == 2:
            text = f"{labels[0]:<2.2}" if len(labels) == 1 else _count("×", labels) if labels \
                else f" {strength}"
            return [Segment(text, cursor)]
        body = width - 1
        text = ""
        if line == _marker_line(height):
            text = "".join(f"{label:<2.2}" for label in labels[:(body + 1) // 2])
            if len(text) > body:
                return [Segment(text, cursor)]
        elif line == _digit_line(height):
            text = str(strength)
        left = (body - len(text)) // 2
        return [Segment(" " * left + text + " " * (body - len(text) - left), cursor),
                Segment(" ", _PLAIN)]


def _digit_line(height: int) -> int:
    """The line of a wide tile that shows its strength: just above its markers."""
    return (height - 2) // 2


def _marker_line(height: int) -> int:
    """The line of a wide tile that shows its monsters (the half-block line of a 4×2 tile)."""
    return height // 2
