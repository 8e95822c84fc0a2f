"""numba where it pays: one switch for every kernel of the engines (architecture.md rule 7).

Kernels are written once, in the subset of Python that numba compiles, and decorated with
:func:`kernel`. When numba loads they are compiled on first use (``cache=True``: later processes
load the machine code from ``__pycache__``); when it cannot load (not installed, a sandbox, or
``STUDIO_NO_NUMBA=1``) the same functions run as plain Python, and :data:`REASON` says why, so
callers can report "plain path: ..." instead of failing.
"""

from __future__ import annotations

import hashlib
import os
import threading
from typing import Any, Callable

_LOCK = threading.Lock()
COPY_ENV = "STUDIO_NUMBA_COPY"
"""A folder to copy the studio's compiled kernels into and load them from, as
:func:`sandbox_cache` asks (which wins), for this process and those it starts: an SSH session's
studio and its warm-ups."""
_state: dict[str, Any] = {}


def _load() -> tuple[Any, str]:
    with _LOCK:
        if "numba" not in _state:
            if os.environ.get("STUDIO_NO_NUMBA"):
                _state["numba"], _state["reason"] = None, "numba switched off (STUDIO_NO_NUMBA)"
            else:
                try:
                    import numba  # noqa: PLC0415 - optional at run time, ~0.3 s to import
                except Exception as exc:  # noqa: BLE001 - any failure means: run plain
                    _state["numba"], _state["reason"] = None, f"numba cannot load: {exc}"
                else:
                    _state["numba"], _state["reason"] = numba, ""
                    _track_dependencies()
        return _state["numba"], _state["reason"]


def _folder_stamp(py_file: str) -> bytes:
    """A digest of every Python source beside ``py_file``."""
    folder = os.path.dirname(os.path.abspath(py_file))
    digest = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as file:
                digest.update(name.encode() + b"\0" + file.read())
    return digest.digest()


def _track_dependencies() -> None:
    """Make numba's cache of a studio kernel depend on its whole package, not its file alone.

    numba stamps a cached function with its own source file only; a kernel that inlines helpers
    from a sibling module would load stale machine code after that module changed (and crash:
    kernels index arrays unchecked). Studio kernels get locators whose stamp covers every module
    of their package. numba-internal API: if it moved, caching keeps numba's own stamps.
    """
    try:
        from numba.core import caching, config  # noqa: PLC0415
    except ImportError:
        return
    root = os.path.dirname(os.path.abspath(__file__)) + os.sep

    class Studio:
        def get_source_stamp(self) -> bytes:
            return _folder_stamp(self._py_file)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not os.path.abspath(py_file).startswith(root):
                return None
            return super().from_function(py_func, py_file)

    try:
        bases = (caching.InTreeCacheLocator, caching.UserWideCacheLocator)
        # NUMBA_CACHE_DIR first, as numba's own order has it: ahead of it, the in-tree locator
        # took every kernel it could write, and the folder a user (or an SSH session, or a cold
        # compile measured) named was never used.
        named = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
        if getattr(config, "CACHE_DIR", ""):
            bases = (named,) + bases
        ours = [type(f"Studio{base.__name__}", (Studio, base), {}) for base in bases]
        copy_to = _state.get("copy_to") or os.environ.get(COPY_ENV)
        if copy_to:
            ours.insert(0, _copying_locator(Studio, caching, copy_to))
        # ``_CacheImpl`` became ``CacheImpl`` in numba 0.61: without this lookup the stamps
        # above were silently never installed.
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        impl._locator_classes[:0] = ours
    except AttributeError:
        pass


def _copying_locator(studio: type, caching: Any, folder: str) -> type:
    """A locator that reads the studio's cache from a copy in ``folder`` and writes there.

    A sandboxed AI worker may read the studio's files but not write them, and numba only uses a
    cache folder it can write to; without this it would compile in every round.
    """

    class StudioCopiedCacheLocator(studio, caching.InTreeCacheLocator):
        def __init__(self, py_func: Any, py_file: str) -> None:
            super().__init__(py_func, py_file)
            sources = cache_sources(caching, py_func, py_file)
            self._cache_path = os.path.join(folder, self.get_suitable_cache_subpath(py_file))
            stem = os.path.splitext(os.path.basename(py_file))[0] + "."
            copy_newest(sources, self._cache_path, stem)

    return StudioCopiedCacheLocator


def cache_sources(caching: Any, py_func: Any, py_file: str) -> list[str]:
    """Every folder where the studio may have cached ``py_func``'s machine code: its own
    ``__pycache__``, or, where that is read-only (a system-wide install), numba's folder in the
    user's cache (the second locator of ``_track_dependencies``)."""
    folders = [caching.InTreeCacheLocator(py_func, py_file).get_cache_path()]
    try:
        folders.append(caching.UserWideCacheLocator(py_func, py_file).get_cache_path())
    except Exception:  # noqa: BLE001 - no home to find a user cache in: the in-tree one only
        pass
    return folders


