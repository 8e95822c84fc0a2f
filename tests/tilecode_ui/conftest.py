"""Fixtures for the TileCode screens: a games folder with copies of the bundled samples."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.storage import create_project
from tests.conftest import ROOT, fix_times


@pytest.fixture
def tc_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``games/`` (relative, so titles stay short) with Hello World, Boulder Dash and a new game."""
    monkeypatch.chdir(tmp_path)
    folder = Path("games")
    folder.mkdir()
    for name in ("hello-world.toml", "boulder-dash.toml"):
        shutil.copy(ROOT / "games" / name, folder / name)
    create_project(folder, "tilecode", "Blank")
    fix_times(folder)
    return folder
