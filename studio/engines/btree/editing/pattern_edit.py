"""The pattern editors of the tree editor (spec §11.2): grid operations, the text form, and the
validation marks of a node's patterns.

A pattern is ``{layer: [[tile, ...], ...]}``; every layer has the size of the first. Operations
never modify their input: they return a new pattern that shares the rows they did not change.

Padding: new rows and columns are filled with ``?``, the reference editor's padding symbol, so
unfilled cells stay visible and :func:`pattern_problems` can point at them (a ``?`` that survives
into a game is an ordinary tile, spec §2). A new layer is filled with ``.``, which means "nothing
here" wherever a pattern is used (don't care in an lhs, unchanged in an rhs, void on a board), since
a new layer is usually sparse. Both are overridable with ``fill=``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.engines.btree.editing.tree_view import EditError
from studio.engines.btree.model.schema import PAD, Node, Pattern
EMPTY = "_"
"""The idiomatic empty cell: what backspace writes."""
NEW_LAYER_FILL = "."


class PatternTextError(EditError):
    """The text form cannot be read (or written): ``line`` and ``column`` count from 1."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


@dataclass(frozen=True)
class Problem:
    """A validation mark on a node's pattern: which field, layer, row (and column) is wrong.

    ``severity`` is ``"error"`` (the game will not load) or ``"warning"`` (it loads, but probably
    not as meant: padding left over, a smaller rhs than lhs).
    """

    field: str
    layer: str | None
    row: int | None
    message: str
    col: int | None = None
    severity: str = "error"


# ---------------------------------------------------------------------------------------- checks


def _tile(tile: Any, what: str = "a tile") -> str:
    if not isinstance(tile, str) or not tile:
        raise EditError(f"{what} cannot be empty: use {EMPTY} for an empty cell")
    if tile.split() != [tile]:
        raise EditError(f"{what} cannot contain spaces")
    return tile


def _grid(pattern: Pattern, layer: str) -> list[list[str]]:
    if layer not in pattern:
        raise EditError(f"no layer {layer!r} in the pattern")
    return pattern[layer]


def _size(pattern: Pattern) -> tuple[int, int]:
    for grid in pattern.values():
        return len(grid), len(grid[0]) if grid else 0
    raise EditError("the pattern has no layers: add a layer first")


def _index(value: int, count: int, what: str) -> int:
    if not 0 <= value < count:
        raise EditError(f"no {what} {value} (there are {count})")
    return value


def _layer_name(name: Any, pattern: Pattern, old: str | None = None) -> str:
    if not isinstance(name, str) or not name.strip():
        raise EditError("a layer name cannot be empty")
    if name != name.strip() or "\n" in name:
        raise EditError("a layer name cannot start or end with spaces or hold a line break")
    if name != old and name in pattern:
        raise EditError(f"the pattern already has a layer {name!r}")
    return name


# ----------------------------------------------------------------------------------------- cells


def set_tile(pattern: Pattern, layer: str, row: int, col: int, tile: str) -> Pattern:
    """The pattern with one cell changed (``""`` is not a tile: backspace writes ``_``).

    Raises:
        EditError: no such layer or cell, or an empty tile or one with spaces.
    """
    grid = _grid(pattern, layer)
    _index(row, len(grid), "row")
    _index(col, len(grid[row]), "column")
    new_row = list(grid[row])
    new_row[col] = _tile(tile)
    new_grid = list(grid)
    new_grid[row] = new_row
    return {**pattern, layer: new_grid}


def add_row(pattern: Pattern, at: int, fill: str = PAD) -> Pattern:
    """Insert a row before row ``at`` (``at`` = the number of rows appends), in every layer.

    Raises:
        EditError: ``at`` out of range, no layers, or a bad fill tile.
    """
    rows, cols = _size(pattern)
    if not 0 <= at <= rows:
        raise EditError(f"cannot add a row at {at} (there are {rows})")
    fill = _tile(fill, "the fill tile")
    return {layer: [*grid[:at], [fill] * cols, *grid[at:]] for layer, grid in pattern.items()}


def remove_row(pattern: Pattern, at: int) -> Pattern:
    """Remove row ``at`` from every layer; a pattern keeps at least one row.

    Raises:
        EditError: no such row, or it is the only one.
    """
    rows, _ = _size(pattern)
    _index(at, rows, "row")
    if rows == 1:
        raise EditError("a pattern keeps at least one row")
    return {layer: [*grid[:at], *grid[at + 1:]] for layer, grid in pattern.items()}


def add_column(pattern: Pattern, at: int, fill: str = PAD) -> Pattern:
    """Insert a column before column ``at`` (``at`` = the number of columns appends), in every layer.

    Raises:
        EditError: ``at`` out of range, no layers, or a bad fill tile.
    """
    _, cols = _size(pattern)
    if not 0 <= at <= cols:
        raise EditError(f"cannot add a column at {at} (there are {cols})")
    fill = _tile(fill, "the fill tile")
    return {layer: [[*row[:at], fill, *row[at:]] for row in grid] for layer, grid in pattern.items()}


