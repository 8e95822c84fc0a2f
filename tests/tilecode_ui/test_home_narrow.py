"""The TileCode game home on a narrow screen: the four kinds of each row fit, names cut with "…"."""

from __future__ import annotations

from pathlib import Path

from studio.engines.common.width import text_width
from tests.ui_helpers import studio_app


async def test_at_60_columns_every_kind_fits_the_screen(tc_folder: Path) -> None:
    app = studio_app(tc_folder / "boulder-dash.toml")
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause(0.3)
        view = app.screen.query_one("#home")
        room = view.size.width
        lines = [strip.text.rstrip() for strip in view.lines]
        assert all(text_width(line) <= room for line in lines), [
            line for line in lines if text_width(line) > room]
        labels = next(line for line in lines if line.startswith("s0"))
        assert "s3" in labels, labels  # the last sprite's label is on the screen
