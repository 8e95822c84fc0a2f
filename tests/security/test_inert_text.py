"""The one function that makes text from outside inert (issue 28, item 7), and the app's last
guard, the line filter over every widget."""

from __future__ import annotations

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.strip import Strip

from studio.engines.common.inert import inert, is_inert
from studio.widgets.inert import InertFilter
from tests.security.escapes import HOSTILE, SHOWN

C0 = [chr(code) for code in range(0x20)]
C1 = [chr(code) for code in range(0x80, 0xA0)]
BIDI = [chr(code) for code in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]
SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escape_of(character: str) -> str:
    code = ord(character)
    return SHORT.get(character) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


@pytest.mark.parametrize("character", [*C0, "\x7f", *C1, *BIDI], ids=lambda c: f"U+{ord(c):04X}")
def test_every_control_character_of_a_name_shows_as_its_escape(character: str) -> None:
    assert inert(f"a{character}b") == f"a{escape_of(character)}b"
    assert not is_inert(f"a{character}b")


@pytest.mark.parametrize("character", [c for c in [*C0, "\x7f", *C1, *BIDI] if c not in "\n\t"],
                         ids=lambda c: f"U+{ord(c):04X}")
def test_a_log_escapes_them_too(character: str) -> None:
    assert inert(f"a{character}b", log=True) == f"a{escape_of(character)}b"


def test_a_log_keeps_its_newlines_and_tabs_and_ends_crlf_lines_with_a_newline() -> None:
    assert inert("turn 1\tmove up\nturn 2\r\ndone", log=True) == "turn 1\tmove up\nturn 2\ndone"
    assert inert("progress 10%\rprogress 20%", log=True) == "progress 10%\\rprogress 20%"
    assert inert("a\nb\tc") == "a\\nb\\tc"  # a name is one line


def test_the_escapes_are_python_s_and_the_attacks_arrive_as_text() -> None:
    assert inert(HOSTILE) == SHOWN
    assert inert(HOSTILE) == repr(HOSTILE)[1:-1]  # as the messages quote names ({name!r})


@pytest.mark.parametrize("text", ["", "Spooky Cup", "Ünïcödé ✓ 幽霊 🎃",
                                  "[bold]x[/] \\x1b",
                                  "\u00a0\u200d\u2028", "a" * 10_000])
def test_printable_text_is_kept_as_it_is(text: str) -> None:
    assert inert(text) is text or inert(text) == text
    assert inert(text, log=True) == text
    assert is_inert(text)


def test_the_filter_escapes_a_line_s_text_and_keeps_its_width() -> None:
    style = Style(bold=True)
    line = [Segment("name: ", style), Segment("a\x1b]0;T\x07b", style), Segment(" " * 20)]
    shown = InertFilter().apply(line, Color(0, 0, 0))
    text = "".join(segment.text for segment in shown)
    assert text.startswith("name: a\\x1b]0;T\\x07b ") and text.endswith(" ")  # cut to its width
    assert Strip(shown).cell_length == Strip(line).cell_length
    assert shown[0] == line[0] and shown[1].style == style


def test_the_filter_leaves_the_app_s_own_control_segments() -> None:
    move = Segment("\x1b[5;5H", None, ((1, 5, 5),))  # a cursor move: the app's own
    shown = InertFilter().apply([move, Segment("a\x9bb" + " " * 8)], Color(0, 0, 0))
    assert shown[0] is move and shown[1].text.startswith("a\\x9bb")


def test_the_filter_hands_back_a_clean_line_untouched() -> None:
    line = [Segment("Spooky Cup", Style(bold=True)), Segment(" ✓ ")]
    assert InertFilter().apply(line, Color(0, 0, 0)) is line
