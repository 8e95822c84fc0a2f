"""Behaviour trees drawn as indented lines: the authored tree (collapsible) and the compiled one.

Both panes of the tree editor are :class:`~studio.widgets.lines.LinesView` pictures built here:
one line per visible node, shape and colour by category, so a cursor move repaints two lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip

from studio.engines.btree.editing.tree_edit import category, summary
from studio.widgets.canvas import UIStyles, span_strip

Path = tuple[int, ...]
MARKS = {"control": "◆", "tile": "■", "transform": "◇"}


@dataclass(frozen=True)
class Picture:
    """Lines for a LinesView and their click regions."""

    strips: list[Strip]
    hits: list[tuple[Region, object]]


@dataclass(frozen=True)
class TreeLine:
    """One visible node."""

    path: Path
    depth: int
    node: dict
    has_children: bool
    collapsed: bool


def visible_lines(tree: dict | None, collapsed: set[Path]) -> list[TreeLine]:
    """The nodes shown, in pre-order, skipping the insides of collapsed nodes."""
    if tree is None:
        return []
    out: list[TreeLine] = []
    stack: list[tuple[dict, Path]] = [(tree, ())]
    while stack:
        node, path = stack.pop()
        children = node.get("children") or []
        folded = path in collapsed and bool(children)
        out.append(TreeLine(path, len(path), node, bool(children), folded))
        if not folded:
            stack.extend((child, (*path, i)) for i, child in reversed(list(enumerate(children))))
    return out


def category_style(kind: str, styles: UIStyles) -> Style:
    return {"control": styles.primary, "tile": styles.success, "transform": styles.warning}[kind]


def draw_tree(lines: list[TreeLine], width: int, styles: UIStyles, cursor: Path | None,
              marked: Iterable[Path] = (), broken: Iterable[Path] = (),
              breakpoints: Iterable[Path] = (), focused: bool = True) -> Picture:
    """The authored tree pane: one strip per visible node, and the click regions.

    Args:
        lines: from :func:`visible_lines`.
        width: columns of the pane.
        styles: the theme.
        cursor: the selected node.
        marked: nodes to highlight (the origin of the compiled node selected, the executing path).
        broken: nodes with a diagnostic (drawn in the error colour, with ✗).
        breakpoints: nodes with a debugger breakpoint (●).
        focused: whether the pane has the keyboard (the cursor is dimmer when not).
    """
    marked, broken, breakpoints = set(marked), set(broken), set(breakpoints)
    strips, hits = [], []
    for y, line in enumerate(lines):
        flags = (line.path in marked, line.path == cursor, line.path in broken,
                 line.path in breakpoints)
        key = (id(line.node), line.depth, line.has_children, line.collapsed, flags, width,
               focused, id(styles))
        cached = _LINES.get(key)
        if cached is None or cached[0] is not line.node:
            cached = (line.node, _tree_strip(line, width, styles, flags, focused))
            if len(_LINES) > 20_000:
                _LINES.clear()
            _LINES[key] = cached
        strips.append(cached[1])
        hits.append((canvas_row(width, y), line.path))
    return Picture(strips, hits)


_LINES: dict[tuple, tuple[dict, Strip]] = {}
"""Drawn lines by node identity and state: nodes are never mutated, so a node object drawn
the same way draws the same strip; a redraw after an edit rebuilds only the changed nodes."""


def _tree_strip(line: TreeLine, width: int, styles: UIStyles, flags: tuple,
                focused: bool) -> Strip:
    marked, is_cursor, broken, breakpoint = flags
    node = line.node
    kind = category(str(node.get("type", "")))
    base = Style()
    if marked:
        base = styles.filled
    if is_cursor:
        base = styles.cursor if focused else styles.selected
    expander = ("▸" if line.collapsed else "▾") if line.has_children else " "
    spans = [("  " * line.depth + expander + " ", styles.muted),
             (MARKS[kind] + " ", category_style(kind, styles))]
    if breakpoint:
        spans.append(("● ", styles.error))
    if broken:
        spans.append(("✗ ", styles.error))
    spans.append((summary(node), styles.error if broken else styles.text))
    return span_strip(spans, width, base)


def canvas_row(width: int, y: int) -> Region:
    """The whole line ``y`` of a pane ``width`` columns wide."""
    return Region(0, y, width, 1)


def compiled_lines(nodes: list[dict], parents: list[int | None]) -> list[tuple[int, int]]:
    """(node id, depth) of every compiled node, in pre-order (ids are pre-order already)."""
    depth: list[int] = []
    for index, parent in enumerate(parents):
        depth.append(0 if parent is None else depth[parent] + 1)
    return list(enumerate(depth))


def draw_compiled(nodes: list[dict], depths: list[tuple[int, int]], width: int,
                  styles: UIStyles, cursor: int | None, marked: Iterable[int] = (),
                  executing: Iterable[int] = (), focused: bool = True) -> Picture:
    """The compiled tree pane (read-only): the nodes the engine runs, numbered."""
    marked, executing = set(marked), set(executing)
    strips, hits = [], []
    digits = len(str(max(len(nodes) - 1, 0)))  # ids right-aligned: "9 ■" and "10 ■" line up
    for y, (node_id, depth) in enumerate(depths):
        node = nodes[node_id]
        kind = category(str(node.get("type", "")))
        base = Style()
        if node_id in marked:
            base = styles.filled
        if node_id in executing:
            base = base + Style(underline=True)
        if node_id == cursor:
            base = styles.cursor if focused else styles.selected
        spans = [("  " * depth + f"{node_id:>{digits}} ", styles.muted),
                 (MARKS[kind] + " ", category_style(kind, styles)),
                 (summary(node), styles.text)]
        strips.append(span_strip(spans, width, base))
        hits.append((canvas_row(width, y), node_id))
    return Picture(strips, hits)
