"""Which of the tree editor's panes has the keys: the tree, a property field, or the compiled
tree; ``tab`` goes round them. While a field has the focus the tree's keys wait (a checkbox or
button takes none of them itself, and ``delete`` there deleted the subtree).

A base of :class:`~studio.screens.btree.editor.TreeEditorScreen`, which draws the panes.
"""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import ContentSwitcher

from studio.engines.btree.model.schema import PARENT_TYPES
from studio.screens.btree.properties import PropertiesPane, node_fields

TREE_ACTIONS = frozenset({
    "cursor", "fold_or_parent", "unfold_or_child", "toggle_fold", "toggle_compiled", "add",
    "move", "swap_parent", "copy", "cut", "paste", "delete", "edit_pattern", "find",
    "next_problem", "focus_properties", "play", "debug", "explain_dimmed",
})
"""The tree's keys: not while a property field has the focus (tab and escape lead back)."""


class TreePanes:
    """The pane that has the keys, and moving between the panes."""

    _pane = "tree"
    _offered = (True, True)
    """Whether the node under the cursor takes children (``n``) and has a pattern (``e``)."""

    @property
    def pane(self) -> str:
        """Where the keys go: ``tree``, ``props`` (a field has the focus) or ``compiled``."""
        return self._pane

    @pane.setter
    def pane(self, pane: str) -> None:
        if pane != self._pane:
            self._pane = pane
            self.refresh_bindings()  # the footer offers the keys of the pane

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.pane == "props" and action in TREE_ACTIONS:
            # The keys belong to the field: a button or checkbox takes none of them itself,
            # and delete there deleted the subtree. Up and down walk the fields.
            return action == "cursor" and parameters in ((-1,), (1,))
        return super().check_action(action, parameters)

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        children, pattern = self._offered
        if action == "add" and not children:
            node = self.node or {}
            return (f"{node.get('type')} is a leaf: it takes no children (left, then n, adds "
                    "one beside it)")
        if action == "edit_pattern" and not pattern:
            return "This node has no pattern"
        return super().why_not(action, parameters)

    def offer_keys(self) -> None:
        """Refresh the footer when the node under the cursor changes what ``n`` and ``e`` can
        do (both were offered on a leaf, then said no when pressed)."""
        node = self.node
        offered = (node is None or node.get("type") in PARENT_TYPES,
                   node is not None and any(s.kind == "pattern" for s in node_fields(node)))
        if offered != self._offered:
            self._offered = offered
            self.refresh_bindings()

    def _field_editors(self) -> list[Widget]:
        return list(self.query_one(PropertiesPane).query("Input, Checkbox, Button"))

    def _field_step(self, delta: int) -> None:
        editors = self._field_editors()
        if self.focused in editors:
            editors[min(max(editors.index(self.focused) + delta, 0), len(editors) - 1)].focus()

    def action_switch_pane(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        if self.pane == "props":
            # Through the node's fields, then back to the tree after the last one.
            editors = self._field_editors()
            if self.focused in editors and self.focused is not editors[-1]:
                self._field_step(1)
                return
        if self.pane == "tree":
            if switcher.current == "compiled":
                self.pane = "compiled"
                self._draw_compiled()
            else:
                self.action_focus_properties()
                return
        else:
            self.pane = "tree"
            self.set_focus(None)
            if switcher.current == "compiled":
                self._draw_compiled()
        self._draw_tree()

    def action_toggle_compiled(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "props" if switcher.current == "compiled" else "compiled"
        if switcher.current == "compiled":
            self._draw_compiled()
            # Drawn at the pane's width, known only once it is laid out (a first frame drew at
            # 20 columns until the next key).
            self.call_after_refresh(self._draw_compiled)
        else:
            self.pane = "tree"
        self._draw_tree()

    def action_focus_properties(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "props"
        editors = self._field_editors()
        if editors:
            self.pane = "props"
            editors[0].focus()
            self._draw_tree()

    def on_descendant_blur(self) -> None:
        if self.focused is None and self.pane == "props":
            self.pane = "tree"
            self._draw_tree()
