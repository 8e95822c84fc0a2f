"""The pattern editors (btree.md §11.2): a grid with a cursor, and the text form.

Grid: arrows move; typing a tile and ``enter`` writes it (``backspace`` with nothing typed writes
``_``, the empty tile); ``f2``/``f3`` add/remove a row, ``f4``/``f5`` a column, ``f6``/``f7``/``f8``
add/rename/remove a layer, ``[``/``]`` switch layers. Every function key has a ctrl+letter twin
(``^d ^u ^r ^l ^n ^t ^k``, ``^o`` for ``f9``): many terminals and SSH clients keep f-keys. ``tab`` opens the text form (one row per
line, tiles separated by spaces, a line starting with a space names a layer); ``tab`` again applies
it. Rows of unequal length, layers of another size and lhs/rhs of different sizes are marked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.style import Style
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Region
from textual.widgets import Header, TextArea

from studio.engines.btree.editing import pattern_edit as pe
from studio.engines.btree.editing.node_fields import fields_of, set_field
from studio.engines.btree.model.text import text_width
from studio.engines.btree.editing.tree_edit import EditError, node_at
from studio.screens.btree.base import BtreeScreen
from studio.screens.btree.fields import PatternText
from studio.screens.dialogs import NameDialog, refused_by
from studio.widgets.canvas import Canvas
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

Path = tuple[int, ...]


GRID_ACTIONS = ("move", "write", "erase", "rows", "columns", "add_layer", "rename_layer",
                "remove_layer", "layer")
"""What the grid's keys do: not offered while the text form is open."""


