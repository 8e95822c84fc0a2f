"""``studio serve --ssh``: share the studio over SSH without administering sshd."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import subprocess
import sys
import threading
from pathlib import Path

from studio.commands import command
from studio.storage import ProjectError

INSTALL_HINT = ("the SSH server needs the optional 'ssh' extra: pip install 'tilegame-studio[ssh]' "
                "(in a checkout: .venv/bin/pip install -e '.[ssh]'; python3 dev.py installs it)")


def _fail(message: str) -> int:
    print(f"studio: {message}", file=sys.stderr)
    return 1


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ssh", action="store_true", required=True,
                        help="serve over SSH (the only way for now; required)")
    parser.add_argument("folder", nargs="?", default="games", metavar="FOLDER",
                        help="the folder of projects every session opens (default: ./games)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: 127.0.0.1, this machine only; "
                             "0.0.0.0 for every address)")
    parser.add_argument("--port", type=int, default=2222, help="port (default: 2222; 0: any free)")
    parser.add_argument("--authorized-keys", metavar="FILE", type=Path,
                        default=Path.home() / ".ssh" / "authorized_keys",
                        help="public keys allowed to log in (default: ~/.ssh/authorized_keys; "
                             "read again at every login)")
    parser.add_argument("--host-key", metavar="FILE", type=Path, default=None,
                        help="the server's private key (default: made once in "
                             "$XDG_STATE_HOME/studio or ~/.local/state/studio)")
    parser.add_argument("--roster", metavar="FILE", type=Path, default=None,
                        help="who each key is: a person, a role (teacher, student, spectator) "
                             "and a student's team (see the README); read again at every login "
                             "and then the only keys let in (default: none, everyone a teacher)")
    parser.add_argument("--max-sessions", metavar="N", type=int, default=8,
                        help="studios at once (each session's own, and the spectators' shared "
                             "views); more are refused with a message (default: 8)")
    parser.add_argument("--max-spectators", metavar="N", type=int, default=200,
                        help="spectators at once on shared views (default: 200)")
    parser.add_argument("--private-spectators", action="store_true",
                        help="give each spectator a studio of their own (their keys then work: "
                             "b, l, ?) instead of one shared view per window size")
    parser.add_argument("--theme", choices=["dark", "light", "ansi"], default=None,
                        help="the theme every session starts in")


@command("serve", _arguments)
def _serve(args: argparse.Namespace) -> int:
    if sys.platform == "win32":  # each session is a studio in a pseudo-terminal: POSIX only
        return _fail("studio serve needs Linux or macOS (it gives every login a pseudo-terminal, "
                     "which Windows has not); on Windows run it in WSL")
    try:
        from studio.ssh import hostkey
        from studio.ssh.server import ServeConfig, StudioSSH, precompile
    except ImportError as exc:
        if "asyncssh" not in str(exc) and "cryptography" not in str(exc):
            raise
        return _fail(INSTALL_HINT)
    folder = Path(args.folder)
    if not folder.is_dir():
        raise ProjectError("no such folder", file=folder, hint="give a folder of projects")
    if not 0 < args.max_sessions <= 1000:
        return _fail("--max-sessions takes a number from 1 to 1000")
    if not 0 <= args.max_spectators <= 10000:
        return _fail("--max-spectators takes a number from 0 to 10000")
    key_path = args.host_key or hostkey.default_host_key_path()
    try:
        key, created = hostkey.load_or_create(key_path)
    except hostkey.HostKeyError as exc:
        return _fail(str(exc))
    if args.roster is None and not args.authorized_keys.is_file():
        print(f"studio: warning: {args.authorized_keys} does not exist yet: nobody can log in "
              "until it holds a public key", file=sys.stderr)
    roster_line = "no roster: everyone who logs in is a teacher (--roster FILE gives roles)"
    if args.roster is not None:
        from studio.storage.roster import load_roster

        roster = load_roster(args.roster)  # a mistake stops the start, naming file and field
        counts = {role: sum(p.role == role for p in roster.people)
                  for role in ("teacher", "student", "spectator")}
        roster_line = (f"roster {args.roster}: " + ", ".join(f"{n} {role}{'s' * (n != 1)}"
                       for role, n in counts.items()) + "; only its keys log in")
    precompile()
    config = ServeConfig(folder=folder, authorized_keys=args.authorized_keys, host_key=key,
                         host=args.host, port=args.port, max_sessions=args.max_sessions,
                         theme=args.theme, host_key_path=key_path, roster=args.roster,
                         max_spectators=args.max_spectators,
                         shared_spectators=not args.private_spectators)
    made = "made now" if created else "kept"
    return asyncio.run(_run(StudioSSH(config), f"{hostkey.fingerprint(key)} ({made} in {key_path})",
                            roster_line))


_WARM = ("import os, runpy, sys\nos.nice(10)\n"
         "for module in sys.argv[1:]:\n    runpy.run_module(module, run_name='__main__')")
"""The warm-up: each module given, as ``python -m`` runs it, niced below the sessions."""


def _warm_kernels() -> subprocess.Popen[bytes] | None:
    """Compile the solver's and the simulator's numba kernels once, niced, in the background.

    Sessions load copies of the kernels the install has compiled (``studio.ssh.child``); on an
    install where nothing has run yet, every session would compile its own on its first solve,
    a minute of processor time each, all at once when a class starts. Where they are compiled
    this only checks, in a second or two. None where numba is not installed.
    """
    from studio.engines import jit
    from studio.sessions import warmup

    if not jit.installed():
        return None
    try:
        warm = subprocess.Popen([sys.executable, "-P", "-c", _WARM, warmup.SOLVER, warmup.HAUNTED],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except OSError:
        return None  # the sessions compile what they need, as without it
    # Reaped when it ends, not when the server does: no <defunct> line under the server meanwhile.
    threading.Thread(target=warm.wait, name="kernel warm-up", daemon=True).start()
    return warm


async def _run(server, key_line: str, roster_line: str) -> int:
    from studio.ssh.jail import availability, undumpable

    undumpable()  # its sessions, the same user, cannot write the server's /proc entries

    config = server.config
    try:
        await server.start()
    except OSError as exc:
        return _fail(f"cannot listen on {config.host}:{config.port}: {exc.strerror or exc} "
                     "(choose another --port)")
    warm = _warm_kernels()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    host = config.host if ":" not in config.host else f"[{config.host}]"
    print(f"studio: serving {config.folder} over SSH on {host}:{server.port} "
          f"(at most {config.max_sessions} studios"
          + (f", and {config.max_spectators} spectators on shared views)\n"
             if config.shared_spectators else ")\n") +
          f"studio: host key {key_line}\n"
          + (f"studio: keys allowed: {config.authorized_keys}\n" if config.roster is None else "")
          + f"studio: {roster_line}\n"
          f"studio: sessions read and write only inside {config.folder}: {availability()}\n"
          + ("studio: compiling the solver's and simulator's kernels for the sessions in the "
             "background, niced (once per install; a check of a second or two after that)\n"
             if warm is not None else "") +
          f"studio: connect with: ssh -t -p {server.port} {host}\n"
          "studio: ctrl+c stops the server and every session", file=sys.stderr, flush=True)
    if config.host not in ("127.0.0.1", "::1", "localhost"):
        print("studio: warning: listening beyond this machine; every key in the file can edit "
              "the folder as you", file=sys.stderr, flush=True)
    await stop.wait()
    print("studio: stopping: ending every session", file=sys.stderr, flush=True)
    await server.close()
    if warm is not None and warm.poll() is None:
        warm.terminate()  # numba writes its cache atomically: the next start compiles the rest
        with contextlib.suppress(subprocess.TimeoutExpired):
            warm.wait(5)
    return 0
