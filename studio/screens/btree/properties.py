"""The properties pane of the tree editor: one editor per field of the selected node (§11.2).

Text, numbers, pids and word lists are one-line inputs applied on ``enter`` (or when the field
loses focus; a refused value stays, marked, with the reason under it, until mended or left);
flags are checkboxes; the button cycles through its choices (``enter``, ``space``, ``left`` /
``right``); patterns show their text and open the pattern editor (``e``). Every applied change
is one undoable edit, made by the screen through ``node_fields.set_field``.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from studio.engines.btree.editing.node_fields import TYPE_ORDER, FieldSpec, field_text, fields_of
from studio.engines.btree.editing.pattern_edit import pattern_to_text
from studio.engines.btree.model.text import BUTTON_GLYPHS
from studio.engines.btree.editing.tree_view import EditError
from studio.screens.btree.fields import CycleButton, FieldInput
from studio.widgets.toggles import Checkbox


def node_fields(node: dict | None) -> tuple[FieldSpec, ...]:
    """The editable fields of ``node``; none for no node or a type the editor does not know."""
    if node is None:
        return ()
    try:
        return fields_of(str(node.get("type")))
    except EditError:
        return ()


def shown_value(node: dict, spec: FieldSpec) -> str:
    """A field's value as its editor shows it (``""`` when the node has none)."""
    return field_text(node, spec.name) if spec.name in node else ""


def shared_fields() -> tuple[FieldSpec, ...]:
    """The leading fields every node type has (comment, nid)."""
    lists = [fields_of(t) for t in TYPE_ORDER]
    n = 0
    while all(len(f) > n and f[n] == lists[0][n] for f in lists):
        n += 1
    return lists[0][:n]


class FieldsScroll(VerticalScroll):
    """The fields below the shared ones, scrolled when a long pattern overflows the pane."""

    # Focused, a scroll container takes up/down to scroll itself, and the tree cursor behind it
    # stops moving as soon as a long pattern overflows the pane. Its fields take focus instead.
    can_focus = False


