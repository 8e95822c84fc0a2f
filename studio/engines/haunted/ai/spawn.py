"""Starting worker processes so that nothing of theirs outlives the studio (issue 28, item 2).

Two things outlived a studio killed while an AI was thinking: the worker, and its temp folder.

- A worker asks the kernel to kill it when its parent ends (``PR_SET_PDEATHSIG``, in the worker),
  but the kernel means the parent *thread*: a worker started from a match thread would die with
  that thread, in the middle of a tournament. So every worker is started from one thread that
  lives as long as the studio process (:func:`popen`).
- A folder cannot be removed by a process killed with SIGKILL. Each folder's name carries the
  studio's pid, and the next studio to start a worker removes the folders of studios that are
  gone (:func:`sweep_stale`). Earlier studios named them ``studio-ai-XXXXXXXX``, without the
  pid: nothing says whether their studio still runs, so those go once a day old, and only when
  they are real folders of this user (or, for root, of its workers' uids).
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import stat
import subprocess
import tempfile
import threading
import time
from typing import Any

from studio.engines.haunted.ai.privileges import WORKER_UIDS

PREFIX = "studio-ai-"
THREAD_NAME = "studio-ai-spawner"
"""The spawner thread's name: it is meant to live as long as the process."""
_OWNED = re.compile(re.escape(PREFIX) + r"(\d+)-")
_OLD_STYLE = re.compile(re.escape(PREFIX) + r"[a-z0-9_]{8}")
"""A folder of a studio before the pid was in the name: ``tempfile.mkdtemp(prefix=PREFIX)``,
eight characters of tempfile's alphabet and nothing more."""
OLD_STYLE_AGE = 24 * 3600.0
"""Seconds since an old-style folder last changed (its mtime: a file made or removed in it)
before it is removed: a round lasts minutes, so a folder a day old has no worker left in it."""
_requests: queue.SimpleQueue[tuple[list[str], dict[str, Any], dict[str, Any],
                                   threading.Event]] = queue.SimpleQueue()
_lock = threading.Lock()
_state: dict[str, Any] = {"thread": None, "swept": False}


def make_workdir() -> str:
    """A fresh temp folder for one worker, named after this studio process; the first call of
    a process also removes the folders that dead studios left behind."""
    with _lock:
        first = not _state["swept"]
        _state["swept"] = True
    if first:
        sweep_stale()
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def sweep_stale(folder: str | None = None) -> list[str]:
    """Remove the worker folders in ``folder`` (the temp folder) whose studio process is gone,
    and the old-style ones (no pid in the name) of this user a day old.

    Returns:
        The paths removed.
    """
    folder = folder or tempfile.gettempdir()
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        owner = _OWNED.match(name)
        path = os.path.join(folder, name)
        if owner is not None:
            if _alive(int(owner.group(1))) or _ours(path) is None:
                continue
        elif not _OLD_STYLE.fullmatch(name) or (since := _ours(path)) is None or \
                now - since <= OLD_STYLE_AGE:
            continue
        # On Linux rmtree works through folder handles and never follows a link, at the top
        # (it checks that what it opened is what it looked at) or inside.
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path):
            removed.append(path)
    return removed


def _ours(path: str) -> float | None:
    """When a worker folder was last changed, if it may be removed: a real folder (not a link to
    one) owned by this user or, for root, by one of its workers' uids; None otherwise (a folder
    of another user's studio, or something planted in the shared temp folder)."""
    if not shutil.rmtree.avoids_symlink_attacks:
        return None  # this platform's rmtree could be led out of /tmp by a planted link
    try:
        info = os.lstat(path)
    except OSError:
        return None
    uid = os.geteuid()
    ours = info.st_uid == uid or (uid == 0 and info.st_uid in WORKER_UIDS)
    return info.st_mtime if stat.S_ISDIR(info.st_mode) and ours else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive, and not ours to judge
        return True
    return True


def popen(command: list[str], **options: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(command, **options)``, run on the studio's spawner thread.

    That thread never ends before the process does, so a worker's parent-death signal fires
    exactly when the studio ends. The caller waits for the start (a few milliseconds).
    """
    _ensure_thread()
    box: dict[str, Any] = {}
    done = threading.Event()
    _requests.put((command, options, box, done))
    done.wait()
    if "error" in box:
        raise box["error"]
    return box["process"]


def _ensure_thread() -> None:
    with _lock:
        thread = _state["thread"]
        if thread is None or not thread.is_alive():
            thread = threading.Thread(target=_serve, name=THREAD_NAME, daemon=True)
            thread.start()
            _state["thread"] = thread


def _serve() -> None:
    while True:
        command, options, box, done = _requests.get()
        try:
            box["process"] = subprocess.Popen(command, **options)  # noqa: S603 - our worker
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, who raises it
            box["error"] = exc
        finally:
            done.set()
