"""The fairness check's toast follows the check: an edit that makes the map unfair replaces a
"Fair" toast that was still up beside the pane's "✗ not fair"."""

from __future__ import annotations

from pathlib import Path

from tests.haunted_ui.test_map_editor import open_editor, tools
from tests.ui_helpers import studio_app


def toasts(app) -> list[str]:
    return [str(note.message) for note in app._notifications]


async def test_a_fair_toast_does_not_outlive_the_map_being_fair(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(pilot, "right_square_bracket", "c")
        await pilot.pause()
        assert any(note.startswith("Fair: ") for note in toasts(app))
        await pilot.press("down", "right", "2")
        await pilot.pause()
        assert "✗ not fair" in tools(editor)
        assert not any(note.startswith("Fair: ") for note in toasts(app)), toasts(app)
        assert any(note.startswith("Not fair") for note in toasts(app))
        await pilot.press("3")  # fair again: said once more, in place
        await pilot.pause()
        assert [n for n in toasts(app) if "air" in n] == ["Fair: top/bottom and point"]
