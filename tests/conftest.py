"""Shared fixtures. UI tests run with a fixed clock zone, fixed file times and fixed sizes."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import settings

from studio.storage import create_project

# Every run draws the same property-test examples, on CI or not (it used to depend on a CI
# variable that `.ci/run` did not set): a failure fails the same way for whoever runs it, and a
# green run means the same thing everywhere. `--hypothesis-profile=explore` draws new examples
# (and replays the failures it found before, from .hypothesis/).
settings.register_profile("repeatable", deadline=None, derandomize=True, database=None)
settings.register_profile("explore", deadline=None)
settings.load_profile("repeatable")

os.environ["TZ"] = "UTC"
time.tzset()

ROOT = Path(__file__).resolve().parent.parent
FIXED_TIME = 1_795_000_000  # 2026-11-18 10:13 UTC: file times shown on the home screen

BROKEN_TEXT = '[project]\nkind = "btree"\nname = "Broken"\nformat = 1\n\n[[node]\nat = []\n'


def fix_times(folder: Path) -> None:
    for path in folder.iterdir():  # projects, replays and trrbt files alike
        if path.is_file():
            os.utime(path, (FIXED_TIME, FIXED_TIME))


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `games` folder (the cwd's) with one project of each kind; paths shown stay relative."""
    monkeypatch.chdir(tmp_path)
    folder = Path("games")
    folder.mkdir()
    create_project(folder, "btree", "Maze Runner")
    create_project(folder, "tilecode", "Boulder Sketch")
    create_project(folder, "haunted", "Spooky Cup")
    fix_times(folder)
    return folder


@pytest.fixture
def games_with_broken(games: Path) -> Path:
    (games / "broken.toml").write_text(BROKEN_TEXT)
    fix_times(games)
    return games


@pytest.fixture
def empty_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = Path("games")
    folder.mkdir()
    return folder


@pytest.fixture
def sample_games(tmp_path: Path) -> Path:
    """A copy of the bundled games/ folder."""
    target = tmp_path / "games"
    shutil.copytree(ROOT / "games", target)
    return target


# The whole suite runs on every core; the syrupy check that xdist would lose is kept there.
pytest_plugins = ["tests.parallel"]


@pytest.fixture
def ht_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``games/`` (relative, so titles stay short) holding ``haunted-tiles.toml``."""
    monkeypatch.chdir(tmp_path)
    folder = Path("games")
    folder.mkdir()
    shutil.copy(ROOT / "games" / "haunted-tiles.toml", folder / "haunted-tiles.toml")
    fix_times(folder)
    return folder


@pytest.fixture
def ht_project(ht_folder: Path) -> Path:
    return ht_folder / "haunted-tiles.toml"
