"""escape typed with the next key in one read is escape and that key, not alt+key
(studio/widgets/terminal_input.py), down to the bytes a terminal sends the studio."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

from studio.widgets.terminal_input import EscapeSplittingParser, split_points

ROOT = Path(__file__).resolve().parent.parent


def keys(*chunks: str) -> list[str]:
    parser = EscapeSplittingParser()
    events = [event for chunk in chunks for event in parser.feed(chunk)]
    events += parser.feed("")
    return [getattr(event, "key", type(event).__name__) for event in events]


@pytest.mark.parametrize(("typed", "read"), [
    ("\x1bn", ["escape", "n"]),
    ("\x1bN", ["escape", "N"]),
    ("\x1b ", ["escape", "space"]),  # Textual alone dropped the escape here
    ("\x1b\r", ["escape", "enter"]),
    ("\x1b?", ["escape", "question_mark"]),
    ("ab\x1bnc", ["a", "b", "escape", "n", "c"]),
    ("\x1b\x1bn", ["escape", "escape", "n"]),
])
def test_escape_then_a_key_in_one_read_is_two_keys(typed: str, read: list[str]) -> None:
    assert keys(typed) == read


@pytest.mark.parametrize(("typed", "read"), [
    ("\x1b[1;3A", ["alt+up"]),  # sequences are untouched
    ("\x1b[A", ["up"]),
    ("\x1bOP", ["f1"]),
    ("\x1b[15~", ["f5"]),
    ("\x1b", ["escape"]),
])
def test_sequences_are_read_as_before(typed: str, read: list[str]) -> None:
    assert keys(typed) == read


def test_a_sequence_split_across_reads_is_still_one_key() -> None:
    assert keys("\x1b", "[A") == ["up"]
    assert keys("x\x1b", "[1;3B") == ["x", "alt+down"]


def test_pasted_text_is_not_taken_apart() -> None:
    points, pasting = split_points("\x1b[200~a\x1bnb", False)
    assert points == [] and pasting
    points, pasting = split_points("c\x1b[201~\x1bn", True)
    assert points == [len("c\x1b[201~\x1b")] and not pasting


def test_the_studio_reads_keys_with_it() -> None:
    from textual.drivers import linux_driver

    from studio.app import StudioApp

    StudioApp(ROOT / "games")
    assert linux_driver.XTermParser is EscapeSplittingParser


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pty")
def test_escape_and_n_sent_together_close_help_and_start_a_new_project(tmp_path: Path) -> None:
    """As over SSH: ESC and the next key in one packet. Before, the help stayed open."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "studio", str(ROOT / "games")],
                               stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path,
                               start_new_session=True)
    os.close(slave)
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)

    def wait_for(text: str, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in "\n".join(screen.display):
                return
            if select.select([master], [], [], 0.1)[0]:
                stream.feed(os.read(master, 65536))
        raise AssertionError(f"{text!r} never showed:\n" + "\n".join(screen.display))

    try:
        wait_for("TileCode Sokoban")
        os.write(master, b"?")
        wait_for("Focus Previous")  # a row of the help's list of keys
        os.write(master, b"\x1bn")
        wait_for("New project")
    finally:
        os.close(master)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