class PatternEditorScreen(BtreeScreen):
    """Edit one pattern field (``pattern``, ``lhs`` or ``rhs``) of one node."""

    SCREEN_TITLE = "pattern"
    takes_text = True
    """Characters typed on the grid make a tile (``?`` too): help is ``f1`` here."""
    DEFAULT_CSS = """
    PatternEditorScreen #grid { height: 1fr; padding: 0 1; }
    PatternEditorScreen #status { height: auto; max-height: 5; padding: 0 1; background: $boost; }
    PatternEditorScreen TextArea { height: 1fr; display: none; }
    PatternEditorScreen.-text TextArea { display: block; }
    PatternEditorScreen.-text #grid { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f9,ctrl+o", "other_field", "lhs⇄rhs"),  # first: a rewrite is two patterns
        Binding("up", "move(0, -1)", "Up", show=False),
        Binding("down", "move(0, 1)", "Down", show=False),
        Binding("left", "move(-1, 0)", "Left", show=False),
        Binding("right", "move(1, 0)", "Right", show=False),
        Binding("enter", "write", "Write tile"),
        Binding("backspace", "erase", "Erase"),
        Binding("f2,ctrl+d", "rows(1)", "+row"),
        Binding("f3,ctrl+u", "rows(-1)", "-row"),
        Binding("f4,ctrl+r", "columns(1)", "+col"),
        Binding("f5,ctrl+l", "columns(-1)", "-col"),
        Binding("f6,ctrl+n", "add_layer", "+layer"),
        Binding("f7,ctrl+t", "rename_layer", "Rename layer", show=False),
        Binding("f8,ctrl+k", "remove_layer", "-layer", show=False),
        Binding("left_square_bracket", "layer(-1)", "Prev layer", show=False, key_display="["),
        Binding("right_square_bracket", "layer(1)", "Next layer", show=False, key_display="]"),
        Binding("tab", "toggle_text", "Text form"),
        Binding("tab", "apply_text", "Apply text"),  # the same key, named for the text form
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, document, path: Path, field: str) -> None:
        super().__init__(document)
        self.path = path
        self.field = field
        self.layer_index = 0
        self.cursor = (0, 0)
        self.entry = ""
        self.text_mode = False
        self._text_shown = ""
        """The text form as it was opened: escape with nothing typed just closes it."""
        self._discard_asked = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield LinesView(id="grid", focusable=False)
            area = PatternText(id="text", soft_wrap=False, show_line_numbers=True)
            area.can_focus = False  # only in the text form: the grid keys belong to the screen
            yield area
        yield LinesView(id="status", focusable=False)
        yield KeysFooter()

    # ------------------------------------------------------------------------------ model

    @property
    def node(self) -> dict | None:
        try:
            return node_at(self.model.tree, self.path)
        except (EditError, IndexError, KeyError, TypeError):
            return None

    @property
    def pattern(self) -> dict:
        node = self.node or {}
        value = node.get(self.field)
        return value if isinstance(value, dict) else {"main": [["_"]]}

    @property
    def layer(self) -> str:
        names = list(self.pattern)
        self.layer_index = min(self.layer_index, len(names) - 1)
        return names[self.layer_index]

    def pattern_fields(self) -> list[str]:
        """The node's pattern fields (a rewrite's lhs and rhs), in order."""
        try:
            specs = fields_of(str((self.node or {}).get("type")))
        except EditError:
            return [self.field]
        return [spec.name for spec in specs if spec.kind == "pattern"] or [self.field]

    def put(self, label: str, pattern: dict) -> bool:
        """Record a new pattern for the field as one edit; False (and why, shown) when refused."""
        try:
            tree = set_field(self.model.tree, self.path, self.field, pattern)
        except EditError as error:
            self.notify(str(error), severity="error", timeout=4)
            return False
        self.edit(f"{label} ({self.field})", replace(self.model, tree=tree))
        return True

    # ---------------------------------------------------------------------------- drawing

    def refresh_view(self) -> None:
        node = self.node
        if node is None:
            self.dismiss(None)
            return
        self._show_title()
        self._draw_grid()
        self._draw_status()

    def _draw_grid(self) -> None:
        styles = self.styles_ui
        pattern = self.pattern
        grid = pattern[self.layer]
        width = max([text_width(tile) for row in grid for tile in row] + [1])
        rows = len(grid)
        cols = max((len(row) for row in grid), default=0)
        layers = sum(text_width(f"[{name}]") + 1 for name in pattern)  # all named, never cut
        canvas = Canvas(max(cols * (width + 1) + 8, layers, 30), rows + 2)
        x = 0
        for i, name in enumerate(pattern):
            style = styles.selected if i == self.layer_index else styles.muted
            x = canvas.put(x, 0, f"[{name}]", style) + 1
        for r, row in enumerate(grid):
            for c in range(cols):
                tile = row[c] if c < len(row) else ""
                style = styles.text
                if c >= len(row):
                    style = styles.error  # a short row: the missing cells are marked
                    tile = "✗"
                elif tile == ".":
                    style = styles.muted
                cell = tile + " " * (width - text_width(tile))
                if (c, r) == self.cursor:
                    style = style + styles.cursor
                canvas.put(c * (width + 1), r + 2, cell, style)
                canvas.hit(Region(c * (width + 1), r + 2, width, 1), (c, r))
        self.query_one("#grid", LinesView).set_lines(canvas.strips(), canvas.hits)

    def _draw_status(self) -> None:
        styles = self.styles_ui
        node = self.node or {}
        lines: list[tuple[str, Style]] = []
        grid = self.pattern[self.layer]
        c, r = self.cursor
        here = grid[r][c] if r < len(grid) and c < len(grid[r]) else "-"
        entry = f" · typing: {self.entry}▏ (enter writes)" if self.entry else \
            " · type a tile and enter; . = any, _ = empty"
        if self.text_mode:
            lines.append(("text form · a row a line, tiles between spaces · tab, escape apply",
                          styles.text))
        else:
            # Counted from 1, as the problems below count (the row went 0-based beside them).
            lines.append((f"row {r + 1}, column {c + 1}: {here!r}{entry}", styles.text))
        for problem in pe.pattern_problems(node):
            where = problem.field + (f" layer {problem.layer!r}" if problem.layer else "")
            mark, style = ("✗", styles.error) if problem.severity == "error" else \
                ("!", styles.warning)
            lines.append((f"{mark} {where}: {problem.message}", style))
        canvas = Canvas(max(max(text_width(text) for text, _ in lines) + 1, 20), len(lines))
        for y, (text, style) in enumerate(lines):
            canvas.put(0, y, text, style)
        self.query_one("#status", LinesView).set_lines(canvas.strips())

    # ---------------------------------------------------------------------------- actions

    def action_move(self, dx: int, dy: int) -> None:
        grid = self.pattern[self.layer]
        rows = len(grid)
        cols = max((len(row) for row in grid), default=1)
        self.cursor = (min(max(self.cursor[0] + dx, 0), cols - 1),
                       min(max(self.cursor[1] + dy, 0), rows - 1))
        self.entry = ""
        self._draw_grid()
        self._draw_status()

    def on_key(self, event: events.Key) -> None:
        if self.text_mode or not event.is_printable or not event.character:
            return
        if event.character in "[]" and not self.entry:
            return  # layer switching
        event.stop()
        event.prevent_default()
        if event.character == " ":
            return  # tiles never contain spaces
        self.entry += event.character
        self._draw_status()

    def action_write(self) -> None:
        if not self.entry:
            return
        c, r = self.cursor
        tile, self.entry = self.entry, ""
        self.put(f"tile {tile!r} at row {r + 1}, column {c + 1}",
                 pe.set_tile(self.pattern, self.layer, r, c, tile))

    def action_erase(self) -> None:
        if self.entry:
            self.entry = self.entry[:-1]
            self._draw_status()
            return
        c, r = self.cursor
        self.put(f"erase row {r + 1}, column {c + 1}", pe.set_tile(self.pattern, self.layer, r, c, "_"))

    def action_rows(self, delta: int) -> None:
        r = self.cursor[1]
        if delta > 0:
            self.put("add a row", pe.add_row(self.pattern, r + 1))
            self.cursor = (self.cursor[0], r + 1)
        else:
            self._attempt("remove a row", lambda: pe.remove_row(self.pattern, r))

    def action_columns(self, delta: int) -> None:
        c = self.cursor[0]
        if delta > 0:
            self.put("add a column", pe.add_column(self.pattern, c + 1))
            self.cursor = (c + 1, self.cursor[1])
        else:
            self._attempt("remove a column", lambda: pe.remove_column(self.pattern, c))

    def _attempt(self, label: str, make) -> bool:
        try:
            pattern = make()
        except (EditError, ValueError) as error:
            self.notify(str(error), severity="warning", timeout=3)
            return False
        return self.put(label, pattern)

    @work(exclusive=True, group="dialog")
    async def action_add_layer(self) -> None:
        name = await self.app.push_screen_wait(NameDialog(
            "New layer name", "", "Add",
            refused_by(lambda name: pe.add_layer(self.pattern, name), EditError, ValueError)))
        if name and self._attempt(f"add layer {name}", lambda: pe.add_layer(self.pattern, name)):
            self.action_layer(len(self.pattern) - 1 - self.layer_index)  # shown and edited next

    @work(exclusive=True, group="dialog")
    async def action_rename_layer(self) -> None:
        old = self.layer
        name = await self.app.push_screen_wait(NameDialog(
            f"Rename layer {old!r}", old, "Rename", refused_by(
                lambda name: name == old or pe.rename_layer(self.pattern, old, name),
                EditError, ValueError)))
        if name and name != old:
            self._attempt(f"rename layer {old}", lambda: pe.rename_layer(self.pattern, old, name))

    def action_remove_layer(self) -> None:
        layer = self.layer
        self._attempt(f"remove layer {layer}", lambda: pe.remove_layer(self.pattern, layer))

    def action_layer(self, delta: int) -> None:
        self.layer_index = (self.layer_index + delta) % len(self.pattern)
        self._draw_grid()
        self._draw_status()

    def _show_title(self) -> None:
        super()._show_title()  # the file and its unsaved mark stay in the sub-title
        self.title = f"{self.title}: {(self.node or {}).get('type')} · {self.field}"

    def action_other_field(self) -> None:
        """Edit the node's next pattern field (a rewrite: lhs, rhs) in the same editor."""
        names = self.pattern_fields()
        if len(names) < 2 or self.text_mode:
            return
        self.field = names[(names.index(self.field) + 1) % len(names)] if self.field in names \
            else names[0]
        self.layer_index, self.cursor, self.entry = 0, (0, 0), ""
        self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "other_field":  # hidden where there is one pattern, and in the text form
            return len(self.pattern_fields()) > 1 and not self.text_mode
        if action in GRID_ACTIONS:
            return not self.text_mode  # the text form has the keys: the grid's are not offered
        if action in ("toggle_text", "apply_text"):
            return (action == "apply_text") == self.text_mode
        return super().check_action(action, parameters)

    def action_apply_text(self) -> None:
        self.action_toggle_text()

    def action_toggle_text(self) -> None:
        if self.text_mode:
            if self._apply_text():
                self._close_text()
            return
        area = self.query_one(TextArea)
        area.text = self._text_shown = pe.pattern_to_text(self.pattern)
        self._discard_asked = False
        self.text_mode = True
        self.set_class(True, "-text")
        area.can_focus = True
        area.focus()
        self.refresh_bindings()
        self._draw_status()

    def _apply_text(self) -> bool:
        """Put the text form's pattern in the node (one edit); False, with the reason shown and
        the cursor on it, when it does not read or is refused — the typing stays as it is."""
        area = self.query_one(TextArea)
        try:
            pattern = pe.pattern_from_text(area.text)
        except pe.PatternTextError as error:
            self.notify(f"line {error.line}: {error}", severity="error", timeout=5)
            area.move_cursor((max(error.line - 1, 0), max(error.column - 1, 0)))
            return False
        return pattern == self.pattern or self.put("text form", pattern)

    def action_save(self):
        return super().action_save() if self._text_saved() else None

    def action_save_as(self):
        return super().action_save_as() if self._text_saved() else None

    def _text_saved(self, doing: str = "Not saved") -> bool:
        """The text typed is part of the work: saved with it, or not saved (it does not read)."""
        if self.text_mode and not self._apply_text():
            self.notify(f"{doing}: the text form does not read (see above); mend it, or escape "
                        "twice to drop it", severity="warning", timeout=5)
            return False
        return True

    async def confirm_close(self) -> bool:
        """Before quitting: the text typed is applied (the quit then asks about saving it)."""
        return self._text_saved("Not quitting")

    def _close_text(self) -> None:
        self.text_mode = False
        self.set_class(False, "-text")
        area = self.query_one(TextArea)
        area.can_focus = False
        self.set_focus(None)
        self.refresh_bindings()
        self._draw_status()

    def action_back(self) -> None:
        if self.text_mode:
            # Escape keeps what was typed, as everywhere in the studio (ctrl+z takes it back);
            # a text that does not read stays open, and a second escape drops it.
            area = self.query_one(TextArea)
            if area.text == self._text_shown or self._apply_text():
                self._close_text()
            elif self._discard_asked:
                self.notify("Text form closed; what was typed there was dropped", timeout=3)
                self._close_text()
            else:
                self._discard_asked = True
            return
        if self.entry:  # a tile half typed: escape drops it, a second one leaves
            self.entry = ""
            self._draw_status()
            return
        self.dismiss(None)
