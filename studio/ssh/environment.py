"""What a session's studio process starts with: its command line (the server's options and who
logged in), its environment (the server's variables it may see, the client's few checked hints)
and the studio's bytecode, compiled once for every session."""

from __future__ import annotations

import compileall
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import studio
from studio.storage.roster import Person

PACKAGE_ROOT = Path(studio.__file__).resolve().parent.parent
"""The folder that holds the ``studio`` package: sessions run this very copy of the studio."""

_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
_PASSED_ENV = ("PATH", "HOME", "USER", "LOGNAME", "TZ", "TMPDIR", "XDG_STATE_HOME",
               "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")
"""The server's own variables a session inherits; the client's are not trusted, except below."""


def session_argv(folder: Path, theme: str | None, hidden: Iterable[Path],
                 temp: Path | None = None, person: Person | None = None,
                 shared_view: bool = False) -> list[str]:
    """The session's command line: the server's options (the served folder, the session's temp
    folder, the files to hide, who logged in), then ``--`` and the studio's own arguments.

    Built here from the server's own values only: nothing a client sends reaches it.
    """
    theme_option = ["--theme", theme] if theme else []
    served = str(Path(folder).resolve())
    mine = ["--served", served]
    if temp is not None:
        mine += ["--temp", str(temp)]
    for path in hidden:
        mine += ["--hide", str(Path(path).absolute())]
    if person is not None:
        mine += ["--role", person.role, "--name", person.name]
        mine += ["--team", person.team] if person.team else []
        mine += ["--shared-view", "1"] if shared_view else []
    # -P: the working folder may hold another checkout's ``studio``; never import that one.
    return [sys.executable, "-P", "-m", "studio.ssh.child", *mine, "--", "open", *theme_option,
            served]


def session_env(term: str | None, client_env: dict[str, str],
                server_env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a session's studio process.

    Only the terminal type and colour hints come from the client, checked; the locale is always
    UTF-8, since what the studio draws (box lines, blocks, arrows) needs it.
    """
    base = os.environ if server_env is None else server_env
    env = {name: base[name] for name in _PASSED_ENV if name in base}
    env["TERM"] = term if term and _TERM.fullmatch(term) else "xterm-256color"
    env["LANG"] = "C.UTF-8"
    env["PYTHONUTF8"] = "1"
    env["PYTHONPATH"] = str(PACKAGE_ROOT)
    if client_env.get("COLORTERM") in ("truecolor", "24bit"):
        env["COLORTERM"] = client_env["COLORTERM"]
    if "NO_COLOR" in client_env:
        env["NO_COLOR"] = "1"
    return env


def precompile() -> None:
    """Write the studio's bytecode once, so that no session pays for compiling it.

    Without cached bytecode (a fresh checkout, or PYTHONDONTWRITEBYTECODE in the environment)
    every session would compile ~300 modules before its first frame: about 0.3 s of a 0.6 s start.
    """
    try:
        compileall.compile_dir(PACKAGE_ROOT / "studio", quiet=2, workers=1)
    except OSError:
        pass  # a read-only install: sessions start a little slower, that is all
