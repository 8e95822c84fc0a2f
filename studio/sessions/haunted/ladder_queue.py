"""Starting the ladder's catch-up after a submission: a ``studio ladder PROJECT`` process of its
own, detached, so that the submit (the AI editor's or ``studio submit``) returns at once and the
matches go on when the session that submitted ends. A second submission while it runs starts a
second one that waits on the ladder's lock and plays what is still missing (never twice).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from studio.sessions.haunted.ladder_files import ladder_folder
from studio.storage.errors import ProjectError
from studio.storage.haunted.ladder import ladder_of
from studio.storage.haunted.project import HauntedModel

LOG = "runner.log"
"""The background runners' output, beside the ladder's results (appended)."""


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
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / LOG, "ab") as log:
            process = subprocess.Popen(  # noqa: S603 - our own command, a fixed argument list
                [sys.executable, "-m", "studio", "ladder", str(Path(project_file).resolve()),
                 "--quiet"], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True, cwd=model.folder, env={**os.environ})
    except OSError as exc:
        return f"the ladder could not start its matches ({exc.strerror or exc}): run studio ladder"
    return f"the ladder plays its new matches in the background (process {process.pid})"
