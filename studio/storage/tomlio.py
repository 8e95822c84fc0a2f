"""Reading TOML with located errors, and the canonical TOML writer.

The writer is canonical: the same document always gives the same text, and for text it wrote,
``dumps(loads(text)) == text``. Layout rules, so that files stay readable and diff well:

* scalars and inline arrays of a table come first, in document order, then its sub-tables;
* a nested table whose leaves are all plain values is written as dotted keys (``lhs.main = ...``);
* top-level tables and tables holding arrays of tables get their own ``[header]``;
* lists of tables are ``[[arrays of tables]]``, indented two spaces per level of nesting;
* strings with a newline are multi-line basic strings, so grids read as grids.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import tomllib
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_NESTING, line_of, nesting_overflow, too_deep
from studio.storage.errors import ProjectError
from studio.storage.reading import nesting_error

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_LINE_COL = re.compile(r"line (\d+), column (\d+)")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


# ---------------------------------------------------------------------------------------- reading


def decode_utf8(data: bytes, file: Path | None = None) -> str:
    """Decode a project file, locating the first invalid byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ProjectError(
            f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
            file=file,
            line=line,
            column=column,
            hint="save it as UTF-8 text",
        ) from None
    return text.removeprefix("\ufeff")


def parse_toml(text: str, file: Path | None = None) -> dict[str, Any]:
    """Parse TOML text; syntax errors become a :class:`ProjectError` with line and column.

    Nesting is bounded (:data:`~studio.engines.common.limits.MAX_NESTING`): brackets are counted
    before tomllib recurses into them, and tables nested by dotted keys or headers after.
    """
    deep_at = nesting_overflow(text, "toml")
    if deep_at is not None:
        raise nesting_error(file, MAX_NESTING, line=line_of(text, deep_at))
    try:
        document = tomllib.loads(text)
    except RecursionError:  # tomllib is pure Python: it raises cleanly, should the scan give up
        raise nesting_error(file, MAX_NESTING) from None
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        column = getattr(exc, "colno", None)
        message = getattr(exc, "msg", None) or str(exc)
        found = _LINE_COL.search(str(exc))
        if line is None and found:
            line, column = int(found.group(1)), int(found.group(2))
        if line is None and "end of document" in str(exc):
            line = text.count("\n") + 1
        message = re.sub(r"\s*\((at|at line).*\)\s*$", "", message)
        raise ProjectError(
            f"TOML syntax error: {message[:1].lower()}{message[1:]}",
            file=file,
            line=line,
            column=column,
            hint="fix the file in a text editor; the studio has not changed it",
        ) from None
    deep = too_deep(document, MAX_NESTING + 1)  # the document's own table has no bracket
    if deep is not None:
        raise nesting_error(file, MAX_NESTING, line=locate_field(text, deep), field_path=deep)
    return document


# ---------------------------------------------------------------------------------------- writing


def dumps(document: dict[str, Any]) -> str:
    """Write ``document`` as canonical TOML text (see the module docstring)."""
    out: list[str] = []
    _write_table(out, (), document, top=True)
    return "\n".join(out).strip("\n") + "\n"


def format_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _basic_string(key)


def _dotted(path: tuple[str, ...]) -> str:
    return ".".join(format_key(part) for part in path)


def _is_array_of_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _holds_sections(table: dict[str, Any]) -> bool:
    """Whether a table must get a header because something inside it needs one."""
    for value in table.values():
        if _is_array_of_tables(value):
            return True
        if isinstance(value, dict) and value and _holds_sections(value):
            return True
    return False


def _is_section(value: Any, top: bool) -> bool:
    if _is_array_of_tables(value):
        return True
    if isinstance(value, dict):
        return top or (bool(value) and _holds_sections(value))
    return False


