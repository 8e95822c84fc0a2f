"""AI runners: untrusted AI code runs in sandboxed worker processes, never in the studio.

``make_player(source)`` is the entry point; see ``runner.WorkerPlayer`` for the process model.

The package's names are loaded on first use (PEP 562), never while the package itself loads:
its modules import ``landlock`` and ``probe`` from here, and a package that imported them back
while loading made a cycle that two threads importing different parts at once (a Dask worker's
task and its state probe) turned into a deadlock, which Python breaks by failing one import.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {"JS_INSTALL_HINT": "factory", "make_player": "factory", "WorkerPlayer": "runner"}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
