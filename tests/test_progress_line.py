"""The CLI's progress line: redrawn in place on a terminal, a line each elsewhere, never
obeying what it quotes (worker hosts and reasons come from the cluster)."""

from __future__ import annotations

import io

from studio.commands.progress import ProgressLine


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_line_is_drawn_over_and_cleared_before_other_output() -> None:
    out = Terminal()
    line = ProgressLine(out)
    line.show("[#---] 1/4 done")
    line.show("[##--] 2/4 done")
    line.clear()
    line.clear()  # nothing shown: nothing written
    line.show("[####] 4/4 done")
    line.end()
    assert out.getvalue() == ("\r\x1b[K[#---] 1/4 done\r\x1b[K[##--] 2/4 done\r\x1b[K"
                              "\r\x1b[K[####] 4/4 done\n")


def test_a_line_wider_than_the_terminal_is_cut_so_it_can_be_drawn_over(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "30")
    out = Terminal()
    ProgressLine(out).show("x" * 100)
    assert out.getvalue() == "\r\x1b[K" + "x" * 29


def test_elsewhere_each_state_is_a_line_of_its_own() -> None:
    out = io.StringIO()
    line = ProgressLine(out)
    line.show("1/2 done")
    line.clear()
    line.show("2/2 done")
    line.end()
    assert out.getvalue() == "1/2 done\n2/2 done\n"


def test_what_it_quotes_is_shown_not_obeyed() -> None:
    out = Terminal()
    ProgressLine(out).show("busy/workers \x1b]0;pwned\x07evil 1/2")
    assert "\x1b]0" not in out.getvalue() and "\x07" not in out.getvalue()


def test_through_the_cli_s_inert_stderr_the_line_is_still_drawn_over() -> None:
    from studio.cli import InertStream

    out = Terminal()
    line = ProgressLine(InertStream(out))
    line.show("1/2 \x1b[31mred")
    line.show("2/2 done")
    assert out.getvalue() == "\r\x1b[K1/2 \\x1b[31mred\r\x1b[K2/2 done"
