"""The first code a session's studio process runs: take the terminal, then start the studio.

The server starts this in a new session with the pseudo-terminal as stdin/stdout/stderr. Making
that terminal the session's *controlling* terminal is what lets the kernel deliver SIGWINCH when
the client's window changes and SIGHUP when the client goes away. Doing it here rather than in
a ``preexec_fn`` keeps the server's fork free of Python code (unsafe next to threads).

    python -m studio.ssh.child [studio arguments ...]
"""

from __future__ import annotations

import contextlib
import fcntl
import sys
import termios


def main() -> int:
    with contextlib.suppress(OSError):  # already ours, or not a terminal: run anyway
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    from studio.cli import main as studio_main

    return studio_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
