"""The match view's side panels: an AI's failure is read whole, folded to the panel's width."""

from __future__ import annotations

from dataclasses import fields

from rich.style import Style
from rich.text import Text

from studio.screens.haunted.match_layout import SIDE_WIDTH
from studio.widgets.lines import fold_lines as wrapped
from studio.screens.haunted.match_panels import turn_panel
from studio.widgets.canvas import UIStyles


def test_a_failure_is_folded_into_the_panel_whole_with_its_colours() -> None:
    reason = "no answer within 2.00 s; the worker was killed and the round goes to the other AI"
    record = {"turn": 4, "home": {"failure": "timeout", "error": f"Traceback …\n{reason}"},
              "away": {"moves": ["N", "E", "S"]}}
    home = Style(color="red")
    styles = UIStyles(*[Style()] * len(fields(UIStyles)))
    lines = wrapped(turn_panel(record, None, {"home": home}, styles), 30)
    text = " ".join(line.plain for line in lines)
    assert f"home: timeout: {reason}" in text  # was cut at 60 characters, then by the panel
    assert all(line.cell_len <= 30 for line in lines)
    first = next(line for line in lines if line.plain.startswith("home:"))
    assert first.spans[0].style == home and first.spans[0].end == len("home: ")


def test_folding_keeps_short_lines_and_splits_a_long_word() -> None:
    short = Text("turn 4", style="bold")
    assert wrapped([short], SIDE_WIDTH - 2) == [short]
    assert [line.plain for line in wrapped([Text("x" * 50)], 20)] == ["x" * 20, "x" * 20, "x" * 10]
