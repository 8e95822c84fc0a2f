"""The board: one Line-API widget per tile map, for every kind of game.

The board knows cells, a camera, a cursor and how many terminal columns and lines a cell takes;
it knows nothing about any game. A kind supplies a :class:`CellRenderer` that turns a row of cells
into segments. Only visible lines are rendered; a strip is cached under the renderer's key for
its row, so a frame after a round repaints only the rows whose key changed, and a cursor move
repaints the cursor's old and new rows.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from studio.widgets.camera import board_pad, fit_axis, follow_axis, inside, scroll_axis

from studio.widgets.board_cells import CURSOR_STYLE, CellRenderer, reverse_cursor  # noqa: F401  (named here first)


class Board(Widget, can_focus=True):
    """A tile map view with a camera and an optional cursor.

    Args:
        renderer: draws the cells; replace it with :attr:`renderer` when the state changes.
        cursor: initial cursor cell, or None for a board without a cursor (play).
        margin: cells kept between the cursor and the edge of the view when scrolling.
    """

    DEFAULT_CSS = """
    Board {
        width: 1fr;
        height: 1fr;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(0, -1)", "Up", show=False),
        Binding("down", "cursor(0, 1)", "Down", show=False),
        Binding("left", "cursor(-1, 0)", "Left", show=False),
        Binding("right", "cursor(1, 0)", "Right", show=False),
    ]

    class CursorMoved(Message):
        """The cursor moved to (x, y)."""

        def __init__(self, board: Board, x: int, y: int) -> None:
            super().__init__()
            self.board = board
            self.x = x
            self.y = y

        @property
        def control(self) -> Board:
            return self.board

    class CellClicked(Message):
        """A mouse click on cell (x, y) of the board."""

        def __init__(self, board: Board, x: int, y: int, button: int) -> None:
            super().__init__()
            self.board = board
            self.x = x
            self.y = y
            self.button = button

        @property
        def control(self) -> Board:
            return self.board

    class CellHovered(Message):
        """The mouse is over cell (x, y) (or None when it left the board)."""

        def __init__(self, board: Board, cell: tuple[int, int] | None) -> None:
            super().__init__()
            self.board = board
            self.cell = cell

        @property
        def control(self) -> Board:
            return self.board

    def __init__(self, renderer: CellRenderer, *, cursor: tuple[int, int] | None = (0, 0),
                 margin: int = 2, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._renderer = renderer
        self._cursor = cursor
        self.margin = margin
        self._camera = (0, 0)
        self._followed: tuple[int, int] | None = None
        self._cache: dict[tuple, Strip] = {}
        self._shown: dict[int, Hashable] = {}
        self._hover: tuple[int, int] | None = None
        self.lines_rendered = 0
        """Lines rendered so far (benchmarks and tests read it)."""
        self._base_style: Style | None = None
        self.on_cursor_moved: Callable[[int, int], None] | None = None
        """Called as the cursor moves, before :class:`CursorMoved` is posted: a board editor's
        pen paints there and then (keys that come in one burst, as over SSH, are all handled
        before any posted message, so a pen lifted at the end of the burst painted one cell)."""

    # ------------------------------------------------------------------------- geometry

    @property
    def renderer(self) -> CellRenderer:
        return self._renderer

    @renderer.setter
    def renderer(self, renderer: CellRenderer) -> None:
        """Show a new state: repaint only rows whose key changed (all when the shape changed)."""
        old = self._renderer
        self._renderer = renderer
        if (old.width, old.height, old.cell_size) != (renderer.width, renderer.height,
                                                      renderer.cell_size):
            self._cache.clear()
            self._shown.clear()
            if self._cursor is not None:
                self._cursor = self._clamp(*self._cursor)
            # Cells of another size (glyph to art) put the old camera somewhere else on the
            # board, or off it: the map editor's art view showed a corner in mid-screen.
            self._refit()
            self.refresh(layout=True)  # a board sized to its content (width: auto) changes size
            return
        self.refresh_changed()

    @property
    def camera(self) -> tuple[int, int]:
        """The cell shown at the top-left corner (may lie off the board)."""
        return self._camera

    @property
    def cursor(self) -> tuple[int, int] | None:
        return self._cursor

    @property
    def view_cells(self) -> tuple[int, int]:
        """How many cells fit across and down (a partly visible cell counts)."""
        columns, lines = self._renderer.cell_size
        width, height = self.size
        return -(-width // columns), -(-height // lines)

    @property
    def full_cells(self) -> tuple[int, int]:
        """How many whole cells fit across and down (at least 1)."""
        columns, lines = self._renderer.cell_size
        width, height = self.size
        return max(1, width // columns), max(1, height // lines)

    def _clamp(self, x: int, y: int) -> tuple[int, int]:
        r = self._renderer
        return min(max(x, 0), r.width - 1), min(max(y, 0), r.height - 1)

    @property
    def pad(self) -> tuple[int, int]:
        """Columns and lines before the board past its whole-cell centring (:func:`board_pad`)."""
        return board_pad(self._renderer, self._camera, self.size)

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The board cell under widget position (x, y), or None when it is off the board."""
        columns, lines = self._renderer.cell_size
        px, py = self.pad
        x, y = x - px, y - py
        cell = (self._camera[0] + x // columns, self._camera[1] + y // lines)
        r = self._renderer
        return cell if 0 <= cell[0] < r.width and 0 <= cell[1] < r.height else None

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._renderer.width * self._renderer.cell_size[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._renderer.height * self._renderer.cell_size[1]

    # -------------------------------------------------------------------------- refresh

    def refresh_rows(self, rows: Iterable[int]) -> None:
        """Repaint the terminal lines of the given board rows (those in view)."""
        lines = self._renderer.cell_size[1]
        top = self._camera[1]
        width = self.size.width
        py = self.pad[1]
        for row in set(rows):
            y = (row - top) * lines + py
            if 0 <= y < self.size.height:
                self.refresh(Region(0, y, width, lines))

    def refresh_changed(self) -> int:
        """Repaint the visible rows whose renderer key differs from what is shown.

        Returns:
            How many rows were repainted.
        """
        top = self._camera[1]
        r = self._renderer
        rows = [row for row in range(max(top, 0), min(top + self.view_cells[1], r.height))
                if self._shown.get(row) != r.row_key(row)]
        self.refresh_rows(rows)
        return len(rows)

    def notify_style_update(self) -> None:
        self._base_style = None
        self._cache.clear()
        super().notify_style_update()

    @property
    def base_style(self) -> Style:
        """The widget's own style (computing it costs more than rendering a line)."""
        if self._base_style is None:
            self._base_style = self.rich_style
        return self._base_style

    def on_resize(self, event: events.Resize) -> None:
        self._cache.clear()
        self._refit()

    def _refit(self) -> None:
        """Place the camera again for the board's size and cells as they are now."""
        # Whichever moved the camera last moves it again: the first follow may come before the
        # board had a size, and a followed player must not give way to a cursor left behind
        # (the replay viewer's bar taking a second line snapped back to the inspected cell).
        if self._followed is not None:
            self.follow(*self._followed)
        elif self._cursor is not None:
            self._scroll_to_cursor()
        # A camera that centred the board in a wider view (a negative offset) would now cut it
        # off at the far side: a panel opening beside the board showed half the map.
        cols, rows = self.full_cells
        r = self._renderer
        self.set_camera(*(fit_axis(c, view, size) for c, view, size in
                          zip(self._camera, (cols, rows), (r.width, r.height))))

    # --------------------------------------------------------------------------- camera

    def set_camera(self, x: int, y: int) -> None:
        """Put cell (x, y) at the top-left corner; repaints everything when it moves."""
        if (x, y) != self._camera:
            self._camera = (x, y)
            self.refresh()

    def follow(self, x: int, y: int, slack: bool = False) -> None:
        """Centre the view on cell (x, y), clamped so the board fills the view where it can.

        With ``slack`` the camera stays put while (x, y) is in the middle half of the view, so
        a player walking about does not repaint the whole board every round (over SSH that is
        most of the bytes); it re-centres once the player nears an edge.
        """
        self._followed = (x, y)
        cols, rows = self.full_cells
        r = self._renderer
        cx, cy = self._camera
        if slack and inside(x, cx, cols, r.width) and inside(y, cy, rows, r.height):
            return
        self.set_camera(follow_axis(x, cols, r.width), follow_axis(y, rows, r.height))

    def _scroll_to_cursor(self) -> None:
        if self._cursor is None:
            return
        x, y = self._cursor
        cols, rows = self.full_cells
        mx, my = min(self.margin, (cols - 1) // 2), min(self.margin, (rows - 1) // 2)
        cx, cy = self._camera
        r = self._renderer
        self.set_camera(scroll_axis(cx, x, cols, mx, r.width),
                        scroll_axis(cy, y, rows, my, r.height))

    def recentre(self) -> None:
        """Centre the view on the cursor as far as the board's edges allow (``home``)."""
        if self._cursor is not None:
            cols, rows = self.full_cells
            r = self._renderer
            self.set_camera(follow_axis(self._cursor[0], cols, r.width),
                            follow_axis(self._cursor[1], rows, r.height))

    # --------------------------------------------------------------------------- cursor

    def move_cursor(self, x: int, y: int) -> None:
        """Put the cursor on cell (x, y) (clamped to the board), scrolling when near an edge."""
        cell = self._clamp(x, y)
        old = self._cursor
        if cell == old:
            return
        self._cursor = cell
        self._followed = None  # the camera goes with the cursor now
        camera = self._camera
        self._scroll_to_cursor()
        if camera == self._camera:
            self.refresh_rows([cell[1]] + ([old[1]] if old is not None else []))
        if self.on_cursor_moved is not None:
            self.on_cursor_moved(*cell)
        self.post_message(self.CursorMoved(self, *cell))

    def set_cursor(self, cell: tuple[int, int] | None) -> None:
        """Show a cursor on ``cell`` (scrolling to it), or hide the cursor with None."""
        if cell is None:
            if self._cursor is not None:
                old = self._cursor
                self._cursor = None
                self.refresh_rows([old[1]])
            return
        self.move_cursor(*cell)

    def action_cursor(self, dx: int, dy: int) -> None:
        if self._cursor is not None:
            self.move_cursor(self._cursor[0] + dx, self._cursor[1] + dy)

    # --------------------------------------------------------------------------- render

    def render_line(self, y: int) -> Strip:
        r = self._renderer
        columns, lines = r.cell_size
        width = self.size.width
        px, py = self.pad
        y -= py
        row = self._camera[1] + y // lines
        line = y % lines
        style = self.base_style
        if y < 0 or not 0 <= row < r.height:
            return Strip.blank(width, style)
        cx = self._camera[0]
        x0, x1 = max(cx, 0), min(cx + self.view_cells[0], r.width)
        cursor_x = self._cursor[0] if self._cursor and self._cursor[1] == row else None
        key = r.row_key(row)
        self._shown[row] = key
        cache_key = (row, line, key, cx, x0, x1, cursor_x, width, px)
        strip = self._cache.get(cache_key)
        if strip is not None:
            return strip
        self.lines_rendered += 1
        segments: list[Segment] = []
        lead = (x0 - cx) * columns + px
        if lead > 0:
            segments.append(Segment(" " * lead, style))
        if x1 > x0:
            cells = r.render_row(row, x0, x1, line)
            if cursor_x is not None and x0 <= cursor_x < x1:
                cells = self._with_cursor(cells, row, cursor_x - x0, cursor_x, line)
            segments.extend(cells)
        # Renderers join runs of one style themselves (fewer style changes sent per line).
        length = lead + (x1 - x0) * columns if x1 > x0 else lead
        strip = Strip(segments, length)
        if length != width:
            strip = strip.adjust_cell_length(width, style)
        if len(self._cache) > 8 * max(self.size.height, 1):
            self._cache.clear()
        self._cache[cache_key] = strip
        return strip

    def _with_cursor(self, cells: list[Segment], row: int, offset: int, x: int,
                     line: int) -> list[Segment]:
        columns = self._renderer.cell_size[0]
        before, cell, after = Strip(cells).divide([offset * columns, (offset + 1) * columns,
                                                   Strip(cells).cell_length])
        decorate = getattr(self._renderer, "render_cursor", None)
        marked = decorate(row, x, line, list(cell)) if decorate else reverse_cursor(list(cell))
        return [*before, *marked, *after]

    # ---------------------------------------------------------------------------- mouse

    def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            event.stop()
            self.post_message(self.CellClicked(self, *cell, event.button))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell != self._hover:
            self._hover = cell
            self.post_message(self.CellHovered(self, cell))

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.post_message(self.CellHovered(self, None))
