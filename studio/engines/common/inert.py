"""Text from outside made inert for a terminal: control characters shown as visible escapes.

File names, team names from a CSV, what an AI prints, an exception's message, names inside a
project or a replay: none of it was written by the studio, and a terminal obeys what it is sent.
``ESC ] 0 ;`` retitles the window, ``ESC ] 52 ;`` writes the viewer's clipboard, ``ESC [ 2 J``
clears the screen, U+009B is an 8-bit ``ESC [``, and the bidi controls (the overrides and
embeddings U+202A-U+202E, the isolates U+2066-U+2069, the marks U+061C, U+200E, U+200F) reorder
what a viewer reads (``evil\\u202egnp.py`` shows as ``evilyp.png``). Everything that shows such
text passes it through :func:`inert` first (screens, widgets, the CLI's output on a terminal),
and storage refuses a name that holds one (:func:`name_problem`): the same set, defined here.

The escapes are Python's, as ``repr`` writes them and as the studio's messages already quote
names (``{name!r}``): ``\\x1b`` for ESC, ``\\x9b`` for a C1 character, ``\\x7f`` for DEL,
``\\u202e`` for a bidi override; ``\\n``, ``\\r`` and ``\\t`` where a line may not hold them.
Backslashes are left alone: the result is for reading, not for turning back into the text.

Pure and at the bottom layer, so that every layer (storage's messages, sessions, widgets, the
CLI) uses this one definition.
"""

from __future__ import annotations

import re

__all__ = ["inert", "is_inert", "name_problem"]

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""The bidi controls: the Arabic letter mark, the left-to-right and right-to-left marks, the
embeddings and overrides, the isolates."""
_NAME = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
"""Everything a one-line name may not carry to a terminal: C0, DEL, C1 and the bidi controls.
The one definition: :func:`inert` escapes these, :func:`name_problem` refuses them in a name."""
_LOG = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
"""The same less newline and tab, which a log or a message of several lines keeps. A CRLF line
end becomes a newline first; a carriage return left alone moves the cursor back over the line."""
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    character = match.group()
    code = ord(character)
    if character in _SHORT:
        return _SHORT[character]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str, *, log: bool = False) -> str:
    """``text`` with every control character (C0, ESC, DEL, C1) and bidi override written as a
    visible escape (``\\x1b``, ``\\u202e``).

    ``log``: the text is a log or a message of several lines, whose newlines and tabs are kept
    (a CRLF line end becomes a newline); otherwise it is one line (a name, a cell) and they are
    escaped too.
    """
    if log:
        if _LOG.search(text) is None:
            return text
        return _LOG.sub(_escape, text.replace("\r\n", "\n"))
    if _NAME.search(text) is None:
        return text
    return _NAME.sub(_escape, text)


def is_inert(text: str, *, log: bool = False) -> bool:
    """Whether ``text`` is shown as it is by :func:`inert` (nothing in it to escape)."""
    return (_LOG if log else _NAME).search(text) is None


def name_problem(name: str) -> str | None:
    """What makes ``name`` unfit to be a name, None when nothing: the first character of it that
    :func:`inert` would escape, described with its escape (``a control character (\\x1b)``,
    ``a bidi control (\\u202e)``).

    Storage refuses such a name where it enters (a project file, a form, a CSV): a name is one
    line of text that reads the same on every terminal.
    """
    found = _NAME.search(name)
    if found is None:
        return None
    shown = _escape(found)
    bidi = ord(found.group()) > 0x9F
    return f"a bidi control ({shown})" if bidi else f"a control character ({shown})"
