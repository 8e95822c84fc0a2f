"""numba kernels warmed up in a process of their own, so a screen never waits on a compile.

A first use compiles a kernel (the solver's takes tens of seconds on a cold machine; numba then
caches it beside the source). Compiling on a worker thread would still hold the interpreter's
lock and make the UI stutter, so :func:`ready` starts ``python -m MODULE`` once, in the
background, and says True when it has finished; until then callers use their plain path, and
afterwards the kernel loads from the cache in a fraction of a second.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from studio.engines import jit

SOLVER = "studio.engines.btree.search.warm"
"""The btree solver's warm-up module."""
HAUNTED = "studio.engines.haunted.sim.batch"
"""The Haunted Tiles simulator's."""

_lock = threading.Lock()
_processes: dict[str, subprocess.Popen[bytes] | None] = {}


def ready(module: str) -> bool:
    """Whether ``module``'s kernels can run now without compiling; starts the warm-up if not.

    Cheap on the event loop: numba itself is not imported here (its import alone takes 0.4 s).
    """
    if not jit.installed():
        return True  # the plain path runs anyway, and says so
    with _lock:
        if module not in _processes:
            _processes[module] = _start(module)
        process = _processes[module]
        if process is None or process.poll() is not None:
            _processes[module] = None
            return True
        return False


_preloaded: set[str] = set()


def preload(module: str) -> None:
    """Import ``module`` (and numba with it) on a background thread, once per process.

    The import takes about 0.5 s, which the first solve would otherwise spend on the event
    loop; a screen that may need it calls this when it opens, while the player is still
    reading the board.
    """
    import importlib  # noqa: PLC0415

    with _lock:
        if module in _preloaded or module in sys.modules:
            return
        _preloaded.add(module)
    threading.Thread(target=importlib.import_module, args=(module,), daemon=True,
                     name=f"preload {module}").start()


def prepare(module: str, timeout: float = 300.0) -> bool:
    """Wait until ``module``'s kernels are compiled and cached (False: gave up after ``timeout``).

    For what must not start before (a match whose AI workers load the kernel from the cache):
    the compile still happens in its own process, so a screen waiting on a worker thread keeps
    working. Call it off the event loop.
    """
    deadline = time.monotonic() + timeout
    while not ready(module):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _start(module: str) -> subprocess.Popen[bytes] | None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    try:
        # -P: never the working folder on the path, where anyone who writes in it (a shared
        # class folder) could leave a ``studio`` package to be run in its place.
        return subprocess.Popen([sys.executable, "-P", "-m", module], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    except OSError:
        return None  # cannot start one: the next search compiles on its own thread
