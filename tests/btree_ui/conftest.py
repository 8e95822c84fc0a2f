"""Fixtures for the behaviour-tree screens: a games folder with copies of bundled btree games."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, fix_times


@pytest.fixture
def bt_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``games/`` (relative, so titles stay short) with some bundled behaviour-tree games."""
    monkeypatch.chdir(tmp_path)
    folder = Path("games")
    folder.mkdir()
    for name in ("tic-tac-toe.toml", "sokoban.toml", "eight-puzzle.toml", "connect-four.toml",
                 "peg-solitaire.toml"):
        shutil.copy(ROOT / "games" / name, folder / name)
    fix_times(folder)
    return folder
