"""The map editor's tools pane as lines of text: map, brush, symmetry, pen, the tile under the
cursor, what stops the map from being saved, and the fairness check (haunted.md §13.5)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from studio.engines.haunted.map_edit import Fairness, Issue, MapDraft, at
from studio.screens.haunted.board_render import SHADES
from studio.storage import ProjectError, format_field_path
from studio.widgets.canvas import UIStyles

BRUSHES = ("0", "1", "2", "3", "H0", "H1", "H2", "A0", "A1", "A2")
"""Strength brushes, then the six start tools."""
MAX_LISTED = 4
"""Mismatched tile pairs listed per symmetry before "and N more"."""


@dataclass(frozen=True)
class ToolState:
    """What the editor shows besides the map itself."""

    index: int
    count: int
    brush: str
    symmetry: str
    pen: bool
    pending: str | None
    """``home`` or ``away`` after ``h`` / ``a``, until 1-3 picks the start."""
    cursor: tuple[int, int]
    """(row, col)."""


def describe(draft: MapDraft) -> str:
    """Size and holes: ``7×7 · 12 holes``."""
    holes = draft.strengths.count(0)
    return f"{draft.size}×{draft.size} · {holes} hole{'s' if holes != 1 else ''}"


def _brushes(brush: str, ui: UIStyles) -> list[Text]:
    """Strengths on one line, starts on the next: one line of both was cut (or wrapped inside
    the starts) beside a 9×9 map at 80 columns."""
    lines = []
    for title, names in (("Brush     ", BRUSHES[:4]), ("Starts    ", BRUSHES[4:])):
        text = Text(title, style=ui.muted)
        for name in names:
            shown = name + (SHADES[int(name)] or " " if name.isdigit() else "")
            style = ui.warning if name == "1" else ui.text
            if name == brush:
                style = ui.accent + Style(reverse=True)
            text.append(shown, style)
            text.append("  " if name == "H2" else " ")
        lines.append(text)
    return lines


def _issues(issues: list[Issue], project: ProjectError | None, ui: UIStyles) -> list[Text]:
    errors = [i for i in issues if i.level == "error"]
    lines = [Text("✗ " + i.message, style=ui.error) for i in errors]
    if not errors and project is not None:
        # Another map, a name clash or the rotation: the first thing saving would refuse.
        where = format_field_path(project.field_path)
        lines.append(Text(f"✗ cannot save: {where}: {project.message}", style=ui.error))
    lines += [Text("! " + i.message, style=ui.warning) for i in issues if i.level == "warning"]
    if not lines:
        lines.append(Text("✓ valid: ready to save", style=ui.success))
    return lines


def _fairness(result: Fairness, ui: UIStyles) -> list[Text]:
    if result.fair:
        return [Text("✓ fair: symmetric under " + " and ".join(result.modes)
                     + ", home and away exchanged", style=ui.success)]
    lines = [Text("✗ not fair: neither top/bottom nor point symmetry holds", style=ui.error)]
    for check in result.checks:
        where = [f"{at(a)}≠{at(b)}" for a, b in check.tiles[:MAX_LISTED]]
        if len(check.tiles) > MAX_LISTED:
            where.append(f"and {len(check.tiles) - MAX_LISTED} more")
        if where:
            lines.append(Text(f"  {check.mode}: strengths differ at " + ", ".join(where),
                              style=ui.text))
        for words in check.starts:
            lines.append(Text(f"  {check.mode}: {words}", style=ui.text))
    return lines


def tool_lines(draft: MapDraft, state: ToolState, issues: list[Issue],
               project: ProjectError | None, fairness: Fairness | None,
               ui: UIStyles) -> list[Text]:
    """The tools pane, one Text per line (the screen wraps them to the pane's width)."""
    row, col = state.cursor
    here = [label for label, tile in draft.labelled_starts() if tile == (row, col)]
    lines = [
        Text.assemble(("Map ", ui.muted), (f"{state.index + 1} of {state.count}  ", ui.muted),
                      (draft.name or "(no name)", ui.primary)),
        Text(describe(draft), style=ui.muted),
        Text(""),
        *_brushes(state.brush, ui),
        Text.assemble(("Symmetry  ", ui.muted), (state.symmetry, ui.accent)),
        Text.assemble(("Pen       ", ui.muted),
                      ("DOWN: every move paints", ui.accent) if state.pen else ("up", ui.text)),
        Text.assemble(("Tile      ", ui.muted),
                      (f"{at((row, col))} strength {draft.at(row, col)}", ui.text),
                      (" · " + " ".join(here) if here else "", ui.text)),
    ]
    if state.pending:
        letter = "H" if state.pending == "home" else "A"
        lines.append(Text(f"Start: press 1, 2 or 3 for {letter}0, {letter}1, {letter}2",
                          style=ui.accent + Style(reverse=True)))
    lines += [Text(""), Text("Checks", style=ui.primary), *_issues(issues, project, ui)]
    if fairness is not None:
        lines += [Text(""), Text("Fairness", style=ui.primary), *_fairness(fairness, ui)]
    return lines
