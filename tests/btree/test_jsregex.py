"""JavaScript regular expressions as Python ``re`` (the ``what`` of x-swap/x-replace)."""

from __future__ import annotations

import pytest

from studio.engines.btree.compiling.jsregex import (
    UntranslatableRegex, compile_js, from_utf16, js_replace, to_utf16,
)


def rep(source: str, text: str, value: str = "#") -> str:
    return js_replace(source, text, lambda _m: value)


def test_plain_text_and_alternation() -> None:
    assert rep("ANY_DIR", "P_ANY_DIR") == "P_#"
    assert rep("(X|O)", "XOX") == "###"


def test_dot_works_on_utf16_code_units_like_javascript() -> None:
    assert rep(".", "ab") == "##"
    assert rep(".", "🦸") == "##"  # two surrogates, two matches (no u flag)
    assert rep(".", "a\nb") == "#\n#"


def test_astral_literals_and_replacements_round_trip() -> None:
    assert rep("🔴", "x🔴y", "🟢") == "x🟢y"
    assert rep("a", "a", "🧙") == "🧙"
    assert from_utf16(to_utf16("a🧙b")) == "a🧙b" and len(to_utf16("🧙")) == 2


def test_ascii_classes_and_anchors() -> None:
    assert rep("\\d", "1٣") == "#٣"  # \\d is ASCII-only in JavaScript
    assert rep("\\w+", "ab_é") == "#é"
    assert rep("a$", "a\n") == "a\n"  # JavaScript $ does not match before a final newline
    assert rep("^a", "aa") == "#a"
    assert rep("[^]", "ab") == "##" and rep("[]", "ab") == "ab"


def test_javascript_quirks() -> None:
    assert rep("a{", "a{") == "#"  # a lone brace is a literal
    assert rep("a{2}", "aaa") == "#a"
    assert rep("\\a", "a") == "#"  # identity escape, not a bell
    assert rep("[\\b]", "\b") == "#"
    assert rep("(?<n>a)b", "ab") == "#"
    assert rep("(?<=a)b", "ab") == "a#"
    assert rep("\\u0041", "A") == "#" and rep("\\x41", "A") == "#"


@pytest.mark.parametrize(
    "source", ["(a)\\1", "\\k<n>", "\\u{41}", "(?i)a", "a*+", "\\p{L}", "[a", "(a", "\\", "a**"]
)
def test_untranslatable_or_invalid_expressions_are_rejected(source: str) -> None:
    with pytest.raises(UntranslatableRegex):
        compile_js(source)
