"""A read-only summary of a project, for kinds whose screens are not there yet."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from studio.screens.formatting import summary_value
from studio.storage import KINDS, Project


class SummaryScreen(Screen[None]):
    """What a project holds: header and the kind's summary, plus its file."""

    DEFAULT_CSS = """
    SummaryScreen VerticalScroll { padding: 1 2; }
    SummaryScreen #heading { text-style: bold; margin-bottom: 1; }
    SummaryScreen DataTable { height: auto; margin-bottom: 1; }
    SummaryScreen #note { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,backspace", "back", "Back")]

    def __init__(self, project: Project) -> None:
        super().__init__()
        self.project = project

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(Text(self.project.name), id="heading")
            table: DataTable[str] = DataTable(show_cursor=False)
            table.add_columns("Field", "Value")
            for key, value in self.project.summary().items():
                table.add_row(key, Text(summary_value(value)))
            yield table
            yield Static(
                f"{KINDS[self.project.kind].title} projects have no editor here yet; "
                "this summary is read-only and the file is not changed.",
                id="note",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.project.name
        self.sub_title = str(self.project.path or "")

    def action_back(self) -> None:
        self.dismiss(None)
