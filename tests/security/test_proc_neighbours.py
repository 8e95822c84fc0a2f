"""A session cannot write the ``/proc`` entries of the server or of other sessions (issue 30).

Under a server not run by root, a session's Landlock grants writing in ``/proc`` (its AI
workers write their own id map there), and file permissions alone then let it write the
``oom_score_adj``, ``coredump_filter`` and ``clear_refs`` of every process of the same user:
the server and the other sessions. The server and each session's studio make themselves not
dumpable (``studio.ssh.jail.undumpable``), which hands those files to root. Run for real as
``nobody`` (root drops to it with ``setpriv``); skipped, saying why, where that cannot be done.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.engines.haunted.ai import landlock
from studio.storage import create_project

ROOT = Path(__file__).resolve().parent.parent.parent
NOBODY = 65534
pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                       reason="needs root and setpriv to run as another user"),
    pytest.mark.skipif(landlock.abi_version() < 1, reason="the kernel has no Landlock"),
]
AS_NOBODY = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
SLEEPER = "import sys, time\n{}\nprint('ready', flush=True)\ntime.sleep(60)"
ATTACK = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from studio.ssh.jail import confine
    root, temp, targets = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    abi, error = confine(root, temp)  # what a session of a server not run by root gets
    seen = {"abi": abi}
    for pid in targets:
        for name, value in (("oom_score_adj", "1000"), ("coredump_filter", "0x0"),
                            ("clear_refs", "1")):
            try:
                Path(f"/proc/{pid}/{name}").write_text(value)
                seen[f"{pid} {name}"] = "written"
            except OSError as exc:
                seen[f"{pid} {name}"] = exc.strerror
    print(json.dumps(seen))
""")


@pytest.fixture
def base() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="studio-proc-"))  # outside pytest's 0700 folder
    folder.chmod(0o755)
    for name in ("served", "temp"):
        (folder / name).mkdir()
        os.chown(folder / name, NOBODY, NOBODY)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _env(base: Path) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TMPDIR": str(base / "temp"),
            "NUMBA_CACHE_DIR": str(base / "temp" / "numba")}


def _sleeper(base: Path, undumpable: bool) -> subprocess.Popen[str]:
    setup = "from studio.ssh.jail import undumpable; undumpable()" if undumpable else ""
    process = subprocess.Popen([*AS_NOBODY, sys.executable, "-P", "-c", SLEEPER.format(setup)],
                               stdout=subprocess.PIPE, text=True, env=_env(base))
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def test_a_session_cannot_write_the_proc_files_of_a_process_that_is_not_dumpable(
        base: Path) -> None:
    guarded, plain = _sleeper(base, True), _sleeper(base, False)
    try:
        done = subprocess.run([*AS_NOBODY, sys.executable, "-P", "-c", ATTACK,
                               str(base / "served"), str(base / "temp"), str(guarded.pid),
                               str(plain.pid)],
                              capture_output=True, text=True, timeout=60, env=_env(base))
        assert done.returncode == 0, done.stderr
        seen = json.loads(done.stdout.strip().splitlines()[-1])
        assert seen["abi"] >= 1
        for name in ("oom_score_adj", "coredump_filter", "clear_refs"):
            assert seen[f"{guarded.pid} {name}"] == "Permission denied", seen
            # The same attack on a process that did not guard itself goes through: the
            # exposure is real, and undumpable() is what closes it.
            assert seen[f"{plain.pid} {name}"] == "written", seen
    finally:
        for process in (guarded, plain):
            process.kill()
            process.wait()


def test_a_served_sessions_studio_is_not_dumpable(base: Path) -> None:
    """The session's first code (``studio.ssh.child``) guards the process before the studio
    runs: here a slow tournament, so that its ``/proc`` entries can be looked at meanwhile."""
    served = base / "served"
    project = create_project(served, "haunted", "Cup").path
    os.chown(project, NOBODY, NOBODY)
    session = subprocess.Popen(
        [*AS_NOBODY, sys.executable, "-P", "-m", "studio.ssh.child", "--served", str(served),
         "--temp", str(base / "temp"), "--", "tournament", "--project", str(project),
         "--name", "Built-in cup", "--pace", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(base))
    try:
        guarded = False
        end = time.monotonic() + 20
        while time.monotonic() < end and session.poll() is None and not guarded:
            # setpriv starts as root (its files are root's too): wait for nobody's python, then
            # for its files to go to root as the child guards itself.
            guarded = _uids(session.pid) == [NOBODY] * 4 and \
                os.stat(f"/proc/{session.pid}/oom_score_adj").st_uid == 0
            time.sleep(0.05)
        assert session.poll() is None, session.stderr.read() if session.stderr else ""
        assert guarded, (_uids(session.pid), os.stat(f"/proc/{session.pid}/oom_score_adj"))
    finally:
        session.kill()
        session.wait()


def _uids(pid: int) -> list[int]:
    """Real, effective, saved and file-system uid of ``pid``."""
    status = Path(f"/proc/{pid}/status").read_text()
    return [int(v) for v in next(line for line in status.splitlines()
                                 if line.startswith("Uid:")).split()[1:]]
