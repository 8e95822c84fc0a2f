"""Starting the ladder's catch-up after a submission: a ``studio ladder PROJECT`` process of its
own, detached, so that the submit (the AI editor's or ``studio submit``) returns at once and the
matches go on when the session that submitted ends. A second submission while it runs starts a
second one that waits on the ladder's lock and plays what is still missing (never twice).
"""

from __future__ import annotations

import os
import fcntl
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from studio.sessions.haunted.ladder_files import ladder_folder
from studio.storage.errors import ProjectError
from studio.storage.haunted.ladder import ladder_of
from studio.storage.haunted.project import HauntedModel

LOG = "runner.log"
"""The background runners' output, beside the ladder's results (appended)."""
RUNNERS = ".runners"
"""Every runner holds a shared lock on it while it plays: a submit starts no second one.

Without it each submit started a process of its own, which waited for the ladder's lock: a
student submitting in a loop filled the server with waiting runners. A runner that is at work
reads the submissions again before each match, so it plays the new ones itself; one that has
just finished lets go of this lock *before* it looks for missing matches one last time
(:func:`run_settled`), so a submission stored while it was still holding the lock is never
left unplayed."""


def runner_active(folder: Path) -> bool:
    """Whether a ladder runner holds :data:`RUNNERS` (is playing, or about to)."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / RUNNERS, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # releases the probe's lock, if it got it
    return False


def run_settled(folder: Path, play: Callable[[], None], pending: Callable[[], int]) -> None:
    """``play`` while holding :data:`RUNNERS` (shared); after letting go, ``pending()`` is asked
    once more and, while it finds missing matches, ``play`` runs again (see :data:`RUNNERS`)."""
    folder.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(folder / RUNNERS, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            play()
        finally:
            os.close(fd)
        if not pending():
            return


def queue_catch_up(model: HauntedModel, project_file: Path) -> str:
    """Start the catch-up when the project's ladder is on; returns what to tell the person
    ("" when the ladder is off)."""
    try:
        if model.folder is None or not ladder_of(model.body).enabled:
            return ""
    except ProjectError:
        return ""
    folder = ladder_folder(model.folder)
    try:
        if runner_active(folder):
            return "the ladder's runner at work plays the new matches too"
        with open(folder / LOG, "ab") as log:
            process = subprocess.Popen(  # noqa: S603 - our own command, a fixed argument list
                # -P: the project's folder, where students submit, is the runner's working
                # folder: a ``studio`` package left there must not be what runs.
                [sys.executable, "-P", "-m", "studio", "ladder", str(Path(project_file).resolve()),
                 "--quiet"], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True, cwd=model.folder, env={**os.environ})
    except OSError as exc:
        return f"the ladder could not start its matches ({exc.strerror or exc}): run studio ladder"
    return f"the ladder plays its new matches in the background (process {process.pid})"
