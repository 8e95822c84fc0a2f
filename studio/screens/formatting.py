"""How screens write values for people."""

from __future__ import annotations

from studio.engines.common.inert import inert
from studio.engines.common.width import fit_text, pad_text, text_width
from studio.engines.common.words import counted

# Screens take these from here with the rest of the formatting.
__all__ = ["counted", "inert", "pad_text", "text_width"]


def summary_value(value: object) -> str:
    """A summary value as people write it: lists as ``a, b``, nothing as ``-``."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{key} {item}" for key, item in value.items()) or "-"
    return str(value)


def marked_lines(mark: str, text: str, width: int) -> list[str]:
    """``mark text`` folded to ``width`` columns, the lines after the first indented under the
    text: a problem message is read whole, not cut at the pane's edge."""
    import textwrap

    return textwrap.wrap(f"{mark} {text}", max(width, 12), subsequent_indent=" " * (len(mark) + 1),
                         break_long_words=True, break_on_hyphens=False) or [mark]


def bar_lines(head: str, tail: str, width: int, widest: int = 0) -> list[str]:
    """``head  tail`` as one line when it fits in ``width``, else ``tail`` on a line of its own
    (a status bar whose long seed would hide what precedes or follows it at 80 columns).

    ``widest`` is the longest the one line may grow to while the screen stays (a round count
    gaining digits): when it does not fit, two lines from the start, so the bar keeps its height
    and what is below it does not jump a row as the count grows."""
    one = f"{head}  {tail}"
    return [one] if max(len(one), widest) <= width else [head, tail]


def fit_title(title: str, sub_title: str, width: int) -> tuple[str, str]:
    """A screen's title and sub-title (file, unsaved mark) within ``width`` columns, " — "
    between them: the title gives way first, cut with "…"; on a very narrow screen the
    sub-title keeps only its mark ("● unsaved"), which says something the screen does not."""
    gap = 3 if sub_title else 0
    if len(title) + gap + len(sub_title) <= width:
        return title, sub_title
    if width - gap - len(sub_title) >= 12:
        return fit(title, width - gap - len(sub_title)), sub_title
    mark = sub_title[sub_title.find("●"):] if "●" in sub_title else ""
    if mark:
        return fit(title, max(width - 3 - len(mark), 1)), mark
    return fit(title, width), ""


def fit(text: str, width: int) -> str:
    """``text`` in ``width`` terminal columns, ending in ``…`` when cut (a cut name that just
    stops, "playe", reads as a typo; one cut by ``len`` ran past its column when it had wide
    characters)."""
    return fit_text(text, width)


