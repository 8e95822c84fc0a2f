"""Fixtures for the Haunted Tiles screens: a games folder with a copy of the bundled project."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, fix_times


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
