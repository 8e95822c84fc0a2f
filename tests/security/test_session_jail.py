"""Landlock around a served session's studio (issue 30, item 1, defence in depth): with the
studio's own path rule out of the way, the process itself still cannot read or write outside
the served folder, yet Python, the studio and its sandboxed AI workers still work in it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from studio.engines.haunted.ai import landlock
from studio.ssh.jail import availability

ROOT = Path(__file__).resolve().parent.parent.parent
NOBODY = 65534
needs_landlock = pytest.mark.skipif(landlock.abi_version() < 1, reason="the kernel has no Landlock")
as_nobody = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                               reason="needs root and setpriv to run as another user")

ATTEMPTS = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    from studio.ssh.jail import confine
    root, temp, secret = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    abi, error = confine(root, temp)
    seen = {"abi": abi, "error": error}

    def attempt(name, action):
        try:
            action()
            seen[name] = "done"
        except OSError as exc:
            seen[name] = exc.strerror

    attempt("read_secret", lambda: open(secret).read())
    attempt("read_shadow", lambda: open("/etc/shadow").read())
    attempt("write_outside", lambda: open(Path(secret).parent / "planted", "w").write("x"))
    attempt("write_checkout", lambda: open(sys.argv[4] + "/planted", "w").write("x"))
    attempt("read_checkout_file", lambda: open(sys.argv[4] + "/pyproject.toml").read())
    attempt("write_inside", lambda: (root / "made.txt").write_text("ok"))
    attempt("write_temp", lambda: (temp / "made.txt").write_text("ok"))
    import textual.app, studio.app  # Python and the studio still import
    from studio.cli import main
    seen["match"] = main(["match", "builtin:greedy", "builtin:wander", "--seed", "3",
                          "--rounds", "1", "--require-confinement", "--quiet"])
    print(json.dumps(seen))
""")


@needs_landlock
@pytest.mark.parametrize("user", ["this user", pytest.param("nobody", marks=as_nobody)])
def test_a_confined_session_reaches_nothing_outside_yet_plays_a_sandboxed_match(user: str) -> None:
    """A server not run by root: its sessions' workers write their own ``uid_map`` (the one
    write in ``/proc`` the jail allows such a session)."""
    base = Path(tempfile.mkdtemp(prefix="studio-jail-"))  # outside pytest's 0700 folder
    try:
        _attempt(base, user)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _attempt(base: Path, user: str) -> None:
    base.chmod(0o755)
    root, temp, elsewhere = base / "served", base / "temp", base / "elsewhere"
    for folder in (root, temp, elsewhere):
        folder.mkdir()
    secret = elsewhere / "secret.txt"
    secret.write_text("SECRET")
    prefix = []
    if user == "nobody":
        for path in (root, temp, elsewhere, secret):
            os.chown(path, NOBODY, NOBODY)
        prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    done = subprocess.run([*prefix, sys.executable, "-P", "-c", ATTEMPTS, str(root), str(temp),
                           str(secret), str(ROOT)], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                               "TMPDIR": str(temp), "NUMBA_CACHE_DIR": str(temp / "numba")})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["abi"] >= 1 and seen["error"] == ""
    assert seen["read_secret"] == seen["read_shadow"] == "Permission denied"
    assert seen["write_outside"] == seen["write_checkout"] == "Permission denied"
    assert seen["read_checkout_file"] == "Permission denied"  # beside the package, not in it
    assert seen["write_inside"] == seen["write_temp"] == "done"
    assert seen["match"] == 0  # AI workers start, confine themselves and play within it
    assert not (elsewhere / "planted").exists() and not (ROOT / "planted").exists()


def test_the_start_line_says_when_landlock_is_missing(monkeypatch) -> None:
    monkeypatch.setenv(landlock.SIMULATE_MISSING, "landlock")
    assert "not confined by Landlock" in availability()
    assert "path checks only" in availability()
    monkeypatch.delenv(landlock.SIMULATE_MISSING)
    if landlock.abi_version() >= 1:
        assert availability().startswith("confined with Landlock ABI")


def test_the_server_guards_its_own_proc_entries_before_it_listens(monkeypatch) -> None:
    # Its sessions run as the same user: see tests/security/test_proc_neighbours.py.
    import asyncio
    from types import SimpleNamespace

    from studio.commands import serve
    from studio.ssh import jail

    calls = []
    monkeypatch.setattr(jail, "undumpable", lambda: calls.append("guarded") or True)

    class Refused:
        config = SimpleNamespace(host="127.0.0.1", port=1)

        async def start(self) -> None:
            calls.append("listen")
            raise OSError(98, "Address already in use")

    assert asyncio.run(serve._run(Refused(), "key", "roster")) == 1
    assert calls == ["guarded", "listen"]
