"""A served session's studio loads the kernels the install has compiled (``studio.ssh.child``
names its temp folder in ``jit.COPY_ENV``): it used to compile its own on its first solve, a
minute of processor time per session, thirty times over for a class."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from studio.engines import jit

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_sessions_first_solve_loads_the_installs_kernels_and_compiles_none(tmp_path) -> None:
    if not jit.installed():
        pytest.skip("numba is not installed: nothing is compiled or cached")
    env = {key: value for key, value in os.environ.items() if key not in ("NUMBA_CACHE_DIR", jit.COPY_ENV)}
    # What a first solve on the server itself leaves behind (quick when other tests compiled them).
    warm = subprocess.run([sys.executable, "-m", "studio.engines.btree.search.warm"], capture_output=True,
                          text=True, timeout=900, env=env)
    assert warm.returncode == 0, warm.stderr
    served, temp = tmp_path / "served", tmp_path / "temp"
    served.mkdir()
    temp.mkdir()
    shutil.copy(ROOT / "games" / "sokoban.toml", served)
    # As studio.ssh.session starts it: its own TMPDIR and NUMBA_CACHE_DIR in the temp folder.
    session = subprocess.run(
        [sys.executable, "-P", "-m", "studio.ssh.child", "--served", str(served), "--temp", str(temp),
         "--", "solve", "sokoban.toml", "--strategy", "bfs"],
        capture_output=True, text=True, timeout=900, cwd=served,
        env={**env, "TMPDIR": str(temp), "NUMBA_CACHE_DIR": str(temp / "numba"), "NUMBA_DEBUG_CACHE": "1"})
    assert session.returncode == 0, session.stderr
    assert "kernel path" in session.stdout and "Solved in" in session.stdout, session.stdout[-2000:]
    cache = [line for line in session.stdout.splitlines() if line.startswith("[cache]")]
    assert any("data loaded from" in line and str(temp) in line for line in cache), cache
    assert not any("data saved to" in line for line in cache), cache  # nothing compiled anew