def _write_table(out: list[str], path: tuple[str, ...], table: dict[str, Any], top: bool) -> None:
    indent = "  " * max(len(path) - 1, 0)
    for key, value in table.items():
        if not _is_section(value, top):
            _write_plain(out, indent, (key,), value)
    for key, value in table.items():
        if not _is_section(value, top):
            continue
        sub = (*path, key)
        sub_indent = "  " * (len(sub) - 1)
        if isinstance(value, dict):
            has_plain = any(not _is_section(v, False) for v in value.values())
            if has_plain or not value:
                out.append("")
                out.append(f"{sub_indent}[{_dotted(sub)}]")
            _write_table(out, sub, value, top=False)
        else:
            for item in value:
                out.append("")
                out.append(f"{sub_indent}[[{_dotted(sub)}]]")
                _write_table(out, sub, item, top=False)


def _write_plain(out: list[str], indent: str, keys: tuple[str, ...], value: Any) -> None:
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            _write_plain(out, indent, (*keys, key), inner)
        return
    out.append(f"{indent}{_dotted(keys)} = {_value(value, inline=False)}")


def _value(value: Any, inline: bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        if "\n" in value and not inline:
            return _multiline_string(value)
        return _basic_string(value)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = ", ".join(f"{format_key(k)} = {_value(v, inline=True)}" for k, v in value.items())
        return "{ " + items + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v, inline=True) for v in value) + "]"
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    raise TypeError(f"cannot write a {type(value).__name__} to TOML: {value!r}")


def _escape_char(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    if code < 0x20 or code == 0x7F:
        return f"\\u{code:04x}"
    return char


def _basic_string(text: str) -> str:
    return '"' + "".join(_escape_char(c) for c in text) + '"'


def _multiline_string(text: str) -> str:
    # Newlines stay literal so grids read as grids; quotes are escaped so no run of three can
    # close the string early.
    body = "".join("\n" if c == "\n" else _escape_char(c) for c in text)
    return '"""\n' + body + '"""'


# ------------------------------------------------------------------------------ locating fields


def _split_keys(text: str) -> list[str] | None:
    """Split ``a."b.c".d`` into ``["a", "b.c", "d"]``; None when it is not a key."""
    parts: list[str] = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] in "\"'":
            quote = text[i]
            end = text.find(quote, i + 1)
            if end < 0:
                return None
            parts.append(text[i + 1 : end])
            i = end + 1
        else:
            start = i
            while i < n and (text[i].isalnum() or text[i] in "_-"):
                i += 1
            if i == start:
                return None
            parts.append(text[start:i])
        while i < n and text[i] in " \t":
            i += 1
        if i < n:
            if text[i] != ".":
                return None
            i += 1
    return parts


def locate_field(text: str, path: tuple[str | int, ...]) -> int | None:
    """Best-effort 1-based line where ``path`` is defined in TOML ``text``.

    Returns the line of the key itself when found, else the header of the deepest enclosing table
    found, else None. Used only to point error messages at a line; never for reading values.
    """
    target = list(path)
    section: list[str | int] = []
    counts: dict[tuple[str | int, ...], int] = {}
    best_line, best_len = None, 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[["):
            keys = _split_keys(line[2 : line.find("]]")] if "]]" in line else "")
            if keys is None:
                continue
            index_key = tuple(_resolve(keys, counts))
            counts[index_key] = counts.get(index_key, -1) + 1
            section = [*index_key, counts[index_key]]
            current = section
        elif line.startswith("["):
            keys = _split_keys(line[1 : line.find("]")] if "]" in line else "")
            if keys is None:
                continue
            section = _resolve(keys, counts)
            current = section
        elif "=" in line:
            keys = _split_keys(line.split("=", 1)[0])
            if keys is None:
                continue
            current = [*section, *keys]
        else:
            continue
        common = 0
        for a, b in zip(current, target):
            if a != b:
                break
            common += 1
        if common == len(current) and common > best_len:
            best_line, best_len = number, common
            if common == len(target):
                return number
    return best_line


def _resolve(keys: list[str], counts: dict[tuple[str | int, ...], int]) -> list[str | int]:
    """Turn a header's keys into a path, inserting the current index of enclosing arrays of tables."""
    resolved: list[str | int] = []
    for i, key in enumerate(keys):
        resolved.append(key)
        index = counts.get(tuple(resolved))
        if index is not None and i < len(keys) - 1:
            resolved.append(index)
    return resolved
