"""KeysFooter: the footer every screen shows, with whole keys only and ``? Help`` always in it
(``f1 Help`` while a text field has the focus, where ``?`` is typed).

Textual's footer lays its keys out in one line and cuts the line at the terminal's edge. At 80
columns most screens have more keys than fit, so the line ended mid-word ("Settin") and the key
that lists all the others, ``?``, was the first to go: it comes last, with the app's keys. This
footer shows the screen's keys in their order while they fit whole, then ``? Help``; the keys
left out are in the help screen, which is what ``?`` is for.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

HELP_ACTION = "help"
"""The action of the key that lists every key (the app's ``?``, also ``f1``)."""


TEXT_AREA_MODULE = "textual.widgets._text_area"
"""Where Textual's TextArea is defined (a test checks it). The home screen has none, and
importing it (its document model, themes, tree-sitter) cost the first frame about 20 ms."""


def is_text_field(widget: object) -> bool:
    """Whether ``widget`` is one of Textual's text fields, an Input or a TextArea.

    No widget can be a TextArea before TextArea's module is loaded, so it is not imported here.
    """
    if isinstance(widget, Input):
        return True
    text_area = sys.modules.get(TEXT_AREA_MODULE)
    return text_area is not None and isinstance(widget, text_area.TextArea)


def takes_text(widget: object) -> bool:
    """Whether ``widget`` types the characters pressed in it (so ``?`` is a character there,
    and help is ``f1``): text fields, and widgets that say so with ``takes_text = True``."""
    return is_text_field(widget) or getattr(widget, "takes_text", False) is True


def key_width(key_display: str, description: str) -> int:
    """Columns a footer key takes: the key padded by one each side, then its description and a
    space (Textual's FooterKey styles, not compact)."""
    return cell_len(key_display) + 2 + (cell_len(description) + 1 if description else 0)


def fitting(keys: Iterable[tuple[str, int]], budget: int,
            keep: Iterable[str] = ()) -> list[str]:
    """Which keys to show, in order, given (action, width) pairs and the columns there are.

    Keys are taken in order while they fit; the help key is kept whatever comes before it, its
    room set aside first, and so are the ``keep`` keys while there is room for them (a screen's
    way in to something no other key leads to, as the btree settings). With too little room
    even for help, nothing but the help key shows.
    """
    keys = list(keys)
    help_width = next((width for action, width in keys if action == HELP_ACTION), 0)
    left = budget - help_width
    kept: set[str] = set()
    for action, width in keys:
        if action in keep and action != HELP_ACTION and width <= left:
            kept.add(action)
            left -= width
    shown: list[str] = []
    for action, width in keys:
        if action == HELP_ACTION:
            continue
        if action in kept:
            shown.append(action)
            continue
        if width > left:
            kept = {action for action in kept if action not in shown}
            shown.extend(a for a, _w in keys if a in kept)
            break
        shown.append(action)
        left -= width
    if help_width:
        shown.append(HELP_ACTION)
    return shown


class WideKey(FooterKey):
    """A footer key drawn wide from the start.

    Textual's key starts compact and is bound to the footer's ``compact``; mounting one therefore
    restyled it twice (class added, then removed), about an eighth of the time a screen spends on
    a key press. This footer is never compact, so its keys need not follow it.
    """

    compact = reactive(False)


class KeysFooter(Footer):
    """A footer that never cuts a key in half and always offers ``? Help``."""

    def __init__(self) -> None:
        super().__init__()
        self._shown: tuple[str, ...] | None = None
        self._recompose_due = False

    def _key_bindings(self) -> list[tuple[Binding, bool, str]]:
        """The screen's shown bindings, the first of each action (as the footer shows them)."""
        seen: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen[binding.action] = (binding, enabled, tooltip)
        return list(seen.values())

    def _display(self, binding: Binding) -> str:
        if binding.action == HELP_ACTION and (takes_text(self.screen.focused)
                                              or takes_text(self.screen)):
            return "f1"  # "?" would be typed into the field
        return self.app.get_key_display(binding)

    def _palette_width(self) -> int:
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return 0
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if found is None:
            return 0
        binding = found[1]
        # drawn compact ("^p palette"), with a space on its right and a bar on its left
        return cell_len(self.app.get_key_display(binding)) + 1 + cell_len(binding.description) + 2

    def _choose(self) -> tuple[str, ...]:
        width = self.size.width or self.app.size.width
        keys = [(binding.action, key_width(self._display(binding), binding.description))
                for binding, _enabled, _tooltip in self._key_bindings()]
        keep = getattr(self.screen, "FOOTER_KEEP", ())
        return tuple(fitting(keys, width - self._palette_width(), keep))

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        self._shown = self._choose()
        for binding, enabled, tooltip in self._key_bindings():
            if binding.action in self._shown:
                yield WideKey(binding.key, self._display(binding), binding.description,
                              binding.action, disabled=not enabled, tooltip=tooltip)
        if self._palette_width():
            _node, binding, enabled, tooltip = self.screen.active_bindings[
                self.app.COMMAND_PALETTE_BINDING]
            yield FooterKey(binding.key, self.app.get_key_display(binding), binding.description,
                            binding.action, classes="-command-palette -compact",
                            disabled=not enabled,
                            tooltip=binding.tooltip or binding.description)

    def on_resize(self) -> None:
        if self._bindings_ready and self._shown is not None and self._choose() != self._shown:
            self._recompose_soon()

    def bindings_changed(self, screen) -> None:
        # A key that only turns on or off (n on a leaf of the tree) is restyled where it is:
        # recomposing sent the whole footer line over SSH with each such cursor move.
        if (self._shown is not None and self.is_attached and screen is self.screen
                and screen.app.app_focus and self._choose() == self._shown and self._restyle()):
            return
        # Textual's footer, but one recompose for the changes made before it runs: a screen's
        # start (mount, focus, its first bindings) asked for five, each rebuilding every key.
        self._bindings_ready = True
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._recompose_soon()

    def _recompose_soon(self) -> None:
        """Recompose after the next refresh, unless that is already asked for: the keys are
        chosen when it runs, so one shows every change made until then."""
        if not self._recompose_due:
            self._recompose_due = True
            self.call_after_refresh(self._recompose_now)

    async def _recompose_now(self) -> None:
        self._recompose_due = False
        await self.recompose()

    def _restyle(self) -> bool:
        """Set the shown keys' enabled states in place; False when more than that changed."""
        keys = [key for key in self.query(FooterKey) if not key.has_class("-command-palette")]
        wanted = [(binding, enabled) for binding, enabled, _tooltip in self._key_bindings()
                  if binding.action in self._shown]
        if [key.action for key in keys] != [binding.action for binding, _ in wanted] or any(
                (key.key_display, key.description) != (self._display(binding), binding.description)
                for key, (binding, _) in zip(keys, wanted)):
            return False
        for key, (_binding, enabled) in zip(keys, wanted):
            key._disabled = not enabled  # what a click on it checks
            key.set_class(not enabled, "-disabled")
        return True
