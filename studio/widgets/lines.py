"""LinesView: a picture made of prepared lines that repaints only the lines that changed.

Screens such as the rule editor draw a small picture (a 3×3 grid, menus, captions) that changes
one cell at a time as the cursor moves. Rebuilding a ``Static`` would send every line to the
terminal again; this widget compares the new lines with the shown ones and refreshes only the
lines that differ, which is what keeps a cursor move to a few hundred bytes over SSH.
"""

from __future__ import annotations

import textwrap
from collections.abc import Hashable, Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.geometry import Offset, Region, Size, Spacing
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from studio.engines.common.inert import is_inert
from studio.widgets.inert import inert_line, inert_segments

Hit = tuple[Region, Hashable]
"""A clickable region of the picture (in picture coordinates) and the key it stands for."""


class LinesView(ScrollView, can_focus=True):
    """Shows a list of lines; scrolls when they do not fit; maps clicks to keys.

    Lines are ``rich.text.Text`` (one line each, never wrapped) or ready-made :class:`Strip`.
    """

    DEFAULT_CSS = """
    LinesView {
        height: auto;
        max-height: 100%;
        overflow-x: auto;
        overflow-y: auto;
    }
    LinesView.-bar {
        height: 1;
        overflow: hidden hidden;
    }
    """

    class Clicked(Message):
        """A click landed on a region registered with :meth:`set_lines`."""

        def __init__(self, view: LinesView, key: Hashable) -> None:
            super().__init__()
            self.view = view
            self.key = key

        @property
        def control(self) -> LinesView:
            return self.view

    class Resized(Message):
        """The view has a new size: a picture drawn to its width wants drawing again."""

        def __init__(self, view: LinesView) -> None:
            super().__init__()
            self.view = view

        @property
        def control(self) -> LinesView:
            return self.view

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None, focusable: bool = True) -> None:
        super().__init__(name=name, id=id, classes=classes)
        # Pictures that the screen drives with its own keys stay out of the focus chain.
        self.can_focus = focusable
        self._strips: list[Strip] = []
        self._hits: list[Hit] = []
        self._fixed = 0  # lines at the top that do not scroll
        self._bars_for: Size | None = None  # the picture size the scrollbars were drawn for

    @property
    def lines(self) -> list[Strip]:
        """The lines shown (tests read their text with ``Strip.text``)."""
        return list(self._strips)

    @property
    def text_width(self) -> int:
        """Columns a line has in view: the width less the vertical scrollbar while one shows
        (lines drawn to the full width lost their last two columns under it, and brought a
        horizontal scrollbar)."""
        return self.scrollable_content_region.width

    @property
    def text(self) -> str:
        """The picture as plain text, one line per row."""
        return "\n".join(strip.text for strip in self._strips)

    def on_resize(self) -> None:
        self.post_message(self.Resized(self))

    def page(self, direction: int) -> None:
        """Scroll a page down (1) or up (-1), a line of the last page kept in view: for screens
        that drive a view that cannot take the focus with their own keys."""
        self.scroll_relative(y=direction * max(self.size.height - 1, 1), animate=False)

    def to_strip(self, line: Text | Strip) -> Strip:
        """A line as this view draws it (callers may keep it to show again)."""
        if isinstance(line, Strip):
            return line
        segments = list(line.render(self.app.console))
        if is_inert(line.plain):
            return Strip(segments, line.cell_len)
        # A name a screen did not make inert: its escapes counted in the line's width.
        return Strip(inert_segments(segments))

    def set_lines(self, lines: Sequence[Text | Strip], hits: Sequence[Hit] = (),
                  fixed: int = 0) -> int:
        """Show ``lines``; repaint only those that differ from what is shown.

        Args:
            lines: the new picture, one entry per line.
            hits: clickable regions and their keys (later entries win where they overlap).
            fixed: how many of the first lines stay at the top while the rest scroll under
                them (a table's headings).

        Returns:
            How many lines were repainted (0 when nothing changed).
        """
        strips = [self.to_strip(line) for line in lines]
        self._hits = list(hits)
        if fixed != self._fixed:
            self._fixed = fixed
            self.refresh()
        old = self._strips
        self._strips = strips
        width = max((strip.cell_length for strip in strips), default=0)
        size = Size(width, len(strips))
        old_size = self.virtual_size
        if size != old_size:
            if self._moves_layout(old_size, size):
                self.virtual_size = size
                self.refresh(layout=True)
                return len(strips)
            # Same box, same scrollbars: only the scroll range changed. Setting the reactive
            # would lay the whole screen out again, which on a live match was a layout per frame
            # (the turn panel's width changes with its text).
            self.set_reactive(LinesView.virtual_size, size)
            self._scroll_update(size)
            self._bars_for = size
        changed = [y for y, strip in enumerate(strips) if y >= len(old) or old[y] != strip]
        changed += range(len(strips), len(old))  # lines that went: blank them
        for y in changed:
            if y < fixed:
                self.refresh(Region(0, y, self.size.width, 1))
            else:
                self.refresh_line(y)
        return len(changed)

    def _moves_layout(self, old: Size, new: Size) -> bool:
        """Whether new picture dimensions change this widget's box or its scrollbars."""
        height, width = self.styles.height, self.styles.width
        if new.height != old.height and (height is None or height.is_auto):
            return True  # as tall as its lines: the neighbours move
        if new.width != old.width and width is not None and width.is_auto:
            return True
        box = self.container_size
        return ((old.width > box.width, old.height > box.height)
                != (new.width > box.width, new.height > box.height))

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        # Every layout of the screen hands a scroll view its viewport as `virtual_size`, which
        # never equals the picture's size that `set_lines` keeps, so Textual redrew both
        # scrollbars on any layout anywhere (a tree-editor move sent them each time). They are
        # redrawn when the box or the picture changed since they were last drawn, not otherwise.
        if self.virtual_size == self._bars_for:
            virtual_size = self.virtual_size
        self._bars_for = self.virtual_size
        return super()._size_updated(size, virtual_size, container_size, layout)

    def show_line(self, y: int) -> None:
        """Scroll so that picture line ``y`` is visible."""
        self.scroll_to_region(Region(0, y, 1, 1), animate=False, immediate=True)

    def scroll_to_region(self, region: Region, *, spacing: Spacing | None = None,
                         **options: Any) -> Offset:
        # A line scrolled to must come out below the fixed lines, not under them.
        if self._fixed:
            spacing = (spacing or Spacing()) + Spacing(self._fixed, 0, 0, 0)
        return super().scroll_to_region(region, spacing=spacing, **options)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = y if y < self._fixed else scroll_y + y
        width = self.size.width
        style = self.rich_style
        if not 0 <= index < len(self._strips):
            return Strip.blank(width, style)
        strip = self._strips[index].crop(scroll_x, scroll_x + width)
        # The widget's own style is the base, so lines inherit its background and colour.
        return strip.adjust_cell_length(width, style).apply_style(style)

    def key_at(self, x: int, y: int) -> Hashable | None:
        """The key of the registered region under picture position (x, y), if any."""
        for region, key in reversed(self._hits):
            if region.contains(x, y):
                return key
        return None

    def on_click(self, event: events.Click) -> None:
        x = event.x + int(self.scroll_x)
        y = event.y if event.y < self._fixed else event.y + int(self.scroll_y)
        key = self.key_at(x, y)
        if key is not None:
            event.stop()
            self.post_message(self.Clicked(self, key))


def fold_lines(lines: list[Text], width: int) -> list[Text]:
    """Long lines (a round's result, why an AI failed, a status) folded to ``width`` at spaces,
    their styles kept; a word longer than the width is folded where it must be."""
    out: list[Text] = []
    for line in map(inert_line, lines):  # names and messages from outside, folded as shown
        if line.cell_len <= width:
            out.append(line)
            continue
        plain, start = line.plain, 0
        for part in textwrap.wrap(plain, width, break_on_hyphens=False):
            start = plain.index(part, start)  # the parts are the line's own words, in order
            out.append(line[start:start + len(part)])
            start += len(part)
    return out
