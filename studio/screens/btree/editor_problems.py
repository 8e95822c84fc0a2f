"""The tree editor's diagnostics pane: the last compile's error or warnings, each naming its
node; a click or ``f8`` goes to the node (``f8`` to each in turn, as the pane shows only a few
lines at 80x24 and those below were out of reach from the keyboard).

A base of :class:`~studio.screens.btree.editor.TreeEditorScreen`, which compiles and owns the
panes.
"""

from __future__ import annotations

import textwrap
from typing import Any

from studio.engines.btree import BtreeError, Compiled
from studio.screens.btree.tree_lines import canvas_row
from studio.widgets.canvas import Canvas
from studio.widgets.lines import LinesView


class TreeProblems:
    """Draws the diagnostics pane and walks its problems."""

    # Provided by the screen.
    compiled: Compiled | BtreeError | None
    _problem: int
    _problem_rows: list[int]

    def _problems(self) -> list[tuple[str, Any, Any]]:
        """The diagnostics of the last compile: (text, style, node path or None)."""
        styles = self.styles_ui
        compiled = self.compiled
        if isinstance(compiled, BtreeError):
            return [(f"✗ {compiled}", styles.error, compiled.node_path)]
        if isinstance(compiled, Compiled):
            if not compiled.warnings:
                return [(f"compiles: {len(compiled.nodes)} nodes, no warnings", styles.success,
                         None)]
            return [(f"! {warning}", styles.warning, warning.node_path)
                    for warning in compiled.warnings]
        return [("compiling…", styles.muted, None)]

    def _draw_diagnostics(self) -> None:
        lines = self._problems()
        if len(lines) > 1:  # the pane shows a few lines: say there are more and how to go
            lines = [(f"{len(lines)} problems · f8 or ctrl+n goes to each", self.styles_ui.muted,
                      None), *lines]
        view = self.query_one("#diagnostics", LinesView)
        width = max(view.text_width, 20)
        wrapped: list[tuple[str, Any, Any]] = []
        self._problem_rows = []
        for text, style, where in lines:
            if where is not None:
                self._problem_rows.append(len(wrapped))
            wrapped += [(part, style, where) for part in
                        textwrap.wrap(text, width - 1, subsequent_indent="  ") or [""]]
        canvas = Canvas(width, len(wrapped))
        for y, (text, style, where) in enumerate(wrapped):
            canvas.put(0, y, text, style)
            if where:
                canvas.hit(canvas_row(canvas.width, y), ("diag", where))
        view.set_lines(canvas.strips(), canvas.hits)

    def action_next_problem(self) -> None:
        """Select the node of the next diagnostic and bring the diagnostic into view (the pane
        is a few lines high: those below were out of reach from the keyboard)."""
        found = [where for _text, _style, where in self._problems() if where is not None]
        if not found:
            self.notify("No problems to go to", timeout=2)
            return
        self._problem = (self._problem + 1) % len(found)
        self.jump_to(found[self._problem])
        rows = self._problem_rows
        if self._problem < len(rows):
            view = self.query_one("#diagnostics", LinesView)
            view.scroll_to(y=rows[self._problem], animate=False, immediate=True)
