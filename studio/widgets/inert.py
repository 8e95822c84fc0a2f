"""The last guard between text from outside and the terminal: a line filter over every widget.

Screens pass names, logs and messages through :func:`studio.engines.common.inert.inert` where
they build what they show, so that a line is laid out with its escapes. This filter is what makes
that a property of the studio rather than of each screen: the app applies it to every line of
every widget (Textual's line filters), so a control character that a screen forgot, or that a
widget of Textual's own shows (a text area holding a student's AI, an input), is written as its
escape all the same and never as the byte a terminal would obey.

A line that needed it keeps its width: the escapes are wider than the characters (which count
as no columns), so the line is cut back to where it ended, and the layout around it holds.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Span, Text
from textual.color import Color
from textual.filter import LineFilter
from textual.strip import Strip

from studio.engines.common.inert import inert, is_inert


class InertFilter(LineFilter):
    """Writes control characters in a line's text as visible escapes (never the app's own
    control segments, which are cursor moves and the like)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        # One search over the line's text: this runs on every line every widget draws.
        if is_inert("".join([segment.text for segment in segments if not segment.control])):
            return segments
        shown = inert_segments(segments)
        if any(segment.control for segment in segments):
            return shown  # a widget's line has none; cropping would cut them as text
        return list(Strip(shown).crop(0, Strip(segments).cell_length))


def inert_line(line: Text) -> Text:
    """``line`` with its text made inert and its styles kept, each on the escape of what it
    styled: for a line a screen built from names before it folds or cuts it to a width."""
    if is_inert(line.plain):
        return line
    cuts = sorted({offset for span in line.spans for offset in (span.start, span.end)})
    shown = Text(style=line.style, justify=line.justify, overflow=line.overflow,
                 no_wrap=line.no_wrap, end=line.end)
    for part in line.divide(cuts):
        text = inert(part.plain)
        shown.append_text(Text(text, spans=[Span(0, len(text), span.style)
                                            for span in part.spans if span.end > span.start]))
    return shown


def inert_segments(segments: list[Segment]) -> list[Segment]:
    """Segments with their text made inert (the app's own control segments left alone)."""
    return [segment if segment.control or is_inert(segment.text)
            else Segment(inert(segment.text), segment.style, segment.control)
            for segment in segments]
