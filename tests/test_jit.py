"""How kernels load: a sandboxed AI worker finds the compiled code (``jit.sandbox_cache``); a
screen asks whether numba is there without importing it (``jit.installed``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.engines import jit


def _write(folder, name: str, data: bytes, when: float) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    os.utime(path, (when, when))


def test_each_index_comes_with_its_own_code_from_the_folder_where_it_is_newest(tmp_path) -> None:
    old, new, target = tmp_path / "in_tree", tmp_path / "user", tmp_path / "worker"
    _write(old, "kernels.f-10.py311.nbi", b"old index", 1000)
    _write(old, "kernels.f-10.py311.1.nbc", b"old code", 1000)
    _write(old, "kernels.g-20.py311.nbi", b"g index", 1000)
    _write(old, "kernels.g-20.py311.1.nbc", b"g code", 1000)
    _write(new, "kernels.f-10.py311.nbi", b"new index", 2000)
    _write(new, "kernels.f-10.py311.1.nbc", b"new code", 2000)
    _write(new, "kernels.f-10.py311.2.nbc", b"new code 2", 2000)
    _write(new, "other.f-10.py311.nbi", b"another module", 2000)
    _write(target, "kernels.g-20.py311.1.nbc", b"compiled in the worker", 3000)

    copied = jit.copy_newest([str(old), str(new), str(tmp_path / "missing")], str(target), "kernels.")

    assert (target / "kernels.f-10.py311.nbi").read_bytes() == b"new index"
    assert (target / "kernels.f-10.py311.1.nbc").read_bytes() == b"new code"
    assert (target / "kernels.f-10.py311.2.nbc").read_bytes() == b"new code 2"
    assert (target / "kernels.g-20.py311.nbi").read_bytes() == b"g index"
    assert (target / "kernels.g-20.py311.1.nbc").read_bytes() == b"compiled in the worker"
    assert not (target / "other.f-10.py311.nbi").exists()
    assert sorted(copied) == ["kernels.f-10.py311.1.nbc", "kernels.f-10.py311.2.nbc",
                              "kernels.f-10.py311.nbi", "kernels.g-20.py311.nbi"]


def _kernel_like() -> int:
    return 1


def test_a_worker_also_looks_in_the_users_cache_where_the_studio_could_not_write_its_own(
        tmp_path, monkeypatch) -> None:
    """A system-wide install has a read-only ``__pycache__``: the studio then caches in numba's
    folder in the user's cache, and the worker must copy from there."""
    pytest.importorskip("numba")
    from numba.core import caching  # noqa: PLC0415

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    sources = jit.cache_sources(caching, _kernel_like, __file__)
    assert sources[0] == os.path.join(os.path.dirname(__file__), "__pycache__")
    user = sources[1]
    assert user.startswith(str(tmp_path / ".cache" / "numba"))
    stem = "test_jit."
    _write(Path(user), stem + "_kernel_like-40.py311.nbi", b"index", 1000)
    _write(Path(user), stem + "_kernel_like-40.py311.1.nbc", b"code", 1000)

    target = tmp_path / "worker"
    jit.copy_newest(sources, str(target), stem)

    assert sorted(os.listdir(target)) == [stem + "_kernel_like-40.py311.1.nbc", stem + "_kernel_like-40.py311.nbi"]


def test_installed_answers_without_importing_numba() -> None:
    """Screens ask on the event loop whether there is a compile to prepare; importing numba to
    answer froze them for 0.4 s."""
    import subprocess
    import sys

    code = ("import importlib.util, sys\nfrom studio.engines import jit\n"
            "print(jit.installed(), importlib.util.find_spec('numba') is not None, "
            "'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    installed, found, imported = out.stdout.split()
    assert installed == found and imported == "False", out.stderr
    off = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "STUDIO_NO_NUMBA": "1"})
    assert off.stdout.split()[0] == "False", off.stderr


_ONE_KERNEL = ("import numpy as np\nfrom studio.engines.btree.search.iheap import improve\n"
               "mi = np.full(30, -1, np.int64)\nprint(improve(mi, 0, 10, 20, 0, 3, 5))")
"""A subprocess that runs one small studio kernel (compiled, or loaded from a cache)."""


def test_numba_cache_dir_is_where_the_studio_caches_its_kernels(tmp_path) -> None:
    """``NUMBA_CACHE_DIR`` moves the studio's compiled kernels, as the README says: a user with a
    read-only install names one, an SSH session uses its own temporary folder, and a cold compile
    is timed with an empty one. The studio's own locators used to come first and keep writing
    into the install's ``__pycache__``, so the folder named stayed empty."""
    import subprocess
    import sys

    if not jit.installed():
        pytest.skip("numba is not installed: nothing is compiled or cached")
    out = subprocess.run([sys.executable, "-c", _ONE_KERNEL], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert out.returncode == 0 and out.stdout.split() == ["1"], out.stderr
    cached = [path.name for path in tmp_path.rglob("iheap.improve-*")]
    assert any(name.endswith(".nbi") for name in cached), sorted(p.name for p in tmp_path.rglob("*"))
    assert any(name.endswith(".nbc") for name in cached), cached


def test_a_session_loads_the_kernels_the_install_has_compiled(tmp_path) -> None:
    """An SSH session's studio names its temp folder in ``STUDIO_NUMBA_COPY`` (``studio.ssh.child``):
    it and the warm-ups it starts copy the install's compiled kernels there and load them, where
    each session used to compile its own for a minute of processor time."""
    import subprocess
    import sys

    if not jit.installed():
        pytest.skip("numba is not installed: nothing is compiled or cached")
    from numba.core import caching

    from studio.engines.btree.search import iheap

    env = {key: value for key, value in os.environ.items() if key not in ("NUMBA_CACHE_DIR", jit.COPY_ENV)}
    install = subprocess.run([sys.executable, "-c", _ONE_KERNEL], capture_output=True, text=True, timeout=300,
                             env=env)
    assert install.stdout.split() == ["1"], install.stderr  # compiled (or loaded) where the install keeps it
    session = tmp_path / "session"
    out = subprocess.run([sys.executable, "-c", _ONE_KERNEL], capture_output=True, text=True, timeout=300,
                         env={**env, jit.COPY_ENV: str(session), "NUMBA_DEBUG_CACHE": "1"})
    assert out.stdout.splitlines()[-1] == "1", out.stderr
    copied = {path.name: path.read_bytes() for path in session.rglob("iheap.improve-*.nbc")}
    assert copied, sorted(p.name for p in session.rglob("*"))
    installed = {}
    for folder in jit.cache_sources(caching, iheap.improve.py_func, iheap.__file__):
        for path in Path(folder).glob("iheap.improve-*.nbc"):
            installed.setdefault(path.name, path.read_bytes())
    assert all(installed.get(name) == data for name, data in copied.items())  # the install's own files
    cache = [line for line in out.stdout.splitlines() if line.startswith("[cache]")]
    assert any("data loaded from" in line and str(session) in line for line in cache), cache
    assert not any("data saved to" in line for line in cache), cache  # loaded, not compiled anew
