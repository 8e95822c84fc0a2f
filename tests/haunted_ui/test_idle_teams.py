"""Nothing repaints when nothing changes on Teams & AIs and in the AI editor (SSH bytes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.haunted_ui.teams_helpers import GOOD_AI, add_file_team, finish, write_ai
from tests.tilecode_ui.test_idle import count_bytes
from tests.ui_helpers import idle_bytes, studio_app


@pytest.mark.parametrize("keys", [("a",), ("a", "enter"), ("a", "a"), ("a", "t"),
                                  ("a", *["down"] * 5, "e"),
                                  ("a", *["down"] * 5, "e", "x", "f6")],
                         ids=["teams", "fields", "add", "tested", "editor", "editor-checked"])
async def test_idle_team_screens_write_nothing(ht_project: Path, keys) -> None:
    write_ai(ht_project.parent, "good.py", GOOD_AI)
    add_file_team(ht_project, "Good Bot", "ais/good.py")
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "full"  # as people run it: blinking would be on if anything blinks
        await pilot.pause()
        await pilot.press(*keys)
        await finish(pilot)
        assert await idle_bytes(app, count_bytes(app)) == 0