class PropertiesPane(Vertical):
    """Editors for the fields of one node; posts :class:`Changed` when one is applied.

    The type line and the fields every type shares stay put from node to node; the rest are
    rebuilt in their own scrolled box when the type changes. Over SSH a move to a node of
    another type then redraws that box and the type line, not the whole pane.
    """

    DEFAULT_CSS = """
    PropertiesPane { padding: 0 1; }
    PropertiesPane #head { height: auto; }
    PropertiesPane #rest { height: 1fr; }
    PropertiesPane .row { height: auto; }
    PropertiesPane Label { width: 9; color: $text-muted; }
    PropertiesPane .pattern-label { width: 1fr; color: $text-muted; margin-top: 1; }
    PropertiesPane Input { width: 1fr; }
    PropertiesPane Checkbox { width: 5; }  /* auto gives 3 and cuts the toggle to "▐X…" */
    PropertiesPane Checkbox.-labelled { width: 1fr; }
    PropertiesPane Input.-refused { background: $error 30%; text-style: bold; }
    PropertiesPane .refused-note { color: $error; padding-left: 9; }
    PropertiesPane .pattern { color: $text; }
    PropertiesPane .hint { color: $text-muted; }
    PropertiesPane #node-type { text-style: bold; margin-bottom: 1; }
    PropertiesPane #node-type.hint { text-style: none; margin-bottom: 0; }
    """

    class Changed(Message):
        """A field editor was applied: set ``name`` to ``value`` (text, or a bool)."""

        def __init__(self, name: str, value: Any) -> None:
            super().__init__()
            self.name = name
            self.value = value

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.node: dict | None = None
        self.where: object = None
        """Which node is shown (the editor's path to it): an edit makes a new node object at
        the same place, and the field being typed in keeps its typing then."""
        self.values_for: object = None
        """Where the node whose values the editors hold is: until they are filled for a newly
        shown node, a field holds the previous node's value, never to be applied to this one."""
        self.signature: tuple = ()
        self.shared = shared_fields()
        self.head_shown = False

    def compose(self) -> ComposeResult:
        yield Vertical(Static("", id="node-type"), id="head")
        yield FieldsScroll(id="rest")

    def show(self, node: dict | None, where: object = None) -> None:
        """Show the fields of ``node`` at ``where`` (rebuilt only when its type or field set
        changed)."""
        signature = () if node is None else (node.get("type"), tuple(
            spec.name for spec in node_fields(node)))
        self.node = node
        self.where = where
        if signature != self.signature:
            self.signature = signature
            self.call_later(self._rebuild)
        else:
            self.update_values()

    async def _rebuild(self) -> None:
        node = self.node
        specs = node_fields(node)
        head = specs[:len(self.shared)] == self.shared
        title = self.query_one("#node-type", Static)
        # Removing is asynchronous: the old editors (same ids) must be gone before mounting. In a
        # batch, the terminal gets one frame of the new editors, not the empty pane between.
        with self.app.batch_update():
            if node is None:
                title.update("No node: n adds the root.")
            else:
                title.update(Text(str(node.get("type")), style="bold"))
            title.set_class(node is None, "hint")
            if head != self.head_shown:
                box = self.query_one("#head", Vertical)
                if head:
                    await box.mount_all([self._editor_row(spec) for spec in self.shared])
                else:
                    await box.remove_children(list(box.children)[1:])
                self.head_shown = head
            rest = self.query_one("#rest", FieldsScroll)
            await rest.remove_children()
            await rest.mount_all(list(self._editors(specs[len(self.shared):] if head else specs)))
            self.update_values()

    def _editors(self, specs: tuple[FieldSpec, ...]) -> ComposeResult:
        hint = "e edits"
        for spec in specs:
            if spec.kind == "pattern":
                yield Label(f"{spec.name} ({hint})", classes="pattern-label")
                hint = "e, then f9 or ctrl+o"  # the pattern editor opens on the first; f9 goes on
                yield Static(self._pattern_text(spec.name), classes="pattern",
                             id=f"field-{spec.name}", markup=False)
                continue
            yield self._editor_row(spec)

    def _editor_row(self, spec: FieldSpec) -> Horizontal:
        node = self.node or {}
        label = Label(spec.name)
        if spec.kind == "bool":
            # The file's name on the left (what the file and trrbt call it), what it means on
            # the toggle: "remorig" alone read as a word of no language.
            meaning = spec.label if spec.label != spec.name else ""
            editor: Any = Checkbox(meaning, value=bool(node.get(spec.name, spec.default)),
                                   id=f"field-{spec.name}", compact=True,
                                   classes="-labelled" if meaning else "")
        elif spec.kind == "choice":
            editor = CycleButton(self._choice_label(spec), id=f"field-{spec.name}", compact=True)
        else:
            placeholder = spec.kind if spec.default is None else f"{spec.default}"
            editor = FieldInput(shown_value(node, spec), id=f"field-{spec.name}", compact=True,
                                placeholder=placeholder)
        return Horizontal(label, editor, classes="row")

    def _choice_label(self, spec: FieldSpec) -> str:
        value = (self.node or {}).get(spec.name, "")
        glyph = BUTTON_GLYPHS.get(str(value), "")
        return f"{glyph} {value}".strip() or "∅ none"

    def _pattern_text(self, name: str) -> str:
        value = (self.node or {}).get(name)
        if not isinstance(value, dict):
            return "(none)"
        try:
            return pattern_to_text(value)
        except Exception:  # a malformed pattern from a file: show it raw rather than fail
            return repr(value)

    def update_values(self) -> None:
        """Show the node's values in its editors (a field being typed in keeps the typing,
        unless it was typed for another node: a key can focus a field before it is refilled)."""
        node = self.node or {}
        fresh = self.where != self.values_for
        self.values_for = self.where
        for spec in node_fields(self.node):
            widgets = self.query(f"#field-{spec.name}")
            if not widgets:
                continue
            widget = widgets.first()
            if isinstance(widget, Input):
                if fresh or not widget.has_focus:
                    widget.value = shown_value(node, spec)
                    self._unmark(widget)
            elif isinstance(widget, Checkbox):
                widget.value = bool(node.get(spec.name, spec.default))
            elif isinstance(widget, Button):
                widget.label = self._choice_label(spec)
            elif isinstance(widget, Static):
                text = self._pattern_text(spec.name)
                if widget.content != text:  # an update lays the pane out again: a frame more
                    widget.update(text)

    # ------------------------------------------------------------------------------ events

    def _spec(self, widget_id: str | None) -> FieldSpec | None:
        """The field an editor edits on the shown node; None while the editors still hold
        another node's values (see :attr:`values_for`)."""
        if self.values_for != self.where:
            return None
        name = (widget_id or "").removeprefix("field-")
        return next((s for s in node_fields(self.node) if s.name == name), None)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        spec = self._spec(event.input.id)
        if spec is not None:
            self.post_message(self.Changed(spec.name, event.value))

    @on(Input.Blurred)
    def _blurred(self, event: Input.Blurred) -> None:
        spec = self._spec(event.input.id)
        if spec is not None and event.value != shown_value(self.node or {}, spec):
            self.post_message(self.Changed(spec.name, event.value))

    @on(Checkbox.Changed)
    def _checked(self, event: Checkbox.Changed) -> None:
        event.stop()
        spec = self._spec(event.checkbox.id)
        if spec is not None and event.value != bool((self.node or {}).get(spec.name,
                                                                          spec.default)):
            self.post_message(self.Changed(spec.name, event.value))

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self._cycle(event.button, 1)

    @on(CycleButton.Cycled)
    def _cycled(self, event: CycleButton.Cycled) -> None:
        event.stop()
        self._cycle(event.button, event.step)

    def _cycle(self, button: Button, step: int) -> None:
        spec = self._spec(button.id)
        if spec is None or not spec.choices:
            return
        current = str((self.node or {}).get(spec.name, ""))
        choices = list(spec.choices)
        index = choices.index(current) if current in choices else (-1 if step > 0 else 0)
        self.post_message(self.Changed(spec.name, choices[(index + step) % len(choices)]))

    def refuse(self, name: str, reason: str) -> bool:
        """Say that the value typed in field ``name`` was refused, and why, under the field.

        A field still being typed in keeps the typing, marked, so a long value wrong in one
        character is mended rather than typed again (it used to sit there unmarked, as if
        applied); a field already left shows the stored value again. Returns whether the mark
        is shown (if not, the caller says the reason another way)."""
        widgets = self.query(f"#field-{name}")
        widget = widgets.first() if widgets else None
        if not isinstance(widget, Input) or not widget.has_focus:
            self.update_values()
            return False
        self._unmark(None)
        widget.add_class("-refused")
        note = Static(f"✗ refused: {reason}. Mend it and press enter; escape keeps the "
                      "stored value.", classes="refused-note", markup=False)
        row = widget.parent
        if row is not None and row.parent is not None:
            row.parent.mount(note, after=row)
        return True

    def _unmark(self, widget: Input | None) -> None:
        """Take the refused mark off ``widget`` (None: off whichever field has it)."""
        marked = [w for w in self.query(".-refused") if widget is None or w is widget]
        for field in marked:
            field.remove_class("-refused")
        if marked or widget is None:
            self.query(".refused-note").remove()

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        if event.input.has_class("-refused"):
            self._unmark(event.input)

    def pending(self) -> tuple[str, str] | None:
        """The field being typed in and its text, if that differs from the node's value (what
        leaving the field would apply)."""
        focused = self.screen.focused
        if not isinstance(focused, Input) or focused not in self.query(Input):
            return None
        spec = self._spec(focused.id)
        if spec is None or focused.value == shown_value(self.node or {}, spec):
            return None
        return spec.name, focused.value

    def pattern_fields(self) -> list[str]:
        """The node's pattern fields, in order (what ``e`` offers)."""
        return [s.name for s in node_fields(self.node) if s.kind == "pattern"]
