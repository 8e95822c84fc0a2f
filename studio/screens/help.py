"""The help screen, generated from the key bindings active where it was opened."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.keys import key_to_character
from textual.widgets import DataTable, Label, Static

from studio.screens.formatting import inert
from studio.widgets.footer import HELP_ACTION, takes_text
from studio.widgets.row_table import RowTable


def binding_rows(screen: Screen) -> list[tuple[str, str]]:
    """(keys, description) of the screen's and the app's bindings that apply here.

    Widget bindings (cursor movement and the like) are left out: they are the same everywhere;
    a widget key of a listed key's name joins its row (the board's arrows beside w a s d).
    A key that exists but cannot act at this moment (redo with nothing to redo) is listed, marked
    "(not now)", as the footer shows it dimmed; keys hidden here (check_action False) are not.
    Where the characters typed are text or tiles (a field, the pattern editor), the app's letter
    keys are typed, not run: they are left out, and help is ``f1``, as the footer says.
    """
    typing = takes_text(screen.focused) or takes_text(screen)
    rows: dict[str, list[str]] = {}
    widget_keys: list[tuple[str, Binding]] = []
    for key, active in screen.active_bindings.items():
        binding = active.binding
        description = binding.description
        if not isinstance(active.node, (Screen, App)) or not description:
            if description:
                widget_keys.append((description, binding))
            continue
        if typing and isinstance(active.node, App) and _typed(key):
            continue
        if not active.enabled:
            description += " (not now)"
        rows.setdefault(description, [])
        display = "f1" if typing and binding.action == HELP_ACTION else \
            screen.app.get_key_display(binding)
        if display not in rows[description]:
            rows[description].append(display)
    # A widget's key that does what a listed key does (the board's arrows beside the map
    # editor's w a s d) joins that row: it shadows the screen's binding of the same key.
    for description, binding in widget_keys:
        if description in rows:
            display = screen.app.get_key_display(binding)
            if display not in rows[description]:
                rows[description].append(display)
    return [(" ".join(keys), description) for description, keys in rows.items()]


def _typed(key: str) -> bool:
    character = key_to_character(key)
    return character is not None and len(character) == 1 and character.isprintable()


def about(screen: Screen) -> str:
    """What ``screen`` is for and the ideas it works with, in a few lines (its ``HELP_ABOUT``):
    help starts with these, since a list of keys does not say what they are for."""
    return getattr(screen, "HELP_ABOUT", "")


class HelpScreen(ModalScreen[None]):
    """What the screen below is for, its keys, and the palette."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 60; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary 80%; background: $surface; padding: 1 2;
    }
    HelpScreen .title { text-style: bold; margin-bottom: 1; }
    HelpScreen .about { height: auto; max-height: 9; overflow-y: auto; margin-bottom: 1; }
    HelpScreen DataTable { height: auto; max-height: 20; }
    HelpScreen .note { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f1,question_mark", "close", "Close")]

    def __init__(self, title: str, rows: list[tuple[str, str]], about: str = "") -> None:
        super().__init__()
        self._title = title
        self._rows = rows
        self._about = about

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(inert(f"{'Help' if self._about else 'Keys'} — {self._title}"),
                        classes="title", markup=False)
            if self._about:
                yield Static(self._about, classes="about", markup=False)
            # RowTable: home and end reach the first and last keys (DataTable's own end
            # scrolled sideways, and a long list at 80x24 ended at its edge).
            table: DataTable[Text] = RowTable(show_cursor=False, zebra_stripes=True)
            table.add_columns("Key", "Action")
            for keys, description in self._rows:
                table.add_row(Text(keys, style="bold"), Text(description))
            yield table
            yield Static(
                "Every action is also in the command palette (ctrl+p). Mouse optional.",
                classes="note",
            )

    def action_close(self) -> None:
        self.dismiss(None)
