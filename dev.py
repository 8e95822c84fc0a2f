#!/usr/bin/env python3
"""Set up the project's virtualenv from pyproject.toml and run the studio or the tests.

    python3 dev.py run [ARGS...]    set up .venv, then launch the studio (default on games/)
    python3 dev.py test [ARGS...]   set up .venv, then run the whole test suite

Needs only Python 3.11+. The virtualenv is refreshed when pyproject.toml or EXTRAS change.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".studio-installed"
EXTRAS = "test,js,ssh,cluster"
"""Optional dependency groups installed with the studio: the test stack, JS AIs, the SSH server
and Dask distributed (tournaments on many machines)."""


def _venv_python() -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def _wanted_stamp() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{sys.version_info[:2]} {digest} [{EXTRAS}]"


def ensure_venv() -> Path:
    """Create or refresh .venv so that it matches pyproject.toml; return its python."""
    if sys.version_info < (3, 11):
        sys.exit(f"studio needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    python = _venv_python()
    if python.exists() and STAMP.exists() and STAMP.read_text() == _wanted_stamp():
        return python
    if not python.exists():
        print("dev.py: creating .venv ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    print("dev.py: installing studio and its test tools into .venv ...", file=sys.stderr)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "install", "-e", f"{ROOT}[{EXTRAS}]"], check=True)
    STAMP.write_text(_wanted_stamp())
    return python


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "setup"}:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    python = ensure_venv()
    if command == "setup":
        return 0
    if command == "run":
        # Run where it was typed: `python3 dev.py run my-games/` means the folder here, not one
        # in the checkout (the studio is installed in .venv, importable from anywhere).
        args = rest or [str(ROOT / "games")]
        cmd = [str(python), "-P", "-m", "studio", *args]  # -P: no "studio" of the cwd on the path
    else:
        os.chdir(ROOT)  # pytest finds its configuration and the tests from the checkout
        cmd = [str(python), "-m", "pytest", *rest]
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        # Python will not cache the studio's bytecode itself, and compiling ~300 modules at
        # every start costs about 0.3 s of a 0.6 s start: cache it here (fast when current).
        # A test run starts the studio in many processes (each pytest worker, the CLI, SSH and
        # warm-up subprocesses), each of which compiled it again.
        subprocess.run([str(python), "-m", "compileall", "-q", str(ROOT / "studio")],
                       check=False)
    if command == "test":
        # pytest keeps the test modules it rewrote (for its assert messages) only where Python
        # may write bytecode: without it every worker rewrote all ~150 files again, some 8 s of
        # CPU each on every run. The studio's own bytecode is compiled above either way.
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if os.name == "nt":
        return subprocess.call(cmd)
    os.execv(cmd[0], cmd)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
