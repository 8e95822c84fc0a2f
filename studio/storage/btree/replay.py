"""A played game's replay beside its project (btree.md §4.5): ``NAME.btreplay.json``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.storage.atomic import atomic_write
from studio.storage.project import Project, dumps_project

REPLAY_SUFFIX = ".btreplay.json"


def replay_path(project_path: Path) -> Path:
    """Where a game's replay goes: beside the project file, named after it."""
    return project_path.with_name(project_path.stem + REPLAY_SUFFIX)


def save_replay(project_path: Path, project: Project,
                replay_data: Callable[[str], dict[str, Any]]) -> Path:
    """Write the replay beside ``project_path``; returns the file written.

    ``replay_data`` (``PlaySession.replay_data``) is given the SHA-256 of the project's saved
    text, which ties the replay to the game it was played on.
    """
    sha = hashlib.sha256(dumps_project(project).encode()).hexdigest()
    target = replay_path(project_path)
    atomic_write(target, json.dumps(replay_data(sha), indent=1).encode(), backup=False)
    return target
