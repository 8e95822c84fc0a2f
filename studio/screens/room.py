"""Screens that need more room than the terminal has say so, rather than work blind.

At 60×20 a few screens cannot lay out usefully (the tree editor's tree pane shrank to a handful
of columns, an open menu showed only its top border yet kept its keys). Such a screen sets
``MIN_SIZE``; while the terminal is smaller, :class:`NeedsRoomScreen` covers it with what it
needs and what there is, takes every key but ``escape`` (which leaves the screen as its own
``escape`` does) and ``ctrl+q``, and goes away by itself once the terminal is large enough.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


def fits(size: tuple[int, int], needed: tuple[int, int] | None) -> bool:
    return needed is None or (size[0] >= needed[0] and size[1] >= needed[1])


class NeedsRoom:
    """Mixin for a :class:`~textual.screen.Screen` with a minimum terminal size."""

    MIN_SIZE: ClassVar[tuple[int, int] | None] = None
    """(columns, rows) below which the screen is covered by :class:`NeedsRoomScreen`."""

    leaving_small = False
    """Set while the screen leaves from under its cover: no new cover meanwhile."""

    def on_resize(self, event: events.Resize) -> None:
        self.leaving_small = False  # its own question, answered "stay", may need one again
        self.call_after_refresh(self.check_room)  # type: ignore[attr-defined]

    def on_screen_resume(self) -> None:
        self.check_room()

    def check_room(self) -> None:
        screen: Screen = self  # type: ignore[assignment]
        if self.leaving_small or not screen.is_current or \
                fits(tuple(screen.app.size), self.MIN_SIZE):
            return
        # A resize and the screen's arrival both ask, before the first cover is in place.
        if any(isinstance(s, NeedsRoomScreen) and s.under is screen
               for s in screen.app.screen_stack):
            return
        screen.app.push_screen(NeedsRoomScreen(screen, self.MIN_SIZE))  # type: ignore[arg-type]


class NeedsRoomScreen(ModalScreen[None]):
    """What a too-small terminal shows over a screen that needs more room."""

    DEFAULT_CSS = """
    NeedsRoomScreen { align: center middle; background: $background; }
    NeedsRoomScreen Static { width: 100%; height: auto; content-align: center middle;
                             text-align: center; padding: 0 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "Back")]

    def __init__(self, under: Screen, needed: tuple[int, int]) -> None:
        super().__init__()
        self.under = under
        self.needed = needed

    def compose(self) -> ComposeResult:
        yield Static(id="message")

    def on_mount(self) -> None:
        self._describe()

    def on_resize(self, event: events.Resize) -> None:
        if fits(tuple(self.app.size), self.needed):
            if self.is_current:
                self.dismiss(None)
        else:
            self._describe()

    def _describe(self) -> None:
        columns, rows = self.needed
        width, height = self.app.size
        name = getattr(self.under, "SCREEN_TITLE", "") or "This screen"
        self.query_one(Static).update(Text(
            f"The {name} screen needs a terminal of at least {columns}×{rows}; this one is "
            f"{width}×{height}.\n\nMake the window larger (it shows again at once), or press "
            "escape to leave it (ctrl+q quits).", justify="center"))

    def action_leave(self) -> None:
        """Close this and run the covered screen's own escape: its back, with its questions."""
        under = self.under
        under.leaving_small = True  # type: ignore[attr-defined]
        self.dismiss(None)
        for binding in under._bindings.key_to_bindings.get("escape", ()):
            if under.check_action(*_split(binding.action)):
                under.call_later(under.run_action, binding.action)
                return


def _split(action: str) -> tuple[str, tuple[object, ...]]:
    from textual.actions import parse

    _, name, arguments = parse(action)
    return name, arguments
