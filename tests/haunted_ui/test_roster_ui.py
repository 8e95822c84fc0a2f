"""The roster screen (``R`` in Teams & AIs) of a teacher's session: everyone, and changes sent
through the server's channel (here: the server's own code on a socket pair, in a thread)."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path

import pytest
from textual.widgets import DataTable

from studio.screens.haunted.roster import RosterScreen
from studio.sessions import roster_channel
from studio.ssh import roster_service
from studio.storage.roster import load_roster
from tests.haunted_ui.teams_helpers import fill, open_teams
from tests.test_roster_access import KEY_A, KEY_B
from tests.test_roster_edit import KEY_C
from tests.ui_helpers import studio_app, wait_until

ROSTER = f'''[[person]]
name = "Ms Rivera"
role = "teacher"
keys = ["{KEY_A}"]

[[person]]
name = "Ann"
role = "student"
team = "Greedy Ghosts"
keys = ["{KEY_B}"]
'''


def _login(line: str) -> tuple[str, bytes]:
    import base64

    kind, blob = line.split()[:2]
    return kind, base64.b64decode(blob)


@pytest.fixture
def channel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A teacher's session: the roster outside the project's folder, served over a socket."""
    roster = tmp_path / "server" / "roster.toml"
    roster.parent.mkdir()
    roster.write_text(ROSTER)
    ours, theirs = socket.socketpair()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, daemon=True,
                              args=(roster_service.serve(ours, roster, _login(KEY_A)),))
    thread.start()
    monkeypatch.setenv(roster_channel.ENV, str(theirs.fileno()))
    monkeypatch.setattr(roster_channel, "_channel", None)
    yield roster
    theirs.close()
    thread.join(5)


async def roster_screen(pilot) -> RosterScreen:
    await open_teams(pilot)
    await pilot.press("R")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, RosterScreen), "no roster screen")
    return pilot.app.screen


async def test_a_teacher_adds_a_person_and_a_refusal_keeps_the_form(ht_project: Path, channel: Path) -> None:
    async with studio_app(ht_project).run_test(size=(100, 30)) as pilot:
        screen = await roster_screen(pilot)
        table = screen.query_one(DataTable)
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == ["Ms Rivera", "Ann"]
        await pilot.press("a")
        await fill(pilot, name="Bea", role="student", team="No Such Team", key=KEY_C)
        await pilot.press("enter")
        form = pilot.app.screen
        assert "the project has no team 'No Such Team'" in str(form.query_one("#problem").render())
        await fill(pilot, team="Idle Imps")
        await pilot.press("enter")
        await wait_until(pilot, lambda: pilot.app.screen is screen, "the form stayed open")
        assert [p.name for p in load_roster(channel).people] == ["Ms Rivera", "Ann", "Bea"]
        assert table.row_count == 3
        await pilot.press("down", "down", "d", "y")  # Bea again
        await wait_until(pilot, lambda: table.row_count == 2, "not removed")
        assert [p.name for p in load_roster(channel).people] == ["Ms Rivera", "Ann"]


async def test_the_last_teacher_stays_and_says_why(ht_project: Path, channel: Path) -> None:
    async with studio_app(ht_project).run_test(size=(100, 30)) as pilot:
        await roster_screen(pilot)
        await pilot.press("d", "y")
        await wait_until(pilot, lambda: any("no teacher" in n.message
                                            for n in pilot.app._notifications), "no refusal")
        assert "Ms Rivera" in channel.read_text()


async def test_without_a_channel_r_says_where_the_roster_is_changed(ht_project: Path,
                                                                   monkeypatch) -> None:
    monkeypatch.delenv(roster_channel.ENV, raising=False)
    monkeypatch.setattr(roster_channel, "_channel", None)
    async with studio_app(ht_project).run_test(size=(100, 30)) as pilot:
        teams = await open_teams(pilot)
        await pilot.press("R")
        await pilot.pause()
        assert pilot.app.screen is teams
        assert any("studio roster FILE" in n.message for n in pilot.app._notifications)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_roster_screen_snapshot(snap_compare, ht_project: Path, channel: Path, size) -> None:
    async def run(pilot) -> None:
        await roster_screen(pilot)
        await pilot.pause(0.2)

    assert snap_compare(studio_app(ht_project), terminal_size=size, run_before=run)
