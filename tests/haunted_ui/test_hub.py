"""The Haunted Tiles hub: every entry opens its screen, by key and from the menu."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.screens.haunted.hub import HubScreen
from studio.screens.haunted.rules import RulesScreen
from tests.ui_helpers import studio_app


async def test_the_hub_opens_with_the_project_and_escape_leaves(ht_project: Path) -> None:
    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hub = app.screen
        assert isinstance(hub, HubScreen)
        about = str(hub.query_one("#about").render())
        assert "10 maps · 5 teams · 1 tournament · 0 replays" in about
        await pilot.press("h")
        assert isinstance(app.screen, RulesScreen)
        (ht_project.parent / "replays").mkdir(exist_ok=True)
        (ht_project.parent / "replays" / "played-meanwhile.json.gz").write_bytes(b"")
        await pilot.press("escape")
        assert app.screen is hub
        assert "tournament · 1 replay" in str(hub.query_one("#about").render())
        await pilot.press("escape")
        assert not isinstance(app.screen, HubScreen)


async def test_the_hub_counts_a_map_that_cannot_be_played_and_says_so(ht_project: Path) -> None:
    from studio.engines.haunted.map_edit import paint
    from studio.storage.haunted.maps import draft_of, with_draft

    app = studio_app(ht_project)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hub = app.screen
        model = hub.model
        hub.document.edit("break", with_draft(model, 0, paint(draft_of(model.map_tables[0], 0),
                                                              0, 0, 0)))
        await pilot.pause()
        about = " ".join(str(hub.query_one("#about").render()).split())
        assert "10 maps (1 not playable)" in about  # it said "9 maps"
        assert "Default ✗" in about


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_hub_snapshot(snap_compare, ht_project: Path, size) -> None:
    assert snap_compare(studio_app(ht_project), terminal_size=size)
