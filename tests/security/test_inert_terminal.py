"""The bytes a real terminal gets (issue 28, item 7): the studio and its commands on a pty, with
names from outside that carry a window title, a clipboard write and a screen clear.

No Textual test harness here: ``studio FOLDER`` and ``studio validate``/``inspect``/``match`` run
as a person runs them, and every byte they write is read back from the pseudo-terminal.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from studio.storage import create_project
from tests.security.escapes import HOSTILE, SHOWN, assert_inert

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pty")

STUDIO = [sys.executable, "-m", "studio"]


def on_a_terminal(argv: list[str], cwd: Path, until: bytes | None = None,
                  timeout: float = 60.0) -> bytes:
    """Everything ``argv`` writes to a 100×30 pty until it ends (or ``until`` has come, when
    the studio itself runs: then it is hung up)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "HOME": str(cwd), "PYTHONPATH": str(Path(__file__).parents[2])}
    process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                               start_new_session=True)
    os.close(slave)
    out = b""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the program ended
                    break
                if not data:
                    break
                out += data
                if until is not None and until in out:
                    # Hung up while still drawing, the last sequence may be cut: the studio's own.
                    out = re.sub(rb"\x1b(\[[0-9;?>]*)?$", b"", out + _rest(master))
                    break
            elif until is None and process.poll() is not None:
                break
    finally:
        os.close(master)
        for sig in (signal.SIGHUP, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                break
            try:
                process.wait(3)
                break
            except subprocess.TimeoutExpired:
                continue
    return out


def _rest(master: int, quiet: float = 0.5, longest: float = 5.0) -> bytes:
    """What the studio writes until it has been quiet for ``quiet`` s: the rest of the frame.

    One read after a fixed pause could stop inside a colour sequence (``ESC [38;5;25``), and
    the check then took that cut sequence for a smuggled one.
    """
    rest = b""
    end = time.monotonic() + longest
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], quiet)
        if not ready:
            break
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        rest += data
    return rest


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    games = tmp_path / "games"
    games.mkdir()
    project = create_project(games, "tilecode", "Good")
    project.path.rename(games / f"{HOSTILE}.toml")
    return games


def test_the_studio_shows_a_hostile_file_name_as_escapes_on_the_terminal(folder: Path) -> None:
    out = on_a_terminal([*STUDIO, "games"], folder.parent, until=b"PWNED")
    text = out.decode("utf-8", "replace")
    assert_inert(text.replace("\r", ""))
    assert "evil\\x1b]0;PWNED\\x07\\x1b]52;c;ZWNobyBoaQ==\\x07\\x1b[2J" in text


def test_validate_and_inspect_show_names_as_escapes_on_the_terminal(folder: Path) -> None:
    path = folder / f"{HOSTILE}.toml"
    out = on_a_terminal([*STUDIO, "validate", str(path)], folder.parent).decode()
    assert_inert(out.replace("\r", ""))
    assert f"{SHOWN}.toml: ok" in out
    # A project's name holds no control or bidi character: refused, naming it by its escape.
    named = folder / "named.toml"
    named.write_text(path.read_text().replace('name = "Good"', 'name = "Bad\\u009b2J\\u202eX"'))
    for command in ("validate", "inspect"):
        out = on_a_terminal([*STUDIO, command, str(named)], folder.parent).decode()
        assert_inert(out.replace("\r", ""))
        assert "project.name: the project name contains a control character (\\x9b)" in out


def test_a_match_shows_what_an_ai_raised_as_escapes_on_the_terminal(tmp_path: Path) -> None:
    ai = tmp_path / "evil.py"
    ai.write_text(f"def main(game_state, side):\n    print({HOSTILE!r})\n"
                  f"    raise ValueError({HOSTILE!r})\n")
    out = on_a_terminal([*STUDIO, "match", str(ai), "builtin:idle", "--rounds", "1"],
                        tmp_path).decode()
    assert_inert(out.replace("\r", ""))
    assert "ValueError: evil\\x1b]0;PWNED" in out


def test_an_error_on_stderr_is_inert_even_piped_and_data_on_stdout_is_exact(
        folder: Path) -> None:
    broken = folder / f"{HOSTILE}.toml"
    broken.write_text("[project\n")
    result = subprocess.run([*STUDIO, "validate", str(broken)], capture_output=True, text=True,
                            cwd=folder.parent, timeout=60)
    assert result.returncode == 1
    assert_inert(result.stderr)
    assert SHOWN in result.stderr
    good = create_project(folder, "btree", "Exported")
    result = subprocess.run([*STUDIO, "inspect", "--json", str(good.path)], capture_output=True,
                            text=True, cwd=folder.parent, timeout=60)
    assert json.loads(result.stdout)["name"] == "Exported"  # piped: a program's data, as it is
