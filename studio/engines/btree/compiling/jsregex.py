"""Translate the JavaScript regular expressions of ``x-swap``/``x-replace`` to Python ``re``.

The reference builds ``new RegExp(what, 'g')`` with no ``u`` flag, so the expression works on
UTF-16 code units. We keep that: subject strings with characters beyond the BMP are matched in
their surrogate-pair form (so ``what: "."`` replaces each half of an emoji, as the reference does).

Constructs whose meaning differs and that we cannot express faithfully (back-references, which
match empty in JavaScript when their group has not matched; ``\\u{...}``; inline flags; ...) are
rejected with :class:`UntranslatableRegex`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

_JS_SPACE = (
    "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_CLASS_ESCAPES = {
    "d": "0-9",
    "w": "A-Za-z0-9_",
    "s": _JS_SPACE,
}
_OUTSIDE_ESCAPES = {
    "d": "[0-9]", "D": "[^0-9]", "w": "[A-Za-z0-9_]", "W": "[^A-Za-z0-9_]",
    "s": f"[{_JS_SPACE}]", "S": f"[^{_JS_SPACE}]", "b": r"\b", "B": r"\B",
}
_CONTROL = {"n": "\\n", "r": "\\r", "t": "\\t", "v": "\\x0b", "f": "\\x0c", "0": "\\x00"}
_QUANTIFIER = re.compile(r"\{(\d+)(,(\d*))?\}")
_HEX2 = re.compile(r"[0-9A-Fa-f]{2}")
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")


class UntranslatableRegex(ValueError):
    """The expression is invalid in JavaScript or uses a construct we do not translate."""


def to_utf16(text: str) -> str:
    """``text`` with every astral character as its two surrogate code points."""
    if text.isascii() or max(text) <= "\uffff":
        return text
    return "".join(c if c <= "\uffff" else _pair(c) for c in text)


def _pair(char: str) -> str:
    code = ord(char) - 0x10000
    return chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))


def from_utf16(text: str) -> str:
    """Join surrogate pairs back into characters (lone surrogates stay as they are)."""
    if text.isascii():
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


@lru_cache(maxsize=512)
def translate(source: str) -> str:
    """The Python ``re`` source equivalent to the JavaScript source ``source`` (no flags)."""
    return _Translator(to_utf16(source)).run()


@lru_cache(maxsize=512)
def compile_js(source: str) -> re.Pattern[str]:
    """Compile a JavaScript regular expression; raises :class:`UntranslatableRegex`."""
    python = translate(source)
    try:
        return re.compile(python)
    except re.error as exc:
        raise UntranslatableRegex(f"invalid regular expression /{source}/: {exc.msg}") from None


def js_replace(source: str, text: str, replace: Callable[[str], str]) -> str:
    """``text.replace(new RegExp(source, 'g'), fn)``: every match replaced by ``replace(match)``."""
    pattern = compile_js(source)
    wide = to_utf16(text)
    out = pattern.sub(lambda m: to_utf16(replace(from_utf16(m.group(0)))), wide)
    return from_utf16(out)


class _Translator:
    def __init__(self, source: str) -> None:
        self.src = source
        self.i = 0
        self.out: list[str] = []
        self.groups = 0

    def fail(self, what: str) -> UntranslatableRegex:
        return UntranslatableRegex(f"cannot translate /{from_utf16(self.src)}/: {what}")

    def run(self) -> str:
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c == "\\":
                self.escape()
            elif c == "[":
                self.char_class()
            elif c == "(":
                self.group()
            elif c == ".":
                self.out.append("[^\\n\\r\\u2028\\u2029]")
                self.i += 1
            elif c == "$":
                self.out.append("\\Z")  # JavaScript $ never matches before a final newline
                self.i += 1
            elif c == "{":
                self.brace()
            elif c in "*+?":
                self.out.append(c)
                self.i += 1
                if self.i < len(src) and src[self.i] in "+":
                    raise self.fail("possessive quantifiers are not JavaScript")
                if self.i < len(src) and src[self.i] == "?":
                    self.out.append("?")
                    self.i += 1
            else:
                self.out.append(c if c in "^|)" else re.escape(c))
                self.i += 1
        return "".join(self.out)

    def brace(self) -> None:
        found = _QUANTIFIER.match(self.src, self.i)
        if found:  # a real quantifier {n}, {n,}, {n,m}
            self.out.append(found.group(0))
            self.i = found.end()
        else:  # Annex B: a lone brace is a literal
            self.out.append("\\{")
            self.i += 1

    def group(self) -> None:
        src, i = self.src, self.i
        for prefix in ("(?:", "(?=", "(?!", "(?<=", "(?<!"):
            if src.startswith(prefix, i):
                self.out.append(prefix)
                self.i += len(prefix)
                return
        named = re.compile(r"\(\?<([A-Za-z_$][A-Za-z0-9_$]*)>").match(src, i)
        if named:
            if "$" in named.group(1):
                raise self.fail("group names with $")
            self.groups += 1
            self.out.append(f"(?P<{named.group(1)}>")
            self.i = named.end()
            return
        if src.startswith("(?", i):
            raise self.fail("unsupported group syntax (?…")
        self.groups += 1
        self.out.append("(")
        self.i += 1

    def escape(self) -> None:
        src = self.src
        if self.i + 1 >= len(src):
            raise self.fail("\\ at end of pattern")
        c = src[self.i + 1]
        self.i += 2
        if c in _OUTSIDE_ESCAPES:
            self.out.append(_OUTSIDE_ESCAPES[c])
        elif c in _CONTROL and not (c == "0" and self.i < len(src) and src[self.i].isdigit()):
            self.out.append(_CONTROL[c])
        else:
            self.out.append(self.common_escape(c))

    def common_escape(self, c: str) -> str:
        """Escapes with the same meaning inside and outside classes; returns Python source."""
        src = self.src
        if c.isdigit():
            raise self.fail("back-references and octal escapes")
        if c == "k":
            raise self.fail("named back-references")
        if c == "x" and _HEX2.match(src, self.i):
            code = src[self.i : self.i + 2]
            self.i += 2
            return f"\\x{code}"
        if c == "u":
            if _HEX4.match(src, self.i):
                code = src[self.i : self.i + 4]
                self.i += 4
                return f"\\u{code}"
            raise self.fail("\\u without four hex digits (\\u{…} needs the u flag)")
        if c == "c":
            if self.i < len(src) and src[self.i].isascii() and src[self.i].isalpha():
                code = ord(src[self.i]) % 32
                self.i += 1
                return f"\\x{code:02x}"
            raise self.fail("\\c without a letter")
        if c in "pP":
            raise self.fail("\\p needs the u flag")
        return re.escape(c)  # identity escape: \a is "a" in JavaScript, not a bell

    def char_class(self) -> None:
        src = self.src
        self.i += 1
        negate = self.i < len(src) and src[self.i] == "^"
        if negate:
            self.i += 1
        parts: list[str] = []
        while True:
            if self.i >= len(src):
                raise self.fail("unterminated character class")
            c = src[self.i]
            if c == "]":
                self.i += 1
                break
            if c == "\\":
                if self.i + 1 >= len(src):
                    raise self.fail("\\ at end of pattern")
                e = src[self.i + 1]
                self.i += 2
                if e in _CLASS_ESCAPES:
                    parts.append(_CLASS_ESCAPES[e])
                elif e in "DWS":
                    raise self.fail(f"\\{e} inside a character class")
                elif e == "b":
                    parts.append("\\x08")
                elif e == "-":
                    parts.append("\\-")
                elif e in _CONTROL and e != "0":
                    parts.append(_CONTROL[e])
                elif e == "0":
                    parts.append("\\x00")
                else:
                    parts.append(self.common_escape(e))
            elif c == "-":
                parts.append("-")
                self.i += 1
            else:
                parts.append(re.escape(c) if c in "[]\\^&~|" else c)
                self.i += 1
        body = "".join(parts)
        if not body:  # [] matches nothing, [^] anything
            self.out.append("[\\s\\S]" if negate else "(?!)")
        else:
            self.out.append(("[^" if negate else "[") + body + "]")
