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
