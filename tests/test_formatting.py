"""How screens write values and messages for people."""

from __future__ import annotations

from studio.screens.formatting import counted, fit, marked_lines, summary_value


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
