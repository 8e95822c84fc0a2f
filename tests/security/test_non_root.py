"""A studio that is not root confines its AIs too (issue 28): for real, as another user.

Started by root, a worker switches to a uid of its own; started by anyone else it enters a user
namespace instead, where it may make its network and IPC namespaces and drop what it holds.
Everything else runs as root here, so this test drops to ``nobody`` (``setpriv``) and plays a
real ``studio match`` on a small project: a Python AI that tries to read another team's source,
the project file and ``/etc/shadow`` against a JavaScript AI (a Python one where mini-racer is
not available to that user). The match must say both were confined, and every read must fail,
though ``nobody`` itself may read the first two: only the confinement stops them.

Skipped, saying why, where it cannot run: not root (nobody to drop to: the other tests already
run this path), no ``setpriv``, no Landlock, no user namespaces, or an interpreter that user
cannot run (a Python under root's home).
"""

from __future__ import annotations

import gzip
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.engines.haunted.ai import landlock
from studio.storage import create_project, load_project, save_project

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
SETPRIV = shutil.which("setpriv")

THIEF = '''import ctypes, os

PATHS = {paths!r}
print("uid", os.getuid(), "map", open("/proc/self/uid_map").read().split())
print("dumpable", ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))  # PR_GET_DUMPABLE
for path in PATHS:
    try:
        with open(path, "rb") as file:
            print(path, "reads", file.read(200))
    except OSError as exc:
        print(path, "refused:", type(exc).__name__)


def main(game_state, side):
    return ["none", "none", "none"]
'''
SCRIPT = '''console.log("script loaded, require is " + typeof require);
function main(gameState, side) { return ["none", "none", "none"]; }
'''


def _max_user_namespaces() -> int:
    try:
        return int(Path("/proc/sys/user/max_user_namespaces").read_text())
    except (OSError, ValueError):
        return 0


def as_nobody(argv: list[str], cwd: Path, env: dict[str, str],
              timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                           *argv], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture
