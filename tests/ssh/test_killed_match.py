"""A match whose session is killed outright (SIGKILL: no hang-up handler runs) keeps its partial
replay (issue 30, "Nothing lost"): the match's live feed, written turn by turn, becomes the
replay the next time the project's replays are listed."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from studio.engines.haunted import replay as replays
from studio.sessions.haunted.replays import list_replays
from studio.storage.haunted.replay import load_replay
from tests.ssh.conftest import alive
from tests.ssh.test_hangup import replays as saved_replays, shared, start_match  # noqa: F401
from tests.ssh.terminal import RemoteTerminal
from tests.ssh.test_server import session_pids, wait_until


async def test_a_killed_session_s_match_keeps_its_partial_replay(make_server, client_key,
                                                                 shared: Path) -> None:  # noqa: F811
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key, size=(100, 30))
    await start_match(terminal)
    [pid] = session_pids(server)
    started = time.monotonic()
    while time.monotonic() - started < 3:  # a few turns played
        await asyncio.sleep(0.1)
    [feed] = (shared / "replays").glob("*.live.jsonl")
    assert saved_replays(shared) == []
    os.kill(pid, signal.SIGKILL)
    await wait_until(lambda: not alive(pid), 30)
    await terminal.close()
    assert saved_replays(shared) == []  # nothing could be saved on the way out
    [path] = list_replays(shared)
    assert path.name == feed.name.removesuffix(".live.jsonl") + ".json.gz"
    assert not feed.exists()
    replay = load_replay(path)
    assert replay["result"]["aborted"] is True
    assert replay["rounds"] and replay["rounds"][-1]["turns"]
    assert replays.verify(replay) == []
