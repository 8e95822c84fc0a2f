"""The studio never dies of a file in its folder (issue 28): the home screen starts on a folder
holding a project nested 100,000 deep, a FIFO, a link to /dev/zero and a dangling link, lists
each as broken, opens none of them, and stays up; ``studio validate`` on each says why in one
line and exits 1.

Before, the deep file ended the studio at start (over SSH, every login at once), the FIFO hung
``studio validate`` and the link to /dev/zero filled the memory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import DataTable

from studio.screens.dialogs import ErrorDialog
from studio.screens.home import HomeScreen
from studio.storage import create_project, scan_folder
from tests.ui_helpers import SIZE, studio_app

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="FIFOs and /dev/zero are POSIX's")

HOSTILE = ("deep.toml", "fifo.toml", "zero.toml", "dangling.toml")
DEEP = ('[project]\nkind = "btree"\nname = "Deep"\nformat = 1\n\n[btree]\nseed = '
        + "[" * 100_000 + "]" * 100_000 + "\n")
"""The reported attack: a project file nested 100,000 deep."""


def hostile_folder(folder: Path) -> Path:
    """``folder`` with a good project and the four hostile files beside it."""
    folder.mkdir(exist_ok=True)
    create_project(folder, "tilecode", "Good Game")
    (folder / "deep.toml").write_text(DEEP)
    os.mkfifo(folder / "fifo.toml")
    (folder / "zero.toml").symlink_to("/dev/zero")
    (folder / "dangling.toml").symlink_to(folder / "gone.toml")
    (folder / "folder.toml").mkdir()  # a folder is no project: not listed
    return folder


@pytest.fixture(autouse=True)
def deadline():
    """A reader that blocks (a FIFO opened the old way) blocks the app's event loop too, where
    no asyncio timeout can fire: an alarm ends such a test as a failure instead of a hang."""
    def hung(_signum, _frame):
        raise TimeoutError("the studio hung on a file for 60 s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, 60)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return hostile_folder(Path("games"))


def test_scanning_lists_every_hostile_file_with_its_error(hostile: Path) -> None:
    entries = {entry.path.name: entry for entry in scan_folder(hostile)}
    assert sorted(entries) == sorted([*HOSTILE, "good-game.toml"])
    assert entries["good-game.toml"].error is None
    reasons = {name: str(entries[name].error) for name in HOSTILE}
    assert "nest more than 128 deep" in reasons["deep.toml"]
    assert "games/deep.toml:7:" in reasons["deep.toml"]
    assert "FIFO" in reasons["fifo.toml"]
    assert "character device" in reasons["zero.toml"]
    assert "does not exist" in reasons["dangling.toml"]
    assert all(entries[name].project is None for name in HOSTILE)


def test_a_reader_s_bug_lists_the_file_broken_instead_of_raising(
        hostile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def buggy(path):
        raise KeyError("tiles")

    monkeypatch.setattr("studio.storage.folder.load_project", buggy)
    entries = scan_folder(hostile)
    assert all(entry.error is not None for entry in entries)
    assert "KeyError" in str(entries[0].error) and "report" in entries[0].error.hint


def test_the_folder_s_stamp_survives_a_dangling_link(hostile: Path) -> None:
    from studio.storage import folder_stamp

    names = [name for name, _size, _time in folder_stamp(hostile)]
    assert "dangling.toml" in names and "zero.toml" in names


async def test_the_home_screen_starts_lists_them_broken_and_stays_up(hostile: Path) -> None:
    async with studio_app(hostile).run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, HomeScreen)
        table = screen.query_one(DataTable)
        kinds = {entry.path.name: str(table.get_row_at(row)[1])
                 for row, entry in enumerate(screen.entries)}
        assert {name: kinds[name] for name in HOSTILE} == dict.fromkeys(HOSTILE, "⚠ broken")
        assert kinds["good-game.toml"] == "TileCode"
        for row, entry in enumerate(screen.entries):  # each one's reason, one at a time
            table.move_cursor(row=row)
            await pilot.pause()
            if entry.path.name in HOSTILE:
                await pilot.press("enter")  # opening it shows the error, and nothing reads it
                assert isinstance(pilot.app.screen, ErrorDialog)
                await pilot.press("escape")
                assert isinstance(pilot.app.screen, HomeScreen)
        await pilot.press("f5")  # reading the folder again
        await pilot.pause()
        assert pilot.app.is_running and isinstance(pilot.app.screen, HomeScreen)
        assert len(pilot.app.screen.entries) == 5


async def test_starting_on_a_fifo_shows_the_error(hostile: Path) -> None:
    async with studio_app(hostile / "fifo.toml").run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, ErrorDialog)
        assert "FIFO" in str(pilot.app.screen.error)
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, HomeScreen)


@pytest.mark.parametrize(("name", "reason"), [
    ("deep.toml", "deep.toml:7: lists and tables nest more than 128 deep"),
    ("fifo.toml", "fifo.toml: this is a FIFO (named pipe), not a regular file"),
    ("zero.toml", "zero.toml: this is a character device, not a regular file"),
    ("dangling.toml", "dangling.toml: the link points to a file that does not exist"),
    ("folder.toml", "folder.toml: this is a folder, not a file"),
])
def test_validate_says_why_in_one_line_and_exits_1(hostile: Path, name: str, reason: str) -> None:
    result = subprocess.run([sys.executable, "-m", "studio", "validate", f"games/{name}"],
                            capture_output=True, text=True, timeout=30, cwd=hostile.parent)
    assert result.returncode == 1
    assert result.stderr.startswith(f"studio: games/{reason}")
    assert result.stderr.count("\n") == 1, "one line, no traceback"
    assert result.stdout == ""
