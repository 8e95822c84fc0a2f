"""A match whose studio was killed keeps its partial replay (issue 30, "Nothing lost").

A hang-up or SIGTERM saves the replay so far on the way out (``keep_on_hang_up``); a SIGKILL, a
crash of the machine or an out-of-memory kill leave no way out. The match's live feed was written
as it went, though, and holds every turn played: a feed whose writer is gone becomes the replay
its match would have saved, marked aborted, the next time the project's replays are listed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from studio import __version__
from studio.engines.common.limits import MAX_REPLAY_BYTES
from studio.engines.haunted import replay as replays
from studio.sessions.haunted.feed import MATCH_SUFFIX
from studio.sessions.haunted.watch import replay_bodies
from studio.storage.errors import ProjectError
from studio.storage.haunted.replay import save_replay
from studio.storage.reading import read_head

FOLDER = "replays"


def writer_alive(feed: Path) -> bool:
    """Whether the process that wrote ``feed`` still runs (on this machine: the pid is local)."""
    try:
        header = json.loads(read_head(feed, 4096).split(b"\n", 1)[0])
        pid = int(header["pid"])
    except (ValueError, KeyError, TypeError, OSError, ProjectError):
        return False
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return not _ended(pid)


def _ended(pid: int) -> bool:
    """A killed process its parent has not reaped yet (a zombie) still answers signal 0, yet
    writes nothing more: its feed is to be recovered all the same."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False  # no /proc (not Linux): the signal's answer stands
    return stat[stat.rfind(")") + 2: stat.rfind(")") + 3] in ("Z", "X")


def replay_of_feed(feed: Path) -> Path:
    return feed.with_name(feed.name.removesuffix(MATCH_SUFFIX) + ".json.gz")


def recover_dropped(project_folder: Path) -> list[Path]:
    """Turn the match feeds left by killed studios into partial replays; returns the replays
    written. A feed whose match saved its replay is removed; one still being written is left."""
    root = Path(project_folder) / FOLDER
    written: list[Path] = []
    if not root.is_dir():
        return written
    for feed in sorted(root.glob("*" + MATCH_SUFFIX)):
        replay = replay_of_feed(feed)
        if not replay.exists():
            if writer_alive(feed):
                continue
            try:
                if feed.stat().st_size > 2 * MAX_REPLAY_BYTES:
                    continue  # not a feed the studio wrote for one match: left for a person
                bodies = replay_bodies(feed)
                if bodies and bodies[-1]["rounds"]:
                    save_replay(replays.build(bodies[-1], __version__), replay)
                    written.append(replay)
            except (OSError, ProjectError):
                continue
        feed.unlink(missing_ok=True)
    return written