def remove_column(pattern: Pattern, at: int) -> Pattern:
    """Remove column ``at`` from every layer; a pattern keeps at least one column.

    Raises:
        EditError: no such column, or it is the only one.
    """
    _, cols = _size(pattern)
    _index(at, cols, "column")
    if cols == 1:
        raise EditError("a pattern keeps at least one column")
    return {layer: [[*row[:at], *row[at + 1:]] for row in grid] for layer, grid in pattern.items()}


def resize(pattern: Pattern, rows: int, cols: int, fill: str = PAD) -> Pattern:
    """Crop or extend every layer at the bottom and right to ``rows`` × ``cols``.

    Raises:
        EditError: a size below 1×1, no layers, or a bad fill tile.
    """
    _size(pattern)
    if rows < 1 or cols < 1:
        raise EditError("a pattern is at least 1×1")
    fill = _tile(fill, "the fill tile")
    out = {}
    for layer, grid in pattern.items():
        kept = [row if len(row) == cols else [*row[:cols], *[fill] * (cols - len(row))] for row in grid[:rows]]
        out[layer] = kept + [[fill] * cols for _ in range(rows - len(kept))]
    return out


# ---------------------------------------------------------------------------------------- layers


def add_layer(pattern: Pattern, name: str, fill: str = NEW_LAYER_FILL, at: int | None = None) -> Pattern:
    """Add a layer of the pattern's size filled with ``fill``, last or at position ``at``.

    A pattern without layers gets a 1×1 layer.

    Raises:
        EditError: a bad or duplicate name, or a bad fill tile.
    """
    name = _layer_name(name, pattern)
    fill = _tile(fill, "the fill tile")
    rows, cols = _size(pattern) if pattern else (1, 1)
    items = list(pattern.items())
    place = len(items) if at is None else max(0, min(at, len(items)))
    items.insert(place, (name, [[fill] * cols for _ in range(rows)]))
    return dict(items)


def rename_layer(pattern: Pattern, old: str, new: str) -> Pattern:
    """Rename a layer, keeping its place (layer order matters: the first is drawn on top).

    Raises:
        EditError: no layer ``old``, or a bad or duplicate new name.
    """
    _grid(pattern, old)
    new = _layer_name(new, pattern, old)
    return {(new if layer == old else layer): grid for layer, grid in pattern.items()}


def remove_layer(pattern: Pattern, name: str) -> Pattern:
    """Remove a layer; a pattern keeps at least one.

    Raises:
        EditError: no such layer, or it is the only one.
    """
    _grid(pattern, name)
    if len(pattern) == 1:
        raise EditError("a pattern keeps at least one layer")
    return {layer: grid for layer, grid in pattern.items() if layer != name}


def move_layer(pattern: Pattern, name: str, delta: int) -> Pattern:
    """Move a layer ``delta`` places in the layer order (the first layer is drawn on top).

    Raises:
        EditError: no such layer, or a place outside the pattern.
    """
    _grid(pattern, name)
    names = list(pattern)
    index = names.index(name)
    if not 0 <= index + delta < len(names):
        raise EditError("the layer is already first" if delta < 0 else "the layer is already last")
    names.insert(index + delta, names.pop(index))
    return {layer: pattern[layer] for layer in names}


# ------------------------------------------------------------------------------------- text form


def pattern_to_text(pattern: Pattern) -> str:
    """The text form: one row per line, tiles separated by spaces, a line `` name`` before each
    layer (left out for a pattern of one layer named ``main``).

    Raises:
        PatternTextError: a tile the text cannot hold (empty or with spaces) or a layer name it
            cannot (empty, with spaces around it), located where it would stand.
    """
    lines: list[str] = []
    named = list(pattern) != ["main"]
    for layer, grid in pattern.items():
        if named:
            if not isinstance(layer, str) or not layer.strip() or layer != layer.strip() or "\n" in layer \
                    or 1 < len(layer.split()) == len(grid[0] if grid else ()):  # read as a row
                raise PatternTextError(f"the text form cannot name the layer {layer!r}", len(lines) + 1, 2)
            lines.append(" " + layer)
        for row in grid:
            for col, tile in enumerate(row):
                if not isinstance(tile, str) or tile.split() != [tile]:
                    raise PatternTextError(f"the text form cannot show the tile {tile!r}", len(lines) + 1, col + 1)
            lines.append(" ".join(row))
    return "".join(line + "\n" for line in lines)


def _refuse_row_as_layer(name: str, width: int, line: int, column: int) -> None:
    """A layer line with as many words as the row beside it has tiles is a row typed with a
    leading space: read as a name, it silently began a layer (or a size mismatch said later)."""
    words = len(name.split())
    if words > 1 and words == width:
        raise PatternTextError(
            f"{name!r} starts with a space, so it would name a layer, yet it reads as a row of "
            f"{words} tiles like the one beside it: take the leading space away to keep it a "
            "row (a layer's name is best one word)", line, column)


