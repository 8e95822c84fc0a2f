"""A team's count of hits that weakened a tile (the engine's ``broken``, spec haunted.md §6.1) is
called hits wherever it is shown: "broken 32–32" read as 32 holes."""

from __future__ import annotations

from studio.commands.haunted.entrants import round_line as command_line
from studio.engines.haunted.match_data import RoundResult
from studio.screens.haunted.base import HAUNTED_ABOUT
from studio.sessions.haunted.live import reason_text, round_line

DRAWN = RoundResult(3, "Default", "A", "home", "tiebreak", (32, 31), 40)


def test_the_match_log_and_studio_match_say_hits() -> None:
    line = round_line(DRAWN, ("Alpha", "Beta"))
    assert "hits 32–31" in line and "broken" not in line
    assert "both fell at once, more hits" in line
    assert reason_text("tie") == "both fell at once, as many hits"
    text = command_line(DRAWN, {"A": "Alpha", "B": "Beta"})
    assert "hits 32-31" in text and "broken" not in text


def test_help_says_what_decides_a_round_and_what_hits_count() -> None:
    assert "What decides a round" in HAUNTED_ABOUT
    assert "the team with more hits wins" in HAUNTED_ABOUT
    assert "weakened a tile" in HAUNTED_ABOUT and "not the tiles broken" in HAUNTED_ABOUT
