"""How wide text is on a terminal, for cutting names and lines to a column count: a name in
CJK letters or with an emoji takes two columns a character, so ``len`` undercounts it and a cut
by ``len`` runs past its column (the edge then cuts it without a mark)."""

from __future__ import annotations

import unicodedata


def text_width(text: str) -> int:
    """Terminal cells taken by ``text``: wide and emoji characters count 2, combining marks 0."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or char in "\ufe0f\u200d":
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def fit_text(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells, ending in ``…`` when anything was cut (a line
    that just stops reads as the whole line)."""
    if text_width(text) <= width:
        return text
    if width < 1:
        return ""
    out, used = [], 0
    for char in text:
        step = text_width(char)
        if used + step > width - 1:
            break
        out.append(char)
        used += step
    return "".join(out).rstrip() + "…"  # "Inner school …" read as a word left out


def pad_text(text: str, width: int) -> str:
    """``text`` in exactly ``width`` cells: cut with ``…`` or padded with spaces on the right
    (``f"{text:<20}"`` pads by characters, so a wide name pushed the columns after it along)."""
    text = fit_text(text, width)
    return text + " " * max(width - text_width(text), 0)