def pattern_from_text(text: str) -> Pattern:
    """Read the text form of :func:`pattern_to_text`.

    Rows before any layer line belong to ``main``; a line starting with a space (or tab) names
    the next layer, unless it has as many words as the row before or after it has tiles (a row
    typed with a leading space: refused, saying so); blank lines are skipped. ``?`` at the end of a row is padding: it is dropped,
    then short rows are padded with ``?`` to the layer's longest row (so columns made only of
    trailing ``?`` disappear).

    Raises:
        PatternTextError: an empty text, a layer named twice or without rows, a layer of padding
            only, or layers of different sizes; located at the line and column.
    """
    rows: dict[str, list[list[str]]] = {}
    where: dict[str, tuple[int, int]] = {}
    current = None
    last_width = 0  # tiles on the last row read: a "layer name" as wide reads as a stray row
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line:
            continue
        if line[0].isspace():
            current = line.strip()
            column = len(line) - len(line.lstrip()) + 1
            if current in rows:
                raise PatternTextError(f"layer {current!r} is named twice", number, column)
            rows[current], where[current] = [], (number, column)
            _refuse_row_as_layer(current, last_width, number, column)
            continue
        if current is None:
            current = "main"
            rows[current], where[current] = [], (number, 1)
        row = line.split()
        if not rows[current]:
            _refuse_row_as_layer(current, len(row), *where[current])
        last_width = len(row)
        while row and row[-1] == PAD:
            row.pop()
        rows[current].append(row)
    if not rows:
        raise PatternTextError("the pattern is empty: write rows of tiles separated by spaces", 1, 1)
    out: Pattern = {}
    first: tuple[str, int, int] | None = None
    for layer, grid in rows.items():
        line, column = where[layer]
        width = max((len(row) for row in grid), default=0)
        if not grid:
            raise PatternTextError(f"layer {layer!r} has no rows", line, column)
        if width == 0:
            raise PatternTextError(f"layer {layer!r} holds only padding ({PAD})", line, column)
        if first is None:
            first = (layer, len(grid), width)
        elif (len(grid), width) != first[1:]:
            raise PatternTextError(
                f"layer {layer!r} is {len(grid)}×{width} but {first[0]!r} is {first[1]}×{first[2]}: "
                "layers must have the same size", line, column,
            )
        out[layer] = [row + [PAD] * (width - len(row)) for row in grid]
    return out


# ------------------------------------------------------------------------------------ validation


def shape_problems(pattern: Any, field: str) -> list[Problem]:
    """What is wrong with one pattern: its type, tiles, unequal rows, layers of different sizes,
    padding left in it (a warning)."""
    if not isinstance(pattern, dict):
        return [Problem(field, None, None, f"{field} is not a layer pattern")]
    if not pattern:
        return [Problem(field, None, None, f"{field} has no layers", severity="warning")]
    out: list[Problem] = []
    size: tuple[str, int, int] | None = None
    for layer, grid in pattern.items():
        if not isinstance(layer, str) or not layer:
            out.append(Problem(field, str(layer), None, "a layer name must be non-empty text"))
        if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
            out.append(Problem(field, layer, None, f"layer {layer!r} is not a list of rows"))
            continue
        for r, row in enumerate(grid):
            if len(row) != len(grid[0]):
                out.append(Problem(field, layer, r, f"row {r + 1} of layer {layer!r} has {len(row)} tiles "
                                                    f"but row 1 has {len(grid[0])}"))
            for c, tile in enumerate(row):
                if not isinstance(tile, str) or not tile:
                    out.append(Problem(field, layer, r, f"empty or non-text tile at row {r + 1}, column {c + 1}", c))
                elif tile == PAD:
                    out.append(Problem(field, layer, r, f"padding {PAD} left at row {r + 1}, column {c + 1}", c,
                                       "warning"))
        this = (len(grid), len(grid[0]) if grid else 0)
        if size is None:
            size = (layer, *this)
            if this[0] == 0:
                out.append(Problem(field, layer, None, f"{field} is empty", severity="warning"))
        elif this != size[1:]:
            out.append(Problem(field, layer, None, f"layer {layer!r} is {this[0]}×{this[1]} but the first layer "
                                                   f"{size[0]!r} is {size[1]}×{size[2]}"))
    return out


def pattern_problems(node: Node) -> list[Problem]:
    """The validation marks of a node's patterns (spec §11.2): unequal rows, layers of different
    sizes, an lhs and rhs of different sizes, padding left over.

    An rhs larger than the lhs is an error (it could be written outside the board); a smaller one a
    warning (only its area is written), as the loader has it.
    """
    out: list[Problem] = []
    for field in ("pattern", "lhs", "rhs"):
        if field in node:
            out.extend(shape_problems(node[field], field))
    lhs, rhs = node.get("lhs"), node.get("rhs")
    if isinstance(lhs, dict) and isinstance(rhs, dict) and lhs and rhs:
        try:
            left, right = _size(lhs), _size(rhs)
        except (EditError, TypeError):
            return out
        if left != right:
            larger = right[0] > left[0] or right[1] > left[1]
            out.append(Problem("rhs", None, None,
                               f"lhs is {left[0]}×{left[1]} but rhs is {right[0]}×{right[1]}: they must have "
                               "the same size", severity="error" if larger else "warning"))
    return out
