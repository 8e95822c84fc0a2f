"""Menu: rows of choices with a cursor, shortcut keys and a title, drawn inline in a screen.

Editors open menus in place (the rule editor's attribute, direction and command menus) rather
than as pop-ups, so the rule stays visible and changes under the menu as kinds are toggled.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message

from studio.widgets.canvas import Canvas, ui_styles
from studio.widgets.lines import LinesView


@dataclass(frozen=True)
class MenuItem:
    """One choice."""

    key: Hashable
    """What choosing it reports."""
    label: str
    shortcut: str | None = None
    """A key that chooses it directly (shown before the label)."""
    style: Style | None = None
    """Colour of the label (a kind's colour, say)."""
    enabled: bool = True
    current: bool = False
    """Marks the present value (the original outlined it)."""
    why: str = ""
    """Why a disabled item cannot be chosen: said when someone tries (a dimmed item alone
    does not show on a monochrome terminal, and its key did nothing)."""
    arrow: str | None = None
    """An arrow key ("left", "up"…) that chooses it directly, in a menu of directions: an item
    labelled "→ right" read as "press → for right", and → only moved the highlight on."""


class Menu(LinesView):
    """A few rows of :class:`MenuItem`; arrows move, ``enter`` chooses, ``escape`` closes."""

    DEFAULT_CSS = """
    Menu {
        width: auto;
        max-width: 100%;
        height: auto;
        border: round $accent;
        padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1, 0)", "Left", show=False),
        Binding("right", "move(1, 0)", "Right", show=False),
        Binding("up", "move(0, -1)", "Up", show=False),
        Binding("down", "move(0, 1)", "Down", show=False),
        Binding("home", "row_end(0)", "First in the row", show=False),
        Binding("end", "row_end(1)", "Last in the row", show=False),
        Binding("enter,space,z", "choose", "Choose"),
        Binding("escape,x,backspace", "close", "Close menu"),
    ]

    class Chosen(Message):
        """An item was chosen."""

        def __init__(self, menu: Menu, key: Hashable) -> None:
            super().__init__()
            self.menu = menu
            self.key = key

        @property
        def control(self) -> Menu:
            return self.menu

    class Highlighted(Message):
        """The cursor moved onto an item (screens show its meaning in words)."""

        def __init__(self, menu: Menu, key: Hashable) -> None:
            super().__init__()
            self.menu = menu
            self.key = key

        @property
        def control(self) -> Menu:
            return self.menu

    class Closed(Message):
        """The menu was closed without (further) choosing."""

        def __init__(self, menu: Menu) -> None:
            super().__init__()
            self.menu = menu

        @property
        def control(self) -> Menu:
            return self.menu

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows: list[list[MenuItem]] = []
        self.row_titles: list[str] = []
        self.cursor = (0, 0)
        self.display = False
        self.can_focus = False  # a closed menu must not take the screen's first focus

    def open(self, rows: Sequence[Sequence[MenuItem]], titles: Sequence[str] = (),
             cursor: tuple[int, int] | None = None) -> None:
        """Show the menu with these rows and focus it; the cursor starts on ``cursor`` or
        the current item, else the first enabled one."""
        self.rows = [list(row) for row in rows]
        self.row_titles = list(titles)
        if cursor is None:
            cursor = next(((c, r) for r, row in enumerate(self.rows) for c, item in enumerate(row)
                           if item.current and item.enabled), None)
        if cursor is None:
            cursor = next(((c, r) for r, row in enumerate(self.rows) for c, item in enumerate(row)
                           if item.enabled), (0, 0))
        self.cursor = cursor
        self.display = True
        self.can_focus = True
        self.draw()
        self.focus()
        self._announce()

    def update_rows(self, rows: Sequence[Sequence[MenuItem]]) -> None:
        """Replace the items (after a toggle), keeping the cursor where it is."""
        self.rows = [list(row) for row in rows]
        col, row = self.cursor
        row = min(row, len(self.rows) - 1)
        self.cursor = (min(col, max(len(self.rows[row]) - 1, 0)), row)
        self.draw()

    def close(self) -> None:
        self.display = False
        self.can_focus = False
        self.rows = []

    @property
    def highlighted(self) -> MenuItem | None:
        col, row = self.cursor
        if 0 <= row < len(self.rows) and 0 <= col < len(self.rows[row]):
            return self.rows[row][col]
        return None

    def draw(self) -> None:
        styles = ui_styles(self.app)
        title_width = max((cell_len(t) for t in self.row_titles), default=0)
        title_width += 1 if title_width else 0
        widths = [title_width + sum(cell_len(self._label(i)) + 1 for i in row) for row in self.rows]
        canvas = Canvas(max(widths, default=1), len(self.rows))
        for y, row in enumerate(self.rows):
            if y < len(self.row_titles):
                canvas.put(0, y, self.row_titles[y], styles.muted)
            x = title_width
            for col, item in enumerate(row):
                label = self._label(item)
                style = item.style or styles.text
                if not item.enabled:
                    style = styles.muted
                if item.current:
                    style = style + styles.selected
                if (col, y) == self.cursor:
                    style = style + styles.cursor
                end = canvas.put(x, y, label, style)
                canvas.hit(Region(x, y, end - x, 1), (col, y))
                x = end + 1
        self.set_lines(canvas.strips(), canvas.hits)

    @staticmethod
    def _label(item: MenuItem) -> str:
        return f"{item.shortcut} {item.label}" if item.shortcut else item.label

    def _announce(self) -> None:
        item = self.highlighted
        if item is not None:
            self.post_message(self.Highlighted(self, item.key))

    def action_move(self, dx: int, dy: int) -> None:
        if not self.rows:
            return
        col, row = self.cursor
        if dy:
            row = min(max(row + dy, 0), len(self.rows) - 1)
            col = min(col, len(self.rows[row]) - 1)
        else:
            col = min(max(col + dx, 0), len(self.rows[row]) - 1)
        self.cursor = (max(col, 0), row)
        self.draw()
        self._announce()

    def action_row_end(self, last: int) -> None:
        if self.rows:
            col, row = self.cursor
            self.action_move((len(self.rows[row]) - 1 - col) if last else -col, 0)

    def action_choose(self) -> None:
        item = self.highlighted
        if item is not None and item.enabled:
            self.post_message(self.Chosen(self, item.key))
        elif item is not None:
            self._refuse(item)

    def _refuse(self, item: MenuItem) -> None:
        self.app.notify(f"{item.label.strip()}: {item.why or 'not available here'}", timeout=3)

    def action_close(self) -> None:
        self.close()
        self.post_message(self.Closed(self))

    def on_key(self, event: events.Key) -> None:
        # The key reaches the menu before its bindings: an arrow that chooses an item never
        # moves the highlight.
        for y, row in enumerate(self.rows):
            for x, item in enumerate(row):
                if (item.shortcut and event.character == item.shortcut) or \
                        (item.arrow is not None and event.key == item.arrow):
                    event.stop()
                    event.prevent_default()
                    if not item.enabled:
                        self._refuse(item)
                        return
                    self.cursor = (x, y)
                    self.draw()
                    self.post_message(self.Chosen(self, item.key))
                    return

    def on_lines_view_clicked(self, message: LinesView.Clicked) -> None:
        if message.view is self:
            message.stop()
            self.cursor = message.key
            self.draw()
            self.action_choose()
