"""The choice list's lines (play's choice pane): what tells moves apart first, cuts marked."""

from __future__ import annotations

from studio.engines.btree.model.text import choice_lines, fit_text, text_width


def flip(row: int, col: int) -> dict:
    return {"row": row, "col": col, "desc": "flip", "button": None,
            "lhs": {"main": [["o", "o", "o"], ["o", "o", "o"]]},
            "rhs": {"main": [["x", "x", "x"], ["x", "x", "x"]]}}


def test_moves_alike_but_for_their_place_show_the_place_within_a_narrow_pane() -> None:
    lines = choice_lines([flip(r, c) for r in range(4) for c in range(4)], 20)
    assert len(set(lines)) == 16  # lights-out: sixteen moves, sixteen different lines
    assert lines[5].startswith(" 6 @1,1 ")
    assert all(text_width(line) <= 20 and line.endswith("…") for line in lines)


def test_a_part_that_differs_comes_before_the_parts_every_move_shares() -> None:
    car = {"row": 3, "col": 1, "desc": None, "button": None,
           "lhs": {"main": [["CR", "CR", "__"]]}, "rhs": {"main": [["__", "CR", "CR"]]}}
    truck = {"row": 1, "col": 5, "desc": None, "button": None,
             "lhs": {"main": [["T1"], ["__"]]}, "rhs": {"main": [["__"], ["T1"]]}}
    lines = choice_lines([car, truck])
    assert lines == [" 1 @3,1 CR CR __ → __ CR CR move", " 2 @1,5 T1; __ → __; T1 move"]


def test_cuts_count_wide_characters_as_two_cells() -> None:
    up = {"row": 7, "col": 11, "desc": None, "button": "up",
          "lhs": {"main": [["_"], ["👷"]]}, "rhs": {"main": [["👷"], ["_"]]}}
    (line,) = choice_lines([up], 40)
    assert line == " 1 [↑] @7,11 move _; 👷 → 👷; _"
    assert fit_text(line, 20) == " 1 [↑] @7,11 move _…"
    assert text_width(fit_text("ab👷👷", 4)) <= 4 and fit_text("ab👷👷", 4) == "ab…"