def home() -> Iterator[tuple[Path, dict[str, str]]]:
    """A folder of ``nobody``'s (its home and its temp folder) in one anyone may enter, and the
    environment the studio runs with; skips where this test cannot run."""
    if os.geteuid() != 0:
        pytest.skip("not root: there is no other user to drop to (and the other tests of "
                    "tests/security already run the non-root path)")
    if SETPRIV is None:
        pytest.skip("no setpriv (util-linux) to run the studio as another user")
    if not sys.platform.startswith("linux") or landlock.abi_version() < 1:
        pytest.skip("the kernel has no Landlock: confinement would be incomplete for any user")
    if _max_user_namespaces() == 0:
        pytest.skip("user namespaces are disabled (user.max_user_namespaces = 0)")
    base = Path(tempfile.mkdtemp(prefix="studio-nobody-"))
    try:
        base.chmod(0o755)
        for sub in ("home", "tmp", "project"):
            (base / sub).mkdir()
            os.chown(base / sub, NOBODY, NOBODY)
        env = {"PATH": "/usr/bin:/bin", "HOME": str(base / "home"), "TMPDIR": str(base / "tmp"),
               "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT)}
        reach = as_nobody([sys.executable, "-c", "import studio.cli"], base, env, 60)
        if reach.returncode != 0:
            last = (reach.stderr.strip().splitlines() or ["no output"])[-1]
            pytest.skip(f"uid {NOBODY} cannot run this interpreter ({sys.executable}): {last}")
        yield base, env
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _js_for_nobody(base: Path, env: dict[str, str]) -> bool:
    probe = "from studio.engines.haunted.ai.factory import js_available as j; exit(not j())"
    return as_nobody([sys.executable, "-c", probe], base, env, 60).returncode == 0


def test_a_studio_run_by_an_ordinary_user_confines_python_and_js_ais(home) -> None:
    base, env = home
    folder = base / "project"
    (folder / "ais").mkdir()
    tokens = {name: f"SECRET-{name}-{secrets.token_hex(8)}" for name in ("other", "project")}
    project = create_project(folder, "haunted", "Cup")
    other = folder / "ais" / "other_team.py"
    other.write_text(f"# {tokens['other']}\ndef main(game_state, side):\n    return []\n")
    paths = [str(other), str(project.path), "/etc/shadow"]
    (folder / "ais" / "thief.py").write_text(THIEF.format(paths=paths))
    js = _js_for_nobody(base, env)
    (folder / "ais" / "script.js").write_text(SCRIPT)
    body = {key: value for key, value in project.body.items() if key != "tournament"}
    body["match"] = {**body.get("match", {}), "require_confinement": True}
    body["team"] = [
        {"name": "Thieves", "runtime": "python", "source": "ais/thief.py"},
        {"name": "Scripts", "runtime": "js", "source": "ais/script.js"},
        {"name": "Others", "runtime": "python", "source": "ais/other_team.py"},
    ]
    project.body = body
    project.header.name = f"Cup {tokens['project']}"
    save_project(project)
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
        path.chmod(0o755 if path.is_dir() else 0o644)
    # Without confinement nobody reads them: only the confinement can stop the AI.
    for path in paths[:2]:
        assert as_nobody(["cat", path], base, env).returncode == 0, path
    opponent = "Scripts" if js else "Others"
    result = as_nobody([sys.executable, "-m", "studio", "match", "Thieves", opponent,
                        "--project", str(project.path), "--rounds", "1", "--seed", "3",
                        "--timeout", "5", "--json", "--replay", "match.json.gz"], folder, env)
    assert result.returncode == 0, result.stderr
    assert "unconfined" not in result.stderr, result.stderr  # require_confinement would refuse
    assert json.loads(result.stdout)["log"] == []
    replay = gzip.decompress((folder / "match.json.gz").read_bytes()).decode()
    document = json.loads(replay)
    teams = document["teams"]
    assert (teams["A"]["runtime"], teams["B"]["runtime"]) == ("python", "js" if js else "python")
    assert teams["A"]["confined"] is True and teams["B"]["confined"] is True, teams
    loaded = document["rounds"][0]["load"]
    printed = loaded["A"]["stdout"]
    assert f"uid {NOBODY} map ['{NOBODY}', '{NOBODY}', '1']" in printed  # its own user namespace
    # Not dumpable, so its /proc files are root's: another session of this user cannot write
    # them (test_proc_neighbours shows the attack refused on such a process) (issue 30).
    assert "dumpable 0" in printed, printed
    for path in paths:
        assert f"{path} refused: PermissionError" in printed, printed
    for name, token in tokens.items():
        assert token not in replay.replace(f"Cup {tokens['project']}", ""), name
        assert token not in printed and token not in result.stdout, name
    if js:
        assert "script loaded, require is undefined" in loaded["B"]["stdout"]


DENY_UNSHARE = '''import ctypes, os, platform, sys

ARCHES = {"x86_64": (0xC000003E, 272), "aarch64": (0xC00000B7, 97)}  # unshare's number
arch, unshare = ARCHES[platform.machine()]


class Insn(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(Insn))]


code = [(0x20, 0, 0, 4), (0x15, 0, 3, arch), (0x20, 0, 0, 0), (0x15, 0, 1, unshare),
        (0x06, 0, 0, 0x00050000 | 1), (0x06, 0, 0, 0x7FFF0000)]  # EPERM, else allow
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(38, 1, 0, 0, 0) == 0  # no_new_privs
program = Prog(len(code), (Insn * len(code))(*code))
assert libc.prctl(22, 2, ctypes.byref(program), 0, 0) == 0, ctypes.get_errno()
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
'''


def test_where_this_user_may_not_make_namespaces_the_studio_says_so_before_playing(
        home) -> None:
    # As in a container whose seccomp profile refuses unshare: user.max_user_namespaces is not
    # 0, yet no worker can make its namespaces. The studio must know it before the match (a
    # match that requires confinement may not start), not only from the workers' reports.
    import platform

    if platform.machine() not in ("x86_64", "aarch64"):
        pytest.skip(f"no seccomp filter in this test for {platform.machine()}")
    base, env = home
    wrapper = base / "deny_unshare.py"
    wrapper.write_text(DENY_UNSHARE)
    wrapper.chmod(0o644)
    folder = base / "project"
    ai = folder / "idle.py"
    ai.write_text("def main(game_state, side):\n    return ['none'] * 3\n")
    os.chown(ai, NOBODY, NOBODY)
    match = [sys.executable, str(wrapper), "-m", "studio", "match", "idle.py", "builtin:idle",
             "--rounds", "1", "--seed", "3", "--timeout", "5"]
    refused = as_nobody([*match, "--require-confinement"], folder, env)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "requires confinement" in refused.stderr and "unshare" in refused.stderr
    played = as_nobody([*match, "--replay", "m.json.gz"], folder, env)
    assert played.returncode == 0, played.stderr
    assert "AIs run unconfined on this machine: network open (unshare: " in played.stderr
    teams = json.loads(gzip.decompress((folder / "m.json.gz").read_bytes()))["teams"]
    assert teams["A"]["confined"] is False  # and the worker, confining itself, agrees
