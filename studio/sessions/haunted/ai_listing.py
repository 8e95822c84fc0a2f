"""The AI files of a project's folder, offered when a team is added (haunted.md §13.6), so that
adding one is a pick from a list rather than a path typed from memory.

Bounded: the walk stops after :data:`~studio.engines.common.limits.AI_FILES_SCANNED` folder
entries and keeps at most :data:`~studio.engines.common.limits.AI_FILES_LISTED` files, and says
when it stopped, so a project kept in a crowded folder (a home directory, a download folder)
opens the dialog at once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from studio.engines.common.limits import AI_FILES_LISTED, AI_FILES_SCANNED

SUFFIXES = (".py", ".js")
DEPTH = 3
"""Folders below the project's that are looked in (``ais/`` is one)."""
SKIPPED = {"__pycache__", "node_modules", "replays", "venv"}
"""Folders that hold no AI of the project: caches, packages, match records."""


@dataclass(frozen=True)
class AIFiles:
    paths: tuple[str, ...]
    """Relative to the project's folder, ``/``-separated, shallowest first, then by name."""
    complete: bool
    """False when the walk stopped at a limit: there may be more files than listed."""


def ai_files(folder: Path) -> AIFiles:
    """The ``.py``/``.js`` files in ``folder`` and the folders below it (not hidden ones, not
    through symbolic links to folders, :data:`DEPTH` deep)."""
    found: list[str] = []
    scanned = 0
    level = [(folder, "")]
    for _ in range(DEPTH + 1):
        below: list[tuple[Path, str]] = []
        for path, prefix in level:
            try:
                entries = os.scandir(path)
            except OSError:
                continue
            names: list[str] = []
            with entries:
                for entry in entries:
                    scanned += 1
                    if scanned > AI_FILES_SCANNED:
                        return AIFiles(tuple(found + sorted(names))[:AI_FILES_LISTED], False)
                    if entry.name.startswith("."):
                        continue
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            if entry.name not in SKIPPED:
                                below.append((Path(entry.path), f"{prefix}{entry.name}/"))
                        elif entry.name.endswith(SUFFIXES) and entry.is_file():
                            names.append(prefix + entry.name)
                    except OSError:
                        continue
            found += sorted(names)
            if len(found) > AI_FILES_LISTED:
                return AIFiles(tuple(found[:AI_FILES_LISTED]), False)
        level = sorted(below, key=lambda item: item[1])
    return AIFiles(tuple(found), True)
