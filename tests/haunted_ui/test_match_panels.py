"""The match view's side panels: an AI's failure is read whole, folded to the panel's width."""

from __future__ import annotations

from dataclasses import fields

from rich.style import Style
from rich.text import Text

from studio.screens.haunted.match_layout import SIDE_WIDTH
from studio.widgets.lines import fold_lines as wrapped
from studio.engines.haunted.match import MatchConfig
from studio.screens.haunted.match_panels import scoreboard, turn_panel
from studio.engines.common.width import text_width
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
    # The other side's answer is shown, and said not to have been played (the failure ended
    # the round first): its arrows read as moves made.
    assert "(answered, not played)" in text
    played = {"turn": 3, "home": {"moves": ["N", "N", "N"]}, "away": {"moves": ["S", "S", "S"]}}
    assert "not played" not in " ".join(t.plain for t in turn_panel(played, None, {}, styles))


def test_folding_keeps_short_lines_and_splits_a_long_word() -> None:
    short = Text("turn 4", style="bold")
    assert wrapped([short], SIDE_WIDTH - 2) == [short]
    assert [line.plain for line in wrapped([Text("x" * 50)], 20)] == ["x" * 20, "x" * 20, "x" * 10]


def test_the_scoreboard_puts_each_teams_rounds_won_on_its_own_line() -> None:
    # The tally was one line "won 2–1 (in the order below)": beside the H/A side marks "A–B"
    # read as home–away, and the order had to be explained.
    config = MatchConfig(rounds=5)
    styles = UIStyles(*[Style()] * len(fields(UIStyles)))
    lines = scoreboard(("Alpha", "Beta"), "B", config, 4, None, {"A": 1, "B": 2}, 1,
                       {"home": {"ms": 12.4}, "away": {"ms": 1234}}, {}, styles)
    plain = [line.plain for line in lines]
    assert plain[0] == "Round 4 of 5 · 1 tied"
    header, alpha, beta = plain[1:]
    assert alpha.split() == ["A", "Alpha", "1", "-", "-", "1234", "ms"]
    assert beta.split() == ["H", "Beta", "2", "-", "-", "12", "ms"]
    for word in ("won", "alive", "hits", "answer"):  # each figure under its column's name
        column = header.index(word) + len(word)
        assert alpha[column - 1] != " " and beta[column - 1] != " "
    assert all(len(line) <= SIDE_WIDTH - 2 for line in plain)
    no_ties = scoreboard(("Alpha", "Beta"), "A", config, 1, None, {"A": 0, "B": 0}, 0, None,
                         {}, styles)
    assert no_ties[0].plain == "Round 1 of 5"


def test_the_panels_take_the_room_the_board_leaves() -> None:
    """At 120 columns the panels wrapped at 46 beside half a screen of nothing."""
    from studio.screens.haunted.match_layout import SIDE_MAX, SIDE_WIDTH, side_width

    assert side_width(10, (4, 2), 120) == 120 - 40 - 2
    assert side_width(10, (4, 2), 90) == SIDE_WIDTH  # never narrower than it was
    assert side_width(6, (4, 2), 200) == SIDE_MAX  # nor so wide a line is hard to follow
    assert side_width(7, (2, 1), 60) == 60 - 14 - 2  # at 60 columns: on the screen


def test_a_narrow_scoreboard_keeps_its_figures_and_cuts_the_names() -> None:
    from studio.screens.haunted.match_layout import SIDE_LEAST

    styles = UIStyles(*[Style()] * len(fields(UIStyles)))
    for width in (SIDE_LEAST - 2, 42):
        lines = scoreboard(("Lookahead Ghouls", "Greedy Ghosts"), "A", MatchConfig(), 0, None,
                           {"A": 0, "B": 0}, 0, None, {}, styles, width=width)
        assert all(len(line.plain) <= width for line in lines), [line.plain for line in lines]
        assert lines[1].plain.rstrip().endswith("answer")


def test_the_scoreboard_gives_names_the_room_a_wide_panel_has() -> None:
    """At 120 columns the panel is 62 wide, and "Cautious Creepers" still read "Cautious Creepe…"."""
    styles = UIStyles(*[Style()] * len(fields(UIStyles)))
    names = ("Cautious Creepers", "幽霊チーム Ghost Busters")  # 17 and 24 columns
    args = (names, "A", MatchConfig(rounds=5), 1, None, {"A": 0, "B": 2}, 0, None, {}, styles)
    wide = [line.plain for line in scoreboard(*args, width=60)]
    assert names[0] in wide[2] and names[1] in wide[3]
    end = wide[1].index("alive") + len("alive")  # figures right-aligned under their names
    assert [text_width(line[:line.index("-") + 1]) for line in wide[2:]] == [end, end]
    assert "Cautious Creepers" in scoreboard(*args)[2].plain  # 80 columns: room for 19
    narrow = [line.plain for line in scoreboard(*args, width=43)]
    assert "Cautious Creepe…" in narrow[2] and "幽霊チーム Ghos…" in narrow[3]
    narrower = [line.plain for line in scoreboard(*args, width=40)]  # at 60 columns
    assert "Cautious Cre…" in narrower[2] and all(text_width(line) <= 40 for line in narrower)
