"""The tree editor's edits (btree.md §11.2): the operations of ``tree_edit.py`` and
``node_fields.py`` (``engines/btree/editing/``) on the selection, each one undoable edit of the document.

A base of :class:`~studio.screens.btree.editor.TreeEditorScreen`, which draws the panes and moves
the selection; this part only changes the tree and leaves drawing to ``refresh_view``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from textual import on, work

from studio.engines.btree.editing.node_fields import set_field
from studio.engines.btree.editing.tree_edit import (
    EditError,
    add_child,
    copy_subtree,
    delete_and_reparent,
    delete_children,
    delete_subtree,
    find,
    insert_above,
    insert_below,
    insertable_types,
    move,
    new_node,
    node_at,
    paste,
    swap_with_parent,
)
from studio.screens.btree.base import BtreeScreen
from studio.screens.btree.dialogs import TypeDialog
from studio.screens.btree.properties import PropertiesPane
from studio.screens.dialogs import NameDialog
from studio.storage.btree.project import BtreeModel

Path = tuple[int, ...]


class TreeEditing(BtreeScreen):
    """The selection (``cursor``), the clipboard and every edit of the authored tree."""

    cursor: Path = ()
    clipboard: dict | None = None

    # ------------------------------------------------------------------------------ model

    @property
    def model(self) -> BtreeModel:
        return self.document.model

    @property
    def tree(self) -> dict | None:
        return self.model.tree

    @property
    def node(self) -> dict | None:
        try:
            return None if self.tree is None else node_at(self.tree, self.cursor)
        except (EditError, IndexError, KeyError, TypeError):
            return None

    def change_tree(self, label: str, tree: dict, select: Path | None = None) -> None:
        """Record an edit of the tree; the selection moves to ``select`` when given."""
        if select is not None:
            self.cursor = select
        self.edit(label, replace(self.model, tree=tree))

    def attempt(self, label: str, operation: Callable[[], tuple[dict, Path]]) -> None:
        """Run a tree operation; a refusal is said in a notification, nothing changes."""
        if self.tree is None:
            self.notify("The tree is empty: n adds the root node.", timeout=3)
            return
        try:
            tree, path = operation()
        except EditError as error:
            self.notify(str(error), severity="warning", timeout=4)
            return
        self.change_tree(label, tree, path)

    # ---------------------------------------------------------------------------- editing

    @on(PropertiesPane.Changed)
    def _field_changed(self, message: PropertiesPane.Changed) -> None:
        self._set_field(message.name, message.value)

    def _set_field(self, name: str, value: Any) -> bool:
        if self.tree is None:
            return True
        try:
            tree = set_field(self.tree, self.cursor, name, value)
        except EditError as error:
            # Said under a field still being typed in (a toast covered the pane at 80×24);
            # a field left with a refused value shows the stored one again, and a toast says so.
            if not self.query_one(PropertiesPane).refuse(name, str(error)):
                self.notify(f"{error} (not applied; the stored value is kept)",
                            severity="error", timeout=5)
            return False
        self.change_tree(f"{name} of {self.node.get('type')}", tree)
        return True

    def apply_pending(self) -> bool:
        """Apply what is typed in the focused field, as leaving it would: ctrl+s saved, and
        ctrl+q quit, without it. False (said) when the value is refused."""
        pending = self.query_one(PropertiesPane).pending()
        return pending is None or self._set_field(*pending)

    def action_save(self):
        return super().action_save() if self.apply_pending() else None

    def action_save_as(self):
        return super().action_save_as() if self.apply_pending() else None

    async def confirm_close(self) -> bool:
        """Before quitting: the typing is applied, so the unsaved-changes question knows it."""
        return self.apply_pending()

    @work(exclusive=True, group="dialog")
    async def action_add(self, where: str) -> None:
        if self.tree is None:
            kind = await self.app.push_screen_wait(TypeDialog("Root node", None))
            if kind:
                self.change_tree(f"add root {kind}", new_node(kind), ())
            return
        try:
            allowed = insertable_types(self.tree, self.cursor, where)
        except EditError as error:
            self.notify(str(error), severity="warning", timeout=4)
            return
        if not allowed:  # an empty list to choose from said nothing
            here = node_at(self.tree, self.cursor).get("type")
            self.notify(f"{here} is a leaf: it takes no children" if where != "above"
                        else "no node type fits there", severity="warning", timeout=4)
            return
        kind = await self.app.push_screen_wait(TypeDialog(f"Add ({where})", allowed))
        if not kind:
            return
        node = new_node(kind)
        operations = {
            "last": lambda: add_child(self.tree, self.cursor, node, first=False),
            "first": lambda: add_child(self.tree, self.cursor, node, first=True),
            "below": lambda: insert_below(self.tree, self.cursor, node),
            "above": lambda: insert_above(self.tree, self.cursor, node),
        }
        self.attempt(f"add {kind}", operations[where])

    def action_move(self, delta: int) -> None:
        self.attempt("move " + ("earlier" if delta < 0 else "later"),
                     lambda: move(self.tree, self.cursor, delta))

    def action_swap_parent(self) -> None:
        self.attempt("swap with parent", lambda: swap_with_parent(self.tree, self.cursor))

    def action_copy(self) -> None:
        if self.node is not None:
            self.clipboard = copy_subtree(self.tree, self.cursor)
            self.notify(f"Copied {self.node.get('type')} (ctrl+v pastes)", timeout=2)

    def action_cut(self) -> None:
        if self.node is not None:
            self.clipboard = copy_subtree(self.tree, self.cursor)
            self.action_delete("subtree")

    def action_paste(self) -> None:
        if self.clipboard is None:
            self.notify("Nothing copied yet (ctrl+c copies a subtree)", timeout=2)
            return
        clip = self.clipboard
        self.attempt("paste", lambda: paste(self.tree, self.cursor, clip, "last"))

    def action_delete(self, what: str) -> None:
        if self.cursor == () and what in ("subtree", "reparent") and self.tree is not None:
            if what == "subtree":
                self.change_tree("delete the whole tree", None, ())  # type: ignore[arg-type]
                return
        operations = {
            "subtree": lambda: delete_subtree(self.tree, self.cursor),
            "reparent": lambda: delete_and_reparent(self.tree, self.cursor),
            "children": lambda: delete_children(self.tree, self.cursor),
        }
        self.attempt(f"delete {what}", operations[what])

    @work(exclusive=True, group="dialog")
    async def action_find(self) -> None:
        text = await self.app.push_screen_wait(NameDialog("Find a node by nid, comment or desc", "",
                                                          "Find"))
        if not text or self.tree is None:
            return
        hits = find(self.tree, text)
        if not hits:
            self.notify(f"No node with {text!r} in its nid, comment or desc", timeout=3)
            return
        after = [path for path in hits if path > self.cursor]
        self.select((after or hits)[0])

    def action_edit_pattern(self) -> None:
        names = self.query_one(PropertiesPane).pattern_fields()
        if not names:
            self.notify("This node has no pattern", timeout=2)
            return
        self.open_pattern(names[0])

    def open_pattern(self, name: str) -> None:
        from studio.screens.btree.pattern_editor import PatternEditorScreen

        self.app.push_screen(PatternEditorScreen(self.document, self.cursor, name))