def copy_newest(sources: list[str], target: str, stem: str) -> list[str]:
    """Copy numba's cache of module ``stem`` into ``target``: for each function's index
    (``.nbi``), the newest of the folders that have one, with the machine code (``.nbc``) beside
    it in that same folder (an index and code from different folders could disagree; an older
    index was compiled from older source, and numba would refuse it). Files already in
    ``target`` stay. Returns the names copied."""
    newest: dict[str, tuple[float, str]] = {}
    listed: dict[str, list[str]] = {}
    for source in sources:
        try:
            listed[source] = [n for n in os.listdir(source) if n.startswith(stem)]
        except OSError:
            continue
        for name in listed[source]:
            if name.endswith(".nbi"):
                try:
                    when = os.stat(os.path.join(source, name)).st_mtime
                except OSError:
                    continue
                if name not in newest or when > newest[name][0]:
                    newest[name] = (when, source)
    os.makedirs(target, exist_ok=True)
    copied = []
    for index, (_, source) in sorted(newest.items()):
        code = index[:-len(".nbi")] + "."
        for name in [index] + sorted(n for n in listed[source] if n.startswith(code) and n.endswith(".nbc")):
            goal = os.path.join(target, name)
            if not os.path.exists(goal):
                with open(os.path.join(source, name), "rb") as src, open(goal, "wb") as dst:
                    dst.write(src.read())
                copied.append(name)
    return copied


def sandbox_cache(folder: str) -> None:
    """Use copies of the studio's compiled kernels from ``folder`` (call before the first kernel).

    For processes that may read the studio's files but write only in ``folder`` (the AI
    workers): the cached machine code is copied there and loaded, and anything compiled anew
    is cached there too, for the life of the process.
    """
    with _LOCK:
        _state["copy_to"] = folder


def installed() -> bool:
    """Whether numba may load, without importing it (which takes about 0.4 s): for callers on
    the event loop that only need to know whether there is a compile to prepare."""
    with _LOCK:
        if "numba" in _state:
            return _state["numba"] is not None
    if os.environ.get("STUDIO_NO_NUMBA"):
        return False
    import importlib.util  # noqa: PLC0415

    return importlib.util.find_spec("numba") is not None


def available() -> bool:
    """Whether kernels are compiled (False: they run as plain Python)."""
    return _load()[0] is not None


def reason() -> str:
    """Why kernels run as plain Python ("" when numba is in use)."""
    return _load()[1]


def kernel(fn: Callable[..., Any] | None = None, *, inline: bool = False) -> Any:
    """Compile ``fn`` with numba (nopython, cached, releasing the GIL) if numba loads.

    ``inline=True`` inlines the function into its callers at numba's level: a call that takes
    tuples of arrays otherwise pays a reference-count update per array, which dominates small,
    hot helpers. The plain function stays reachable as ``.py_func`` either way, so tests can
    run a kernel both ways on the same input.
    """
    if fn is None:
        return lambda f: kernel(f, inline=inline)
    numba, _ = _load()
    if numba is None:
        return _plain(fn)
    options = dict(nogil=True, _nrt=False, inline="always" if inline else "never")
    try:
        return numba.njit(cache=True, **options)(fn)
    except RuntimeError:  # no writable cache folder (a sandbox): compile in every process
        return numba.njit(**options)(fn)


def _plain(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as plain Python: 64-bit integer arithmetic wraps silently, as compiled."""
    import functools  # noqa: PLC0415

    import numpy as np  # noqa: PLC0415

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(over="ignore"):
            return fn(*args, **kwargs)

    call.py_func = call  # type: ignore[attr-defined]
    return call


def load_cached(fn: Callable[..., Any], *args: Any) -> bool:
    """Load ``fn``'s machine code for arguments like ``args`` from the cache, never compiling.

    False when there is none (the first use would compile, which takes seconds), when ``fn``
    runs as plain Python, or when numba's internals moved (then callers take their slow path).
    Mirrors what numba's dispatcher does on a call before it compiles.
    """
    try:
        sig = tuple(fn.typeof_pyval(a) for a in args)  # type: ignore[attr-defined]
        if sig in fn.overloads:  # type: ignore[attr-defined]
            return True
        cres = fn._cache.load_overload(sig, fn.targetctx)  # type: ignore[attr-defined]
        if cres is None:
            return False
        context = fn.targetctx  # type: ignore[attr-defined]
        context.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
        fn.add_overload(cres)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - plain functions and numba versions without these
        return False
    return True


def compiled(fn: Callable[..., Any]) -> bool:
    """Whether a kernel already has machine code (compiled here or loaded from the cache)."""
    return bool(getattr(fn, "signatures", None))
