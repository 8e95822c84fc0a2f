"""Hostile text for the screens (issue 28, item 7), and the checks on what reaches the terminal.

``HOSTILE`` carries what an attacker would put in a name or a printed line: a window title
(``ESC ] 0 ;``), a clipboard write (``ESC ] 52 ;``), a screen clear, the same as an 8-bit C1
CSI, a bidi override, DEL and a bell. :func:`written` is what the app would send the terminal
for a whole frame now (the compositor's update rendered to the driver's string, as
``App._display`` does: Textual's headless driver drops it), and :func:`foreign` lists every
control character in it that is none of Textual's own sequences.
"""

from __future__ import annotations

import re

from textual.app import App

TITLE = "\x1b]0;PWNED\x07"
CLIPBOARD = "\x1b]52;c;ZWNobyBoaQ==\x07"
CLEAR = "\x1b[2J"
C1_CLEAR = "\x9b2J"
BIDI = "\u202egnp.py"
HOSTILE = f"evil{TITLE}{CLIPBOARD}{CLEAR}{C1_CLEAR}{BIDI}\x7f"
"""All of it in one line, as a name would carry it."""
SHOWN = "evil\\x1b]0;PWNED\\x07\\x1b]52;c;ZWNobyBoaQ==\\x07\\x1b[2J\\x9b2J\\u202egnp.py\\x7f"
"""``HOSTILE`` as the studio shows it: every control character as its escape."""

_OWN = re.compile(
    r"\x1b\[[0-9;]*[mH]"  # colours and styles, cursor moves
    r"|\x1b\[\?[0-9;]*[hl]"  # private modes: alternate screen, mouse, cursor, paste
    r"|\x1b\[>[0-9;]*u|\x1b\[\?[0-9]*\$p"  # the keyboard protocol, a mode query
    r"|\x1b\]22;[a-z-]*\x07"  # the mouse pointer's shape
)
"""The sequences Textual writes of its own accord (a screen clear is not one of them)."""
_CONTROL = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def written(app: App) -> str:
    """What the app would write to the terminal to draw its whole screen now."""
    update = app.screen._compositor.render_update(full=True,
                                                  screen_stack=app._background_screens)
    assert update is not None
    return update.render_segments(app.console)


def foreign(out: str) -> list[str]:
    """Each control character of ``out`` outside Textual's own sequences, with what follows it
    (empty when the text from outside arrived inert). Newlines and carriage returns are the
    driver's and the terminal's own line ends."""
    rest = _OWN.sub("", out)
    return [rest[match.start():match.start() + 12] for match in _CONTROL.finditer(rest)]


def assert_inert(out: str) -> None:
    """No smuggled sequence reached ``out``: no control character beside Textual's own."""
    assert "\x1b]0;" not in out and "\x1b]52;" not in out and CLEAR not in out
    assert foreign(out) == []
