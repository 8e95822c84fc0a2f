"""A Haunted match running when its client goes keeps its partial replay, as ``q`` does locally
(issue 28): the hang-up (a dropped link, the server stopping) ends the studio the ordinary way."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from tests.ssh.conftest import ROOT, alive
from tests.ssh.terminal import RemoteTerminal
from tests.ssh.test_server import session_pids, wait_until


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(ROOT / "games" / "haunted-tiles.toml", folder)
    return folder


def replays(folder: Path) -> list[dict]:
    return [json.loads(gzip.decompress(path.read_bytes()))
            for path in sorted((folder / "replays").glob("*.json.gz"))]


async def start_match(terminal: RemoteTerminal) -> None:
    await terminal.wait_for("Haunted Tiles")
    await terminal.press("enter")
    await terminal.wait_for("New match")
    await terminal.press("m")
    await terminal.wait_for("Start")
    await terminal.press("f5")
    await terminal.wait_for("s/turn")  # the match view, playing at its pace


@pytest.mark.parametrize("how", ["link dropped", "server stopped"])
async def test_a_match_cut_off_keeps_its_partial_replay(make_server, client_key, shared: Path,
                                                        how: str) -> None:
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key, size=(100, 30))
    await start_match(terminal)
    [pid] = session_pids(server)
    started = time.monotonic()
    while time.monotonic() - started < 3:  # a few turns played
        await asyncio.sleep(0.1)
    assert replays(shared) == []
    if how == "link dropped":
        terminal.conn.abort()  # no goodbye
    else:
        await server.close()
    await wait_until(lambda: not alive(pid) and not server.sessions, 30)
    [replay] = replays(shared)
    assert replay["result"]["aborted"] is True
    assert replay["rounds"][-1]["aborted"] is True
    assert any(record["turns"] for record in replay["rounds"])  # what was played is kept


@pytest.mark.parametrize("sig, code", [(signal.SIGHUP, 129), (signal.SIGTERM, 143)],
                         ids=["SIGHUP", "SIGTERM"])
async def test_the_studio_exits_with_128_plus_the_signal_it_was_ended_by(
        make_server, client_key, sig: signal.Signals, code: int) -> None:
    """The shells' convention: 129 for a hang-up, 143 for SIGTERM (before: 129 for both)."""
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key, size=(100, 30))
    await terminal.wait_for("Haunted Tiles")
    [pid] = session_pids(server)
    os.kill(pid, sig)
    await asyncio.wait_for(terminal.closed.wait(), 15)
    assert terminal.exit_status == code
    await terminal.close()
    await wait_until(lambda: not alive(pid) and len(server.log) == 1)
    assert f"ended=studio exited ({code})" in server.log[0]
