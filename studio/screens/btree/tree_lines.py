"""Behaviour trees drawn as indented lines: the authored tree (collapsible) and the compiled one.

Both panes of the tree editor are :class:`~studio.widgets.lines.LinesView` pictures built here:
one line per visible node, shape and colour by category, so a cursor move repaints two lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.style import Style
from textual.geometry import Region

from studio.engines.btree.tree_edit import category, summary
from studio.widgets.canvas import Canvas, UIStyles

Path = tuple[int, ...]
MARKS = {"control": "◆", "tile": "■", "transform": "◇"}


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
              breakpoints: Iterable[Path] = (), focused: bool = True) -> Canvas:
    """The authored tree pane.

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
    canvas = Canvas(width, max(len(lines), 1))
    for y, line in enumerate(lines):
        node = line.node
        kind = category(str(node.get("type", "")))
        base = Style()
        if line.path in marked:
            base = styles.filled
        if line.path == cursor:
            base = styles.cursor if focused else styles.selected
        canvas.fill(canvas_row(width, y), base)
        x = 2 * line.depth
        expander = ("▸" if line.collapsed else "▾") if line.has_children else " "
        x = canvas.put(x, y, expander + " ", styles.muted + base)
        x = canvas.put(x, y, MARKS[kind] + " ", category_style(kind, styles) + base)
        if line.path in breakpoints:
            x = canvas.put(x, y, "● ", styles.error + base)
        text = summary(node)
        style = (styles.error if line.path in broken else styles.text) + base
        if line.path in broken:
            x = canvas.put(x, y, "✗ ", styles.error + base)
        canvas.put(x, y, text, style)
        canvas.hit(canvas_row(width, y), line.path)
    return canvas


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
                  executing: Iterable[int] = (), focused: bool = True) -> Canvas:
    """The compiled tree pane (read-only): the nodes the engine runs, numbered."""
    marked, executing = set(marked), set(executing)
    canvas = Canvas(width, max(len(depths), 1))
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
        canvas.fill(canvas_row(width, y), base)
        x = canvas.put(2 * depth, y, f"{node_id} ", styles.muted + base)
        x = canvas.put(x, y, MARKS[kind] + " ", category_style(kind, styles) + base)
        canvas.put(x, y, summary(node), styles.text + base)
        canvas.hit(canvas_row(width, y), node_id)
    return canvas
