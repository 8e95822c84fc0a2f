"""Spectators share a studio (issue 30): one process draws the spectator screen for every
spectator whose terminal fits it; each joins on a whole frame, leaves with ``q``, and one that
stops reading misses frames without holding the others up. Logged in over SSH with asyncssh
clients, against a real server and real studio processes."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from studio.sessions.haunted.tournament import TournamentRun, project_plan
from studio.ssh.broadcast import RESIZE_QUIET, Viewer
from studio.ssh.client_terminal import RESTORE_TERMINAL
from studio.ssh.server import ServeConfig, StudioSSH
from studio.storage import load_project
from studio.storage.haunted.project import project_model
from tests.ssh.conftest import alive, asyncssh
from tests.ssh.test_hangup import shared  # noqa: F401 (a Haunted Tiles project's folder)
from tests.ssh.terminal import RemoteTerminal
from tests.ssh.test_served_paths import wait_words
from tests.ssh.test_server import wait_until

WAITING = "nothing is being played yet"
SHARED = "all spectators (one shared view)"


@pytest.fixture
def keys():
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(4)]


@pytest.fixture
async def make_server(tmp_path: Path, shared: Path, keys):
    roster = tmp_path / "roster.toml"
    roster.write_text("".join(
        f'[[person]]\nname = "Fan {k}"\nrole = "spectator"\n'
        f'keys = ["{key.export_public_key().decode().strip()}"]\n\n' for k, key in enumerate(keys)))
    servers: list[StudioSSH] = []

    async def make(**options) -> StudioSSH:
        log: list[str] = []
        server = StudioSSH(ServeConfig(folder=shared, authorized_keys=tmp_path / "none", port=0,
                                       host_key=asyncssh.generate_private_key("ssh-ed25519"),
                                       roster=roster, log=log.append, **options))
        server.log = log  # type: ignore[attr-defined]
        await server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        await server.close()


async def watch(server: StudioSSH, key, size=(120, 34), **options) -> RemoteTerminal:
    terminal = await RemoteTerminal.open(server.port, key, size=size, **options)
    await wait_words(terminal, WAITING, timeout=60)
    return terminal


def view_pids(server: StudioSSH) -> list[int]:
    return [view.process.pid for view in server.broadcasts.views.values()
            if view.process is not None]


def play_the_cup(folder: Path, pace: float = 0.02) -> threading.Thread:
    """The project's cup played beside the server, as a teacher's run would be."""
    model = project_model(load_project(folder / "haunted-tiles.toml"))
    table = model.tournaments()[0]
    plan = replace(project_plan(table, model.teams(), model.maps(), model.config(), folder,
                                in_process=True), pace=pace)
    run = threading.Thread(target=TournamentRun(plan).run, daemon=True)
    run.start()
    return run


async def test_spectators_of_a_size_share_one_studio_and_each_gets_the_whole_screen(
        make_server, keys) -> None:
    server = await make_server()
    first = await watch(server, keys[0], (120, 34))
    await first.settle()
    # Joins a view already drawn: its whole screen comes from the frame drawn again for it.
    second = await watch(server, keys[1], (125, 36))
    assert len(server.broadcasts.views) == 1 and len(view_pids(server)) == 1
    for terminal in (first, second):
        await wait_words(terminal, SHARED, "Quit")
        assert "watch" in terminal.screen.display[0]
        footer = terminal.screen.display[29]  # the view is 120 × 30, drawn at the top left
        assert "Quit" in footer and "Bracket" not in footer and "Help" not in footer, footer
    small = await watch(server, keys[2], (80, 24))
    assert len(server.broadcasts.views) == 2
    await wait_words(small, SHARED)

    # Keys reach no view: whatever the first presses, the second sees the same screen.
    await second.settle()
    before = second.text()
    await first.press("b", "l", "?", "escape", "enter", "t", "up", "ctrl+o", pause=0.1)
    first.chan.write(bytes(range(1, 32)).replace(b"\x03", b"").replace(b"\x04", b"") * 200)
    first.chan.write(b"\x1bOQ\x1b[1;5Q\x1bq")  # f2, ctrl+f2, alt+q: other keys than q
    await asyncio.sleep(0.5)
    await second.settle()
    assert second.text() == before and first.exit_status is None

    # q leaves: a clean exit, the terminal put back; the view goes on for the other.
    pid = view_pids(server)[0]
    first.kept = bytearray()
    await first.press("q")
    await asyncio.wait_for(first.closed.wait(), 10)
    assert first.exit_status == 0 and bytes(first.kept).startswith(RESTORE_TERMINAL)
    assert alive(pid) and len(server.broadcasts.views) == 2
    second.chan.write(b"\x03")  # ctrl+c leaves too
    await asyncio.wait_for(second.closed.wait(), 10)
    assert second.exit_status == 0
    # Nobody on it any more: the view's studio ends and is reaped.
    await wait_until(lambda: not alive(pid), timeout=15)
    assert len(server.broadcasts.views) == 1
    await small.close()
    await wait_until(lambda: not server.broadcasts.views and not server.sessions)
    for terminal in (first, second):
        await terminal.close()
    await wait_until(lambda: len(server.log) == 3)
    assert any("name=Fan_0 role=spectator" in line for line in server.log), server.log


async def test_a_run_reaches_every_spectator_and_one_that_stops_reading_holds_nobody_up(
        make_server, keys, shared: Path) -> None:
    server = await make_server()
    reader = await watch(server, keys[0])
    # A small receive window: unread, the server's channel to it fills within a few frames.
    stopped = await watch(server, keys[1], window=8192)
    stopped.chan.pause_reading()
    run = play_the_cup(shared)
    viewer = next(s.process for s in server.sessions if s.process is not None
                  and s.connection.person.name == "Fan 1")
    assert isinstance(viewer, Viewer)
    await wait_until(lambda: viewer.held, timeout=30)
    await wait_words(reader, "the tournament is over", timeout=120)
    assert viewer.held and viewer not in viewer.broadcast.viewers
    run.join(10)
    # It reads again: back in on a whole frame, the run's end on its screen.
    stopped.chan.resume_reading()
    await wait_words(stopped, "the tournament is over", timeout=30)
    assert not viewer.held
    await reader.close()
    await stopped.close()


async def test_a_window_resized_moves_to_the_view_of_its_size_once_it_keeps_it(
        make_server, keys) -> None:
    server = await make_server(max_sessions=2)
    terminal = await watch(server, keys[0], (120, 34))
    big = view_pids(server)[0]
    # A drag of the window's edge through many sizes: no studio started for each.
    for k in range(60):
        cols, rows = ((80, 24), (160, 50), (100, 30))[k % 3]
        terminal.resize(cols + k % 7, rows + k % 5)
        await asyncio.sleep(0.005)
    terminal.resize(80, 24)
    assert len(server.broadcasts.views) == 1
    await asyncio.sleep(RESIZE_QUIET + 0.2)
    await wait_until(lambda: list(server.broadcasts.views)[0][0] == (80, 24))
    await wait_words(terminal, SHARED, WAITING)
    await wait_until(lambda: not alive(big), timeout=15)  # the old view had no one left
    await terminal.close()


async def test_a_spectator_needing_one_studio_more_than_the_server_may_run_is_refused(
        make_server, keys) -> None:
    server = await make_server(max_sessions=1)
    first = await watch(server, keys[0], (120, 34))
    same = await watch(server, keys[1], (130, 35))  # the same view: no more studios
    other = await RemoteTerminal.open(server.port, keys[2], size=(80, 24), keep=True)
    await asyncio.wait_for(other.closed.wait(), 15)
    assert b"the server is full" in other.kept
    assert len(view_pids(server)) == 1
    for terminal in (first, same, other):
        await terminal.close()


async def test_without_sharing_each_spectator_has_a_studio_of_their_own(make_server, keys) -> None:
    server = await make_server(shared_spectators=False)
    terminal = await watch(server, keys[0])
    await wait_words(terminal, "Fan 0 (spectator)")
    assert not server.broadcasts.views
    await terminal.press("b")  # their own: the key is theirs to use
    await terminal.close()
