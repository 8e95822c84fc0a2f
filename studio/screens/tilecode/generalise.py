"""Generalise (tilecode.md §8.9): choose the flips and rotations of a rule and preview each view.

Views removed as duplicates (§5, decision 7) are drawn hollow and named "same as view N".
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.widgets import Header

from studio.engines.tilecode.model import Rule
from studio.engines.tilecode.rule_edit import set_transforms, transform_choices
from studio.engines.tilecode.selector import put_rule
from studio.engines.tilecode.views import View, all_views
from studio.screens.formatting import counted
from studio.screens.tilecode.base import TilecodeScreen
from studio.screens.tilecode.render import look_for
from studio.screens.tilecode.rule_picture import WIDTH, RulePicture
from studio.widgets.canvas import Canvas
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

LABELS = {"none": "none", "flip-horizontal": "flip ↔", "flip-vertical": "flip ↕",
          "rotate-left": "rotate ⟲", "rotate-right": "rotate ⟳", "rotate-3-way": "rotate 3-way",
          "rotate-180": "rotate 180"}
PICTURE_TOP = 7


def view_rule(view: View, rule: Rule) -> Rule:
    """A derived view as a rule, so it can be drawn like one."""
    return Rule(rule.id, view.type, view.records, view.button, rule.transforms, rule.enabled)


class GeneraliseScreen(TilecodeScreen):
    """Row 0 chooses the transforms; row 1 walks the views and previews them."""

    SCREEN_TITLE = "generalise"
    DEFAULT_CSS = """
    GeneraliseScreen LinesView { height: 1fr; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,a", "move(-1, 0)", "Left", show=False),
        Binding("right,d", "move(1, 0)", "Right", show=False),
        Binding("up,w", "move(0, -1)", "Up", show=False),
        Binding("down,s", "move(0, 1)", "Down", show=False),
        Binding("enter,space,z", "choose", "Choose"),
        Binding("escape,x,backspace", "back", "Back"),
    ]

    def __init__(self, document, rule_id: int) -> None:
        super().__init__(document)
        self.rule_id = rule_id
        self.cursor = (0, 0)
        rule = self.game.rule(rule_id)
        if rule is not None and rule.transforms in transform_choices():
            self.cursor = (transform_choices().index(rule.transforms), 0)

    def compose(self) -> ComposeResult:
        yield Header()
        yield LinesView(id="generalise", focusable=False)
        yield KeysFooter()

    def refresh_view(self) -> None:
        rule = self.game.rule(self.rule_id)
        if rule is None:
            self.dismiss(None)
            return
        styles = self.styles_ui
        views = all_views(rule)
        canvas = Canvas(WIDTH, PICTURE_TOP + 12)
        unique = sum(same is None for _v, same in views)
        canvas.put(0, 0, f"rule {rule.id} · {rule.type} · " + (
            "its views are derived: editing the rule changes them all" if unique > 1 else
            "no other view: the rule is used as it is"), styles.muted)
        canvas.put(0, 1, "transforms", styles.accent)
        x = 12
        for i, name in enumerate(transform_choices()):
            style = styles.primary
            if name == rule.transforms:
                style = style + styles.selected
            if self.cursor == (i, 0):
                style = style + styles.cursor
            end = canvas.put(x, 1, f"[{LABELS[name]}]", style)
            canvas.hit(Region(x, 1, end - x, 1), (i, 0))
            x = end + 1
        canvas.put(0, 3, "views", styles.accent)
        x = 12
        for i, (view, same) in enumerate(views):
            dot = "○" if same is not None else "●"
            style = styles.muted if same is not None else styles.text
            if self.cursor == (i, 1):
                style = style + styles.cursor
            end = canvas.put(x, 3, f"{dot} {i + 1}", style)
            canvas.hit(Region(x, 3, end - x, 1), (i, 1))
            x = end + 2
        shown_index = self.cursor[0] if self.cursor[1] == 1 else 0
        shown_index = min(shown_index, len(views) - 1)
        view, same = views[shown_index]
        name = "the base rule" if view.transform == "none" else f"view {shown_index + 1}: " \
            f"{view.transform}" + (f" (button {view.button})" if view.button else "")
        caption = f"{name} — same as view {same + 1}, so it is dropped" if same is not None \
            else name
        canvas.put(0, 5, caption, styles.warning if same is not None else styles.text)
        unique = sum(s is None for _v, s in views)
        runs = f"{counted(unique, 'distinct view')} {'runs' if unique == 1 else 'run'}"
        canvas.put(0, 6, f"{runs}; player-kind rules start as rotate 3-way",
                   styles.muted)
        look = look_for(self.game, styles)
        RulePicture(view_rule(view, rule), look, styles, help=self.game.help).draw(
            canvas, PICTURE_TOP + 1)
        self.query_one("#generalise", LinesView).set_lines(canvas.strips(), canvas.hits)

    def _row_length(self, row: int) -> int:
        rule = self.game.rule(self.rule_id)
        if row == 0:
            return len(transform_choices())
        return len(all_views(rule)) if rule is not None else 1

    def action_move(self, dx: int, dy: int) -> None:
        col, row = self.cursor
        row = min(max(row + dy, 0), 1)
        col = min(max(col + dx, 0), self._row_length(row) - 1)
        self.cursor = (col, row)
        self.refresh_view()

    def action_choose(self) -> None:
        col, row = self.cursor
        rule = self.game.rule(self.rule_id)
        if row != 0 or rule is None:
            return
        transforms = transform_choices()[col]
        self.edit(f"transforms {transforms} (rule {rule.id})",
                  put_rule(self.game, set_transforms(rule, transforms)))

    @on(LinesView.Clicked)
    def _clicked(self, message: LinesView.Clicked) -> None:
        self.cursor = message.key
        self.action_choose()
        self.refresh_view()
