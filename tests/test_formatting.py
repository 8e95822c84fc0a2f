"""How screens write values and messages for people."""

from __future__ import annotations

from studio.screens.formatting import marked_lines, summary_value


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
