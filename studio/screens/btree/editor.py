"""The tree editor (btree.md §11.2): the authored tree, its properties, the compiled tree, and
the diagnostics of the last compile.

Every edit (``editor_edits.py``) goes through ``engines/btree/editing/tree_edit.py`` and
``node_fields.py`` and is one undoable edit of the document; the game is recompiled in a worker
thread after each, so a big tree never stops the keys.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher, Header

from studio.engines.btree import BtreeError, Compiled
from studio.engines.btree.editing.authored import authored_path_of, compiled_ids_of
from studio.engines.btree.editing.tree_edit import (
    EditError,
    node_at,
    path_from_spec,
)
from studio.screens.btree.editor_edits import TreeEditing
from studio.screens.btree.editor_panes import TreePanes
from studio.screens.btree.editor_problems import TreeProblems
from studio.screens.btree.properties import PropertiesPane
from studio.screens.btree.tree_lines import (
    compiled_lines,
    draw_compiled,
    draw_tree,
    visible_lines,
)
from studio.storage.btree.project import BtreeModel, compile_model
from studio.widgets.canvas import Canvas
from studio.widgets.footer import KeysFooter
from studio.widgets.lines import LinesView

Path = tuple[int, ...]



class TreeEditorScreen(TreePanes, TreeEditing, TreeProblems):
    """Edit the authored tree; ``tab`` moves between the tree, the right pane and back."""

    HELP_ABOUT: ClassVar[str] = (
        "The whole game is this tree, run from the root; each node answers true or false. "
        "order runs every child (true if any was); all stops at a false child (an 'if'); "
        "none stops at a true one (a 'not'); random-try tries children in random order "
        "until one is true; loop-until-all and loop-times repeat. match looks for a pattern, "
        "rewrite changes the board, player offers its rewrites as moves, win, lose and draw "
        "end the game. x- nodes (mirror, rotate, link…) rewrite the tree when it loads.")

    SCREEN_TITLE = "tree"
    EXPLAINED = ("add('last')", "add('first')", "edit_pattern")
    """Dimmed on a leaf, or a node without a pattern: pressed, they say so."""
    DEFAULT_CSS = """
    TreeEditorScreen #panes { height: 1fr; }
    TreeEditorScreen #tree { width: 1fr; height: 1fr; }
    TreeEditorScreen #right { width: 42; max-width: 55%; height: 1fr; border-left: tall $primary 40%; }
    TreeEditorScreen #compiled { height: 1fr; }
    TreeEditorScreen #diagnostics { height: auto; max-height: 4; padding: 0 1;
                                    border-top: tall $primary 40%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("pageup", "cursor(-10)", "Page up", show=False),
        Binding("pagedown", "cursor(10)", "Page down", show=False),
        Binding("home", "cursor(-1000000000)", "First", show=False),  # clamped: the first row
        Binding("end", "cursor(1000000000)", "Last", show=False),
        Binding("left,h", "fold_or_parent", "Collapse", show=False),
        Binding("right,l", "unfold_or_child", "Expand", show=False),
        Binding("space", "toggle_fold", "Fold", show=False),
        Binding("shift+space", "toggle_fold(True)", "Fold all", show=False),
        Binding("tab", "switch_pane", "Pane"),
        Binding("c", "toggle_compiled", "Compiled", show=False),
        Binding("n", "add('last')", "Add"),
        Binding("N", "add('first')", "Add first child", show=False),
        Binding("o", "add('below')", "Insert below", show=False),
        Binding("O", "add('above')", "Insert above", show=False),
        Binding("alt+up", "move(-1)", "Move up", show=False),
        Binding("alt+down", "move(1)", "Move down", show=False),
        Binding("P", "swap_parent", "Swap with parent", show=False),
        Binding("ctrl+c", "copy", "Copy", show=False),
        Binding("ctrl+x", "cut", "Cut", show=False),
        Binding("ctrl+v", "paste", "Paste", show=False),
        Binding("delete", "delete('subtree')", "Delete", show=False),
        Binding("shift+delete,R", "delete('reparent')", "Delete, keep children", show=False),
        Binding("K", "delete('children')", "Delete children", show=False),
        Binding("e", "edit_pattern", "Pattern"),
        Binding("slash", "find", "Find", key_display="/"),
        Binding("f8,ctrl+n", "next_problem", "Next problem", show=False),
        Binding("enter", "focus_properties", "Properties", show=False),
        Binding("g", "play", "Play"),
        Binding("comma", "settings", "Settings", key_display=","),
        Binding("b", "debug", "Debug"),
        Binding("x", "export", "Export", show=False),
        Binding("escape", "leave", "Back"),
    ]
    FOOTER_KEEP: ClassVar[tuple[str, ...]] = ("settings",)
    """The settings are reached by no other key: kept in the footer at 80 columns, where the
    keys before them filled it (the short "Add" leaves room for both)."""
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("add('last')", "Add child node", "Add a node as the last child of the selection"),
        ("add('first')", "Add first child", "Add a node as the first child"),
        ("add('below')", "Insert node below", "A new node that adopts the selection's children"),
        ("add('above')", "Insert node above", "A new parent for the selection"),
        ("delete('subtree')", "Delete subtree", "Delete the selected node and its children"),
        ("delete('reparent')", "Delete, keep children", "Delete the node; its children move up"),
        ("delete('children')", "Delete children", "Delete the children of the selection"),
        ("swap_parent", "Swap with parent", "Exchange the node with its parent"),
        ("copy", "Copy subtree", "Copy the selected subtree"),
        ("cut", "Cut subtree", "Copy the selected subtree and delete it"),
        ("paste", "Paste as last child", "Paste the copied subtree under the selection"),
        ("find", "Find node", "Jump to a node by nid, comment or desc"),
        ("toggle_compiled", "Show compiled tree", "The tree the engine runs, beside this one"),
        ("play", "Play", "Play the game"),
        ("debug", "Debugger", "Step through the game node by node"),
        ("export", "Export as trrbt file", "Write the game as trrbt YAML or JSON (x)"),
        ("settings", "Game settings", "Seed, seats, missing links, display glyphs (,)"),
    ]

    def __init__(self, document) -> None:
        super().__init__(document)
        self.cursor: Path = ()
        self.collapsed: set[Path] = set()
        self.compiled: Compiled | BtreeError | None = None
        self.compiled_cursor = 0
        self.clipboard: dict | None = None
        self._problem = -1
        """The diagnostic f8 went to last."""
        self._problem_rows: list[int] = []
        """The pane's line where each diagnostic with a node begins."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="panes"):
            yield LinesView(id="tree", focusable=False)
            with ContentSwitcher(id="right", initial="props"):
                yield PropertiesPane(id="props")
                yield LinesView(id="compiled", focusable=False)
        yield LinesView(id="diagnostics", focusable=False)
        yield KeysFooter()

    # ---------------------------------------------------------------------------- drawing

    def refresh_view(self) -> None:
        self._fix_cursor()
        self._draw_tree()
        self.query_one(PropertiesPane).show(self.node, self.cursor)
        self.offer_keys()
        self._compile()

    def on_resize(self) -> None:
        # The panes draw to their width: draw again when the terminal changes size.
        self.call_after_refresh(self._draw_tree)
        self.call_after_refresh(self._draw_diagnostics)

    def _fix_cursor(self) -> None:
        if self.tree is None:
            self.cursor = ()
            return
        path = self.cursor
        while path and self._missing(path):
            path = path[:-1] if path[-1] == 0 else (*path[:-1], path[-1] - 1)
        self.cursor = path

    def _missing(self, path: Path) -> bool:
        try:
            node_at(self.tree, path)
            return False
        except (EditError, IndexError, KeyError, TypeError):
            return True

    def _lines(self):
        return visible_lines(self.tree, self.collapsed)

    def _draw_tree(self) -> None:
        view = self.query_one("#tree", LinesView)
        if not view.size.width:
            return  # not laid out yet: on_resize draws it once it has a width
        width = view.text_width
        marked: list[Path] = []
        compiled = self.compiled
        if self.pane == "compiled" and isinstance(compiled, Compiled):
            origin = authored_path_of(compiled, self.compiled_cursor)
            marked = [] if origin is None else [origin]
        lines = self._lines()
        broken = self._broken()
        picture = draw_tree(lines, width, self.styles_ui, self.cursor, marked, broken,
                            focused=self.pane == "tree")
        view.set_lines(picture.strips, picture.hits)
        index = next((i for i, line in enumerate(lines) if line.path == self.cursor), 0)
        view.show_line(index)

    def _broken(self) -> list[Path]:
        """The authored node the last compile error names, if it is in this file."""
        compiled = self.compiled
        if isinstance(compiled, BtreeError) and compiled.node_path and not compiled.file:
            try:
                return [path_from_spec(compiled.node_path)]
            except (EditError, ValueError):
                return []
        return []

    def _draw_compiled(self) -> None:
        compiled = self.compiled
        view = self.query_one("#compiled", LinesView)
        if not isinstance(compiled, Compiled):
            canvas = Canvas(40, 1)
            canvas.put(0, 0, "(does not compile: see below)", self.styles_ui.muted)
            view.set_lines(canvas.strips())
            return
        parents = [None] * len(compiled.nodes)
        for index, node in enumerate(compiled.nodes):
            for child in node.get("children") or ():
                parents[compiled.index_of(child)] = index
        marked = compiled_ids_of(compiled, self.cursor) if self.pane != "compiled" else []
        canvas = draw_compiled(compiled.nodes, compiled_lines(compiled.nodes, parents),
                               max(view.text_width, 20), self.styles_ui, self.compiled_cursor,
                               marked, focused=self.pane == "compiled")
        view.set_lines(canvas.strips, canvas.hits)
        view.show_line(self.compiled_cursor)

    @work(thread=True, exclusive=True, group="compile")
    def _compile(self) -> None:
        model = self.model
        result = compile_model(model)
        self.app.call_from_thread(self._compiled, model, result)

    def _compiled(self, model: BtreeModel, result: Compiled | BtreeError) -> None:
        if model is not self.model:
            return  # an edit came in meanwhile; its own compile will report
        if not self.is_attached or not self.query("#diagnostics"):
            return  # the screen was taken down (left, or the studio closing) while it compiled
        broken_before = self._broken()
        self.compiled = result
        self._draw_diagnostics()
        if self._broken() != broken_before:
            self._draw_tree()
        if self.pane == "compiled" or self.query_one(ContentSwitcher).current == "compiled":
            self._draw_compiled()

    # --------------------------------------------------------------------------- movement

    def action_cursor(self, delta: int) -> None:
        if self.pane == "props":
            self._field_step(delta)
            return
        if self.pane == "compiled":
            compiled = self.compiled
            if isinstance(compiled, Compiled):
                self.compiled_cursor = min(max(self.compiled_cursor + delta, 0),
                                           len(compiled.nodes) - 1)
                self._draw_compiled()
                self._draw_tree()
            return
        lines = self._lines()
        paths = [line.path for line in lines]
        if not paths:
            return
        index = paths.index(self.cursor) if self.cursor in paths else 0
        self.select(paths[min(max(index + delta, 0), len(paths) - 1)])

    def select(self, path: Path) -> None:
        """Select an authored node, unfolding its ancestors so it is visible."""
        for depth in range(len(path)):
            self.collapsed.discard(path[:depth])
        self.cursor = path
        self._draw_tree()
        self.query_one(PropertiesPane).show(self.node, self.cursor)
        self.offer_keys()
        if self.query_one(ContentSwitcher).current == "compiled":
            self._draw_compiled()

    def action_fold_or_parent(self) -> None:
        node = self.node
        if node and node.get("children") and self.cursor not in self.collapsed:
            self.collapsed.add(self.cursor)
            self._draw_tree()
        elif self.cursor:
            self.select(self.cursor[:-1])

    def action_unfold_or_child(self) -> None:
        node = self.node
        if node and node.get("children"):
            if self.cursor in self.collapsed:
                self.collapsed.discard(self.cursor)
                self._draw_tree()
            else:
                self.select((*self.cursor, 0))

    def action_toggle_fold(self, recursive: bool = False) -> None:
        node = self.node
        if not node or not node.get("children"):
            return
        fold = self.cursor not in self.collapsed
        targets = [self.cursor]
        if recursive:
            targets = [line.path for line in visible_lines(node, set())]
            targets = [(*self.cursor, *path) for path in targets]
        for path in targets:
            if fold:
                self.collapsed.add(path)
            else:
                self.collapsed.discard(path)
        self._draw_tree()

    @on(LinesView.Clicked, "#tree")
    def _tree_clicked(self, message: LinesView.Clicked) -> None:
        self.pane = "tree"
        self.set_focus(None)
        self.select(message.key)

    @on(LinesView.Clicked, "#compiled")
    def _compiled_clicked(self, message: LinesView.Clicked) -> None:
        self.pane = "compiled"
        self.compiled_cursor = message.key
        self._draw_compiled()
        self._draw_tree()

    @on(LinesView.Clicked, "#diagnostics")
    def _diagnostic_clicked(self, message: LinesView.Clicked) -> None:
        self.jump_to(message.key[1])

    def jump_to(self, spec_path: str) -> None:
        """Select the node a diagnostic names (``tree/children[1]/…``)."""
        try:
            self.select(path_from_spec(spec_path))
        except (EditError, ValueError):
            self.notify(f"{spec_path} is not in this file (an included file?)", timeout=3)

    def action_play(self) -> None:
        from studio.screens.btree import screens

        screens.start_play(self)

    def action_debug(self) -> None:
        from studio.screens.btree import screens

        screens.start_play(self, debug=True)

    def action_settings(self) -> None:
        """The project's settings (``,`` in the tree editor)."""
        from studio.screens.btree.settings import BtreeSettingsScreen

        self.app.push_screen(BtreeSettingsScreen(self.document))

    def action_export(self) -> None:
        from studio.screens.btree.export_dialog import ask_export

        ask_export(self)

    def action_leave(self) -> None:
        if self.pane != "tree":
            self.pane = "tree"
            self.set_focus(None)
            self._draw_tree()
            return
        self.leave()

