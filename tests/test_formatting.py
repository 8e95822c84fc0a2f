"""How screens write values and messages for people."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets._header import HeaderTitle

from studio.screens.formatting import counted, fit, fit_title, marked_lines, summary_value
from tests.shared_data import ROOT
from tests.ui_helpers import studio_app


def test_a_problem_is_folded_whole_under_its_mark() -> None:
    text = "rule 0, tile (2,2), command 1 'move right': this tile declares no sprite witness"
    lines = marked_lines("✗", text, 40)
    assert all(len(line) <= 40 for line in lines) and len(lines) == 3
    assert lines[0].startswith("✗ rule 0") and all(line.startswith("  ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == f"✗ {text}"  # nothing cut
    assert marked_lines("!", "short", 40) == ["! short"]


def test_summary_values_read_as_written() -> None:
    assert summary_value([1, 2]) == "1, 2" and summary_value([]) == "-"
    assert summary_value({"press": 2}) == "press 2"


def test_a_status_bar_gives_its_tail_a_line_of_its_own_only_when_it_must() -> None:
    from studio.screens.formatting import bar_lines

    assert bar_lines("Round 2 · next: left", "Seed 5", 78) == ["Round 2 · next: left  Seed 5"]
    head = "Score 0  High 0  Round 118  paused · 150 ms · next: left"
    assert bar_lines(head, "Seed 1463899912396143613", 78) == [head, "Seed 1463899912396143613"]


def test_a_name_cut_to_fit_says_so() -> None:
    assert fit("s0 player", 8) == "s0 play…"
    assert fit("b0 wall", 8) == "b0 wall"
    assert fit("abcdefgh", 8) == "abcdefgh"


def test_a_count_takes_its_noun_in_the_plural_unless_it_is_one() -> None:
    assert [counted(n, "map") for n in (0, 1, 2)] == ["0 maps", "1 map", "2 maps"]


def test_a_long_title_gives_way_before_the_file_and_its_unsaved_mark() -> None:
    title, sub = "Sokoban — pattern: rewrite · lhs", "sokoban.toml ● unsaved"
    assert fit_title(title, sub, 62) == (title, sub)  # fits: as it is
    assert fit_title(title, sub, 42) == ("Sokoban — patter…", sub)
    assert fit_title(title, sub, 26) == ("Sokoban — pat…", "● unsaved")  # the mark stays
    assert fit_title(title, "sokoban.toml", 20) == ("Sokoban — pattern:…", "")  # no space before …
    assert fit_title("Home", "", 10) == ("Home", "")


async def test_the_header_keeps_the_unsaved_mark_on_a_narrow_screen(tmp_path) -> None:
    # Textual cuts the header line at its end, where the mark is: the pattern editor at 80
    # columns read "… box-push.toml ● uns…".
    game = tmp_path / "hello-world.toml"
    game.write_bytes((ROOT / "games" / "hello-world.toml").read_bytes())
    app = studio_app(game)
    async with app.run_test(size=(44, 24)) as pilot:
        document = app.screen.document
        document.edit("slower", replace(document.model, round_ms=300))
        await pilot.pause()
        text = str(app.screen.query_one(HeaderTitle).render())
        assert text.endswith("● unsaved") and "…" in text
