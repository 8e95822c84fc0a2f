"""Terminal input: ``escape`` typed just before another key stays ``escape`` and that key.

A terminal sends ``escape`` as the lone byte ESC, and ``alt+x`` as ESC followed by ``x``; the two
are told apart only by time (Textual waits a moment after a lone ESC). Typed quickly, or over
SSH where both often travel in one packet, ``escape`` then ``n`` arrives as ESC ``n`` and was read
as ``alt+n``: the dialog did not close and the ``n`` was lost (``escape`` then ``space`` or
``enter`` lost the escape outright). The studio binds no ``alt`` + character, so ESC followed
by a character that starts no escape sequence is read here as the two keys the person typed.
``alt`` with the arrows and other sequences is untouched.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual._parser import ParseTimeout
from textual._xterm_parser import XTermParser

ESC = "\x1b"
SEQUENCE_STARTS = frozenset("[O]P_\\" + ESC)
"""After ESC these begin a sequence (CSI, SS3, OSC, DCS, APC, ST) or another escape."""
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def split_points(data: str, pasting: bool) -> tuple[list[int], bool]:
    """Where in ``data`` a lone ``escape`` ends (just after each such ESC), and whether a
    bracketed paste is still open at the end (text pasted is the paste's, not keys)."""
    points = []
    index = 0
    while (index := data.find(ESC, index)) != -1:
        if data.startswith(PASTE_START, index):
            pasting, index = True, index + len(PASTE_START)
            continue
        if data.startswith(PASTE_END, index):
            pasting, index = False, index + len(PASTE_END)
            continue
        following = data[index + 1:index + 2]
        if not pasting and following and following not in SEQUENCE_STARTS:
            points.append(index + 1)
        index += 1
    return points, pasting


class EscapeSplittingParser(XTermParser):
    """Textual's parser, with ESC + character read as ``escape`` and then the character."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pasting = False

    def feed(self, data: str) -> Iterable[Any]:
        if not data:
            yield from super().feed(data)
            return
        points, self._pasting = split_points(data, self._pasting)
        start = 0
        for point in points:
            yield from super().feed(data[start:point])
            yield from self._escape_now()
            start = point
        yield from super().feed(data[start:])

    def _escape_now(self) -> Iterable[Any]:
        """What the parser does when no byte follows a lone ESC in time: report ``escape``."""
        self._timeout_time = None
        self._awaiting = self._gen.throw(ParseTimeout())
        while self._tokens:
            yield self._tokens.popleft()


def install() -> None:
    """Make Textual's terminal drivers read keys with :class:`EscapeSplittingParser`."""
    from textual.drivers import linux_driver

    linux_driver.XTermParser = EscapeSplittingParser  # type: ignore[misc]
