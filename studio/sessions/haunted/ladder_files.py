"""The ladder's folder (``replays/ladder/``): where its results are, the lock its runs share,
and reading its ``index.json`` back. Apart from running it (:mod:`studio.sessions.haunted.ladder`)
so that what only reads the results (the served path rule asking who played a replay) does not
load the match engine.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_INDEX_BYTES
from studio.sessions.haunted.replays import replays_folder
from studio.storage.errors import ProjectError
from studio.storage.reading import decode_text, parse_json, read_bounded

INDEX = "index.json"
FOLDER = "ladder"
"""The ladder's folder under ``replays/``."""
FORMAT = "studio-haunted-ladder"
LOCK = ".lock"

def ladder_folder(project_folder: Path) -> Path:
    return replays_folder(project_folder) / FOLDER


def replay_path(folder: Path, key: str) -> Path:
    """A match's replay, named by its key (never by what an index says)."""
    return folder / f"match-{key}.json.gz"


class LadderBusy(Exception):
    """Another process holds the ladder's lock (and the caller would not wait)."""


class LadderCancelled(Exception):
    """The catch-up was cancelled; the matches finished before that are saved."""


@contextmanager
def ladder_lock(folder: Path, cancel: threading.Event | None = None,
                wait: float | None = None) -> Iterator[None]:
    """Hold the ladder's lock: an ``fcntl`` lock on a file in its folder, released by the
    system when the process dies, so a killed runner never leaves the ladder locked.

    Args:
        cancel: stops the wait (raises :class:`LadderCancelled`).
        wait: seconds to wait at most (None: until it is free).
    """
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        start = time.monotonic()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if cancel is not None and cancel.is_set():
                    raise LadderCancelled() from None
                if wait is not None and time.monotonic() - start >= wait:
                    raise LadderBusy() from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def read_ladder_index(folder: Path) -> dict[str, Any] | None:
    """The ladder's ``index.json`` (None when there is none yet).

    Raises:
        ProjectError: it exists but is not a ladder index.
    """
    path = folder / INDEX
    if not path.exists():
        return None
    document = parse_json(decode_text(read_bounded(path, MAX_INDEX_BYTES, "the ladder index"),
                                      path, "the ladder index"), path)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ProjectError("not a ladder index", file=path, hint="reset the ladder")
    matches = document.get("matches")
    if not isinstance(matches, dict):
        raise ProjectError("the ladder index has no table of matches", file=path,
                           field_path=("matches",), hint="reset the ladder")
    for key, entry in matches.items():
        # Only what the standings count is read back; the replay's file name is the key's,
        # never the index's (a name in it could lead out of the folder).
        if not isinstance(entry, dict) or entry.get("winner") not in ("home", "away") or not all(
                type(entry.get(k)) is int and 0 <= entry[k] < 1000
                for k in ("home_rounds", "away_rounds")):
            raise ProjectError("a match is not as the studio writes them", file=path,
                               field_path=("matches", key), hint="reset the ladder")
    return document


def reset_ladder(project_folder: Path) -> int:
    """Forget every ladder result (under the lock); returns how many replays were removed. The
    next catch-up plays the whole schedule again."""
    folder = ladder_folder(project_folder)
    if not folder.is_dir():
        return 0
    removed = 0
    with ladder_lock(folder, wait=30):
        for path in folder.glob("match-*.json.gz"):
            path.unlink()
            removed += 1
        (folder / INDEX).unlink(missing_ok=True)
    return removed
