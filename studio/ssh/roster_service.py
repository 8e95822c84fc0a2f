"""The server's end of a teacher session's roster channel (:mod:`studio.sessions.roster_channel`).

Only a session whose person the roster calls a teacher gets one. The server reads one request a
line (at most ``MAX_LINE`` bytes: a longer one closes the channel), carries it out off the event
loop, answers, and takes the next no sooner than :data:`PACE` later, so a session flooding it
costs the server little. The channel ends with the session (its end closes).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from studio.sessions.roster_channel import ENV, MAX_LINE, answer

PACE = 0.05
"""Seconds between two requests of one session at the least."""

_tasks: set[asyncio.Task] = set()


@contextlib.contextmanager
def for_session(roster: Path | None, connection: Any, env: dict[str, str]) -> Iterator[tuple[int, ...]]:
    """Around starting a session's process: the descriptors it inherits (its end of a channel
    when it is a teacher's with a roster, else none), served once the process has started."""
    person = getattr(connection, "person", None)
    login_key = getattr(connection, "login_key", None)
    if roster is None or person is None or person.role != "teacher" or login_key is None:
        yield ()
        return
    ours, theirs = socket.socketpair()
    env[ENV] = str(theirs.fileno())
    try:
        yield (theirs.fileno(),)
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()  # the session holds its copy
    task = asyncio.get_running_loop().create_task(serve(ours, roster, login_key))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def serve(sock: socket.socket, roster: Path, login_key: tuple[str, bytes]) -> None:
    """Answer the session's requests until it closes its end (or sends a line too long)."""
    reader, writer = await asyncio.open_connection(sock=sock, limit=MAX_LINE)
    try:
        while True:
            try:
                line = await reader.readline()
            except (ValueError, asyncio.LimitOverrunError):
                writer.write(b'{"ok": false, "error": "the request is too long"}\n')
                break
            if not line:
                break
            try:
                request = json.loads(line)
            except ValueError:
                request = None
            reply = await asyncio.to_thread(answer, roster, login_key, request)
            writer.write((json.dumps(reply, ensure_ascii=False) + "\n").encode())
            await writer.drain()
            await asyncio.sleep(PACE)
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()
