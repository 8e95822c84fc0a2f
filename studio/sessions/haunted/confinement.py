"""Saying where AIs would run unconfined, and refusing to when a project requires it (§8.1).

Used where a match or tournament is set up: the command line prints :func:`warning`, the match
setup screen shows it, and :func:`refuse_unconfined` stops a project or tournament that sets
``require_confinement``. The match log and the replay say it too (the match engine writes what
each worker reports).
"""

from __future__ import annotations

from studio.engines.haunted.ai.probe import gap
from studio.storage import ProjectError


def warning() -> str:
    """One line for the person setting up a match; empty where AIs are fully confined."""
    missing = gap()
    if not missing:
        return ""
    return f"AIs run unconfined on this machine: {missing}"


def refuse_unconfined(required: bool, what: str = "this project") -> None:
    """Raise when ``required`` and the machine cannot confine AI workers.

    Raises:
        ProjectError: naming what is missing and the setting that asked for confinement.
    """
    missing = gap()
    if required and missing:
        raise ProjectError(f"{what} requires confinement, and AIs cannot be confined here "
                           f"({missing})", hint="run it on Linux 5.13+ with Landlock, or set "
                           "require_confinement = false")
