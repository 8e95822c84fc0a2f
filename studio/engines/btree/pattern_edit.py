"""The pattern editors' operations (btree.md §11.2): grid edits, the text form, shape problems.

Patterns are ``{layer: [[tile, ...], ...]}`` and, like trees, never mutated: each operation returns
a new pattern. New cells are ``?``, the reference editor's padding symbol, so that an added row or
column stands out until it is filled in (a ``?`` that survives is an ordinary tile).
"""

from __future__ import annotations

from dataclasses import dataclass

from .schema import Node

Pattern = dict[str, list[list[str]]]
PAD = "?"


class PatternTextError(ValueError):
    """The text form cannot be read; ``line`` and ``column`` (1-based) say where."""

    def __init__(self, message: str, line: int, column: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def _layers(pattern: Pattern) -> list[str]:
    return list(pattern)


def _width(pattern: Pattern) -> int:
    first = next(iter(pattern.values()), [])
    return max((len(row) for row in first), default=0)


def set_tile(pattern: Pattern, layer: str, row: int, col: int, tile: str) -> Pattern:
    """The pattern with one tile changed (a short row is padded to reach ``col``).

    Raises:
        ValueError: no such layer or row, or an empty or spaced tile.
    """
    if not tile or tile.split() != [tile]:
        raise ValueError("a tile is one word without spaces (use _ for an empty cell)")
    grid = pattern[layer]
    if not 0 <= row < len(grid):
        raise ValueError(f"no row {row} in layer {layer!r}")
    line = list(grid[row]) + [PAD] * (col + 1 - len(grid[row]))
    line[col] = tile
    rows = list(grid)
    rows[row] = line
    return {**pattern, layer: rows}


def add_row(pattern: Pattern, at: int) -> Pattern:
    """A row of ``?`` inserted before row ``at`` in every layer."""
    width = _width(pattern) or 1
    return {name: grid[:at] + [[PAD] * width] + grid[at:] for name, grid in pattern.items()}


def remove_row(pattern: Pattern, at: int) -> Pattern:
    """Row ``at`` removed from every layer.

    Raises:
        ValueError: it is the only row.
    """
    first = next(iter(pattern.values()), [])
    if len(first) <= 1:
        raise ValueError("a pattern keeps at least one row")
    return {name: grid[:at] + grid[at + 1:] for name, grid in pattern.items()}


def add_column(pattern: Pattern, at: int) -> Pattern:
    """A column of ``?`` inserted before column ``at`` in every row of every layer."""
    return {name: [row[:at] + [PAD] + row[at:] for row in grid] for name, grid in pattern.items()}


def remove_column(pattern: Pattern, at: int) -> Pattern:
    """Column ``at`` removed everywhere.

    Raises:
        ValueError: it is the only column.
    """
    if _width(pattern) <= 1:
        raise ValueError("a pattern keeps at least one column")
    return {name: [row[:at] + row[at + 1:] for row in grid] for name, grid in pattern.items()}


def add_layer(pattern: Pattern, name: str) -> Pattern:
    """A new layer of ``.`` (don't care) the size of the first one, last in layer order.

    Raises:
        ValueError: an empty or taken name.
    """
    name = name.strip()
    if not name or name in pattern:
        raise ValueError(f"layer name {name!r} is empty or already used")
    first = next(iter(pattern.values()), [["."]])
    return {**pattern, name: [["."] * len(row) for row in first]}


def rename_layer(pattern: Pattern, old: str, new: str) -> Pattern:
    """Layer ``old`` renamed, keeping its place.

    Raises:
        ValueError: an empty or taken name.
    """
    new = new.strip()
    if not new or (new in pattern and new != old):
        raise ValueError(f"layer name {new!r} is empty or already used")
    return {(new if name == old else name): grid for name, grid in pattern.items()}


def remove_layer(pattern: Pattern, name: str) -> Pattern:
    """Layer ``name`` removed.

    Raises:
        ValueError: it is the only layer.
    """
    if len(pattern) <= 1:
        raise ValueError("a pattern keeps at least one layer")
    return {key: grid for key, grid in pattern.items() if key != name}


# ------------------------------------------------------------------------------ text form


def pattern_to_text(pattern: Pattern) -> str:
    """The text form: rows of space-separated tiles; each layer after the first (or any layer
    not named ``main``) starts with a line holding a space and its name."""
    lines: list[str] = []
    for index, (name, grid) in enumerate(pattern.items()):
        if index or name != "main":
            lines.append(f" {name}")
        lines.extend(" ".join(row) for row in grid)
    return "\n".join(lines)


def pattern_from_text(text: str) -> Pattern:
    """Read the text form.

    Raises:
        PatternTextError: no rows, a layer without rows, or a layer named twice.
    """
    pattern: Pattern = {}
    name = "main"
    started = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if line.startswith(" "):
            name = line.strip()
            if name in pattern:
                raise PatternTextError(f"layer {name!r} is named twice", number, 2)
            pattern[name] = []
            started = True
            continue
        if not started:
            pattern[name] = []
            started = True
        pattern[name].append(line.split())
    if not pattern:
        raise PatternTextError("the pattern has no rows", 1)
    for layer, grid in pattern.items():
        if not grid:
            raise PatternTextError(f"layer {layer!r} has no rows", _line_of(text, layer))
    return pattern


def _line_of(text: str, layer: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(" ") and line.strip() == layer:
            return number
    return 1


# -------------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class Problem:
    """A shape problem, where it is."""

    field: str
    layer: str | None
    row: int | None
    message: str

    def __str__(self) -> str:
        where = self.field + (f" layer {self.layer!r}" if self.layer else "") + (
            f" row {self.row}" if self.row is not None else "")
        return f"{where}: {self.message}"


def size(pattern: Pattern) -> tuple[int, int]:
    """Rows and columns of the first layer (the pattern's size)."""
    first = next(iter(pattern.values()), [])
    return len(first), (len(first[0]) if first else 0)


def pattern_problems(node: Node) -> list[Problem]:
    """Unequal rows, layers of another size, and lhs/rhs of different sizes, with places."""
    problems: list[Problem] = []
    for field in ("pattern", "lhs", "rhs"):
        pattern = node.get(field)
        if not isinstance(pattern, dict) or not pattern:
            continue
        rows, cols = size(pattern)
        for layer, grid in pattern.items():
            for r, row in enumerate(grid):
                if len(row) != cols:
                    problems.append(Problem(field, layer, r,
                                            f"{len(row)} tiles, the first row has {cols}"))
            if len(grid) != rows:
                problems.append(Problem(field, layer, None,
                                        f"{len(grid)} rows, the first layer has {rows}"))
    lhs, rhs = node.get("lhs"), node.get("rhs")
    if isinstance(lhs, dict) and isinstance(rhs, dict) and lhs and rhs and size(lhs) != size(rhs):
        (lr, lc), (rr, rc) = size(lhs), size(rhs)
        problems.append(Problem("rhs", None, None, f"is {rr}×{rc} but lhs is {lr}×{lc}"))
    return problems
