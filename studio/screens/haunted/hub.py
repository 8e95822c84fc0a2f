"""The Haunted Tiles hub (haunted.md §13.1): matches, tournaments, maps, teams, replays, rules."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from studio.screens.formatting import counted, inert
from studio.screens.haunted.base import HAUNTED_ABOUT, HauntedScreen
from studio.screens.haunted.screens import make
from studio.sessions.haunted.replays import list_replays
from studio.widgets.footer import KeysFooter

ENTRIES = (
    ("setup", "m", "New match", "two AIs against each other, watched live"),
    ("tournament", "t", "Tournament", "single elimination or round robin between teams"),
    ("ladder", "l", "Ladder", "always-current standings of the submissions"),
    ("maps", "p", "Maps", "strengths, starts, symmetry and the fairness check"),
    ("teams", "a", "Teams & AIs", "the registry; write, test and edit AIs"),
    ("replays", "r", "Replays", "watch and verify recorded matches"),
    ("watch", "w", "Watch live", "follow the tournament or match being played now"),
    ("rules", "h", "Rules", "how the game is played, in plain words"),
)
"""(screen, key, label, what it is for), in menu order."""


class HubScreen(HauntedScreen):
    """The start of a Haunted Tiles project."""

    HELP_ABOUT: ClassVar[str] = HAUNTED_ABOUT

    SCREEN_TITLE = "hub"
    AUTO_FOCUS = "#menu"
    DEFAULT_CSS = """
    HubScreen #menu { height: auto; margin: 1 1 0 1; border: none; }
    HubScreen #about { margin: 1 2; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"open('{screen}')", label) for screen, key, label, _ in ENTRIES),
        Binding("escape", "leave", "Back"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        (f"open('{screen}')", label, about.capitalize()) for screen, _, label, about in ENTRIES
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield OptionList(*(Option(self._entry(key, label, about), id=screen)
                           for screen, key, label, about in ENTRIES), id="menu")
        yield Static(id="about")
        yield KeysFooter()

    @staticmethod
    def _entry(key: str, label: str, about: str) -> Text:
        text = Text.assemble((f" {key} ", "bold"), (f" {label:<13}", "bold"), ("  " + about, "dim"))
        return text

    def refresh_view(self) -> None:
        model = self.model
        config = model.config()
        maps, teams = model.maps(), model.teams()
        replays = len(list_replays(self.folder))
        broken = model.broken_maps()
        rotation = " → ".join(f"{name} ✗" if name in broken else name for name in config.maps)
        # Every map counted, the ones that cannot be played said so (9 of 10 read as lost).
        unplayable = len(model.map_tables) - len(maps)
        lines = [
            " · ".join([counted(len(model.map_tables), "map")
                        + (f" ({unplayable} not playable)" if unplayable else ""),
                        counted(len(teams), "team"),
                        counted(len(model.tournament_tables), "tournament"),
                        counted(replays, "replay")]),
            f"matches: best of {config.rounds} (at most {config.max_rounds} rounds), "
            f"{config.time_limit:g} s per move",
            f"maps in turn: {rotation}",
        ]
        for problem in model.problems():
            lines.append(f"✗ {problem.with_file(self.document.path)}")
        # Text, not a markup string: map names and field paths hold brackets ("map[0]").
        self.query_one("#about", Static).update(Text(inert("\n".join(lines), log=True)))

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        # A match or a tournament played since adds replays without touching the project:
        # the count would stay stale until the next edit.
        self.refresh_view()

    @on(OptionList.OptionSelected, "#menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_open(str(event.option.id))

    def action_open(self, what: str) -> None:
        self.app.push_screen(make(what, self.document))

    def action_leave(self) -> None:
        self.leave()
