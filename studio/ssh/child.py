"""The first code a session's studio process runs: take the terminal, hold the session to the
served folder, then start the studio.

The server starts this in a new session with the pseudo-terminal as stdin/stdout/stderr. Making
that terminal the session's *controlling* terminal is what lets the kernel deliver SIGWINCH when
the client's window changes and SIGHUP when the client goes away. Doing it here rather than in
a ``preexec_fn`` keeps the server's fork free of Python code (unsafe next to threads).

    python -m studio.ssh.child --served FOLDER [--temp DIR] [--hide FILE ...]
        [--role ROLE --name NAME [--team TEAM] [--shared-view 1]] -- [studio args]

Everything before ``--`` is the server's: the argv is built by the server alone (a client
chooses nothing in it), so the folder, the files hidden from the session and (later) who the
user is (role, name, team: from the roster) cannot be forged from the client's side. The path rule is set before the studio is
imported, and Landlock before any thread starts (it binds the thread that asks, and every
thread and process started after).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import sys
import termios
from pathlib import Path


def _server_options(argv: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """The server's options (before ``--``) and the studio's arguments (after)."""
    if "--" not in argv:
        return {}, argv
    split = argv.index("--")
    options: dict[str, list[str]] = {}
    mine = argv[:split]
    for name, value in zip(mine[::2], mine[1::2], strict=True):
        options.setdefault(name.removeprefix("--"), []).append(value)
    return options, argv[split + 1:]


def main() -> int:
    # A shared view is asked to redraw with SIGUSR1 (studio.ssh.broadcast); until the studio
    # takes the signal, it must not end the process.
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # already ours, or not a terminal: run anyway
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    options, studio_args = _server_options(sys.argv[1:])
    if "served" in options:
        from studio.ssh.jail import confine, package_folder, undumpable
        from studio.storage import served

        undumpable()  # other sessions of this user cannot write our /proc entries

        root = Path(options["served"][0])
        temp = Path(options["temp"][0]) if "temp" in options else None
        os.chdir(root)  # a relative path a session types starts in its folder
        served.serve_from(root, options.get("hide", []), readable=[package_folder()])
        if "role" in options:
            from studio.sessions import access

            person = access.Access(options["role"][0], options.get("name", [""])[0],
                                   options.get("team", [""])[0], "shared-view" in options)
            access.grant(person)
            guard = access.file_guard(person, root.resolve())
            if guard is not None:
                served.guard_with(guard)
        if temp is not None:
            from studio.engines import jit

            # The install's compiled kernels, copied into the session's own folder and loaded
            # from there, by this process and the warm-ups it starts (``jit.COPY_ENV``): a
            # confined session cannot write the install's cache, and compiling them anew took
            # a minute of processor time per session, per student.
            os.environ[jit.COPY_ENV] = str(temp / "numba")
        _abi, _error = confine(root.resolve(), temp)  # the server's start line said which
    from studio.cli import main as studio_main

    return studio_main(studio_args)


if __name__ == "__main__":
    sys.exit(main())
