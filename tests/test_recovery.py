"""Nothing made is lost when the studio fails: an unexpected error ends the app (Textual's rule),
and before it does, every unsaved project is written aside as a new "NAME (recovered)" project."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from studio.storage import load_project
from tests.conftest import ROOT
from tests.ui_helpers import studio_app


async def test_an_unexpected_error_keeps_the_unsaved_project_as_a_new_one(tmp_path: Path) -> None:
    game = tmp_path / "hello-world.toml"
    shutil.copy(ROOT / "games" / "hello-world.toml", game)
    before = game.read_bytes()
    app = studio_app(game)

    def boom() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            document = app.screen.document
            document.edit("seed", replace(document.model, seed=12345))
            app.call_later(boom)
            await pilot.pause()
    assert game.read_bytes() == before  # the file itself is not touched
    assert [p.name for p in app.recovered] == ["hello-world-recovered.toml"]
    kept = load_project(app.recovered[0])
    assert kept.name == "Hello World (recovered)"
    assert kept.body["game"]["seed"] == 12345
    assert app.return_code == 1


async def test_nothing_is_written_when_nothing_was_unsaved(tmp_path: Path) -> None:
    game = tmp_path / "hello-world.toml"
    shutil.copy(ROOT / "games" / "hello-world.toml", game)
    app = studio_app(game)

    def boom() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.call_later(boom)
            await pilot.pause()
    assert app.recovered == [] and sorted(p.name for p in tmp_path.iterdir()) == [
        "hello-world.toml"]
