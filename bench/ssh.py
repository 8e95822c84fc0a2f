#!/usr/bin/env python3
"""What the studio costs over SSH, measured through the built-in server on 127.0.0.1.

    python bench/ssh.py [--runs N] [--idle SECONDS] [--sessions N]

Starts `studio serve --ssh` on a copy of the bundled games/ (a fresh host key and client key in a
temporary folder), logs in with asyncssh's client at 80×24 and prints:

- the studio's own start to first frame in a pseudo-terminal (no SSH), and connect to first frame
  through the server (targets: 500 ms and 1.5 s), with the first frame's bytes;
- bytes sent while idle for SECONDS (default 10) on each kind of screen (target: 0);
- bytes per keystroke: a list move, a map-editor cursor move, a tree-editor move, a play round;
- sessions held at once: N clients (default 12) log in one after another and type, until the
  server refuses (its --max-sessions is N) or one fails; memory of the server and per session.

Figures are printed, never asserted. Needs the 'ssh' and 'test' extras (asyncssh, pyte).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

import asyncssh  # noqa: E402
from ptytime import first_frame, terminal_env  # noqa: E402

from studio.ssh.pty_process import descendants  # noqa: E402
from studio.storage import scan_folder  # noqa: E402
from tests.ssh.terminal import RemoteTerminal  # noqa: E402

SIZE = (80, 24)
ENV = terminal_env(pythonpath=ROOT)
FIRST_FRAME = ("TileCode Sokoban", "palette")  # the last project and the footer: all drawn


def memory_kb(pid: int, field: str = "Pss") -> int:
    """A process's memory in kB: ``Pss`` (its fair share; shared pages split) or ``Rss``."""
    path = f"/proc/{pid}/smaps_rollup" if field == "Pss" else f"/proc/{pid}/status"
    key = "Pss:" if field == "Pss" else "VmRSS:"
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Server:
    """``studio serve --ssh`` in its own process group on a free port."""

    def __init__(self, folder: Path, work: Path, max_sessions: int,
                 options: tuple[str, ...] = ()) -> None:
        self.folder, self.work, self.max_sessions = folder, work, max_sessions
        self.options = options
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        (work / "authorized_keys").write_bytes(self.key.export_public_key())

    async def __aenter__(self) -> Server:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-P", "-m", "studio", "serve", "--ssh", str(self.folder),
            "--port", "0", "--authorized-keys", str(self.work / "authorized_keys"),
            "--host-key", str(self.work / "host_key"), "--max-sessions", str(self.max_sessions),
            *self.options,
            env={**ENV, "HOME": str(self.work)}, stderr=asyncio.subprocess.PIPE,
            start_new_session=True)
        line = b""
        while b"connect with" not in line:
            line = await asyncio.wait_for(self.process.stderr.readline(), 60)
            if not line:
                raise SystemExit("the server did not start")
        self.port = int(line.split(b"-p ")[1].split()[0])
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 30)
        except asyncio.TimeoutError:
            os.killpg(self.process.pid, signal.SIGKILL)
            await self.process.wait()

    async def login(self) -> RemoteTerminal:
        return await RemoteTerminal.open(self.port, self.key, size=SIZE)


# ------------------------------------------------------------------------------ start-up


def pty_start(folder: Path) -> float:
    """Seconds from starting ``studio FOLDER`` in a pseudo-terminal to its first full frame."""
    return first_frame([sys.executable, "-P", "-m", "studio", str(folder)], FIRST_FRAME,
                       size=SIZE, env=ENV).seconds


async def ssh_start(server: Server) -> tuple[float, int]:
    """Seconds from connecting to the first full frame, and the first frame's bytes."""
    started = time.perf_counter()
    terminal = await server.login()
    await terminal.wait_for(*FIRST_FRAME, timeout=30)
    elapsed = time.perf_counter() - started
    await terminal.settle(0.5)
    size = terminal.bytes
    await terminal.close()
    return elapsed, size


# ------------------------------------------------------------------------- wire figures


async def open_project(terminal: RemoteTerminal, index: int, title: str) -> None:
    await terminal.press(*["down"] * index, "enter")
    await terminal.wait_for(title)


async def idle_bytes(terminal: RemoteTerminal, seconds: float) -> int:
    await terminal.settle(1.0)
    before = terminal.bytes
    await asyncio.sleep(seconds)
    return terminal.bytes - before


async def bytes_per_key(terminal: RemoteTerminal, keys: list[str], repeat: int = 10) -> float:
    counts = []
    for turn in range(repeat):
        key = keys[turn % len(keys)]
        await terminal.settle(0.2)
        before = terminal.bytes
        await terminal.press(key, pause=0)
        await asyncio.sleep(0.05)
        await terminal.settle(0.2)
        counts.append(terminal.bytes - before)
    return statistics.mean(counts)


async def wire(server: Server, folder: Path, idle: float) -> None:
    names = [entry.path.name for entry in scan_folder(folder)]

    def row(name: str) -> int:
        return names.index(name)

    plans = [  # (screen, project file, its first screen, keys then, what that shows)
        ("home", None, None, [], None),
        ("TileCode game home", "hello-world.toml", "game home", [], None),
        ("TileCode map editor", "hello-world.toml", "game home", ["m"], "— map"),
        ("TileCode play, paused", "hello-world.toml", "game home", ["g", "p"], "paused ·"),
        ("behaviour-tree editor", "crypt.toml", "— tree", [], None),
        ("behaviour-tree play", "sokoban.toml", "— tree", ["g"], "— play"),
        ("Haunted Tiles hub", "haunted-tiles.toml", "— hub", [], None),
        ("Haunted Tiles map editor", "haunted-tiles.toml", "— hub", ["p"], "— maps"),
    ]
    print(f"\nbytes sent while idle for {idle:.0f} s after the first frame (target 0):")
    for label, file, first, keys, then in plans:
        terminal = await server.login()
        await terminal.wait_for(*FIRST_FRAME)
        if file is not None:
            await open_project(terminal, row(file), first)
            await terminal.press(*keys)
            if then:
                await terminal.wait_for(then)
        count = await idle_bytes(terminal, idle)
        print(f"  {label:<26} {count:6d} B  ({count / idle:.1f} B/s)")
        await terminal.close()

    print("\nbytes per keystroke (mean of 10; only the changed lines are sent):")
    terminal = await server.login()
    await terminal.wait_for(*FIRST_FRAME)
    print(f"  home list, down/up         {await bytes_per_key(terminal, ['down', 'up']):8.0f} B")
    await open_project(terminal, row("hello-world.toml"), "game home")
    await terminal.press("m")
    await terminal.wait_for("— map")
    print(f"  map editor, cursor move    {await bytes_per_key(terminal, ['right', 'left']):8.0f} B")
    await terminal.press("escape", "g", "p")
    await terminal.wait_for("paused ·")
    print(f"  TileCode play, one round   {await bytes_per_key(terminal, ['n']):8.0f} B")
    await terminal.close()
    terminal = await server.login()
    await terminal.wait_for(*FIRST_FRAME)
    await open_project(terminal, row("crypt.toml"), "— tree")
    print(f"  tree editor, down/up       {await bytes_per_key(terminal, ['down', 'up']):8.0f} B")
    await terminal.close()


# ------------------------------------------------------------------------------ capacity


async def capacity(folder: Path, work: Path, count: int) -> None:
    async with Server(folder, work, count) as server:
        await asyncio.sleep(0.5)
        base = memory_kb(server.process.pid, "Rss")
        terminals, refused = [], ""
        for _ in range(count + 1):
            try:
                terminal = await server.login()
                await terminal.wait_for(*FIRST_FRAME, timeout=60)
            except AssertionError as failure:
                text = str(failure)
                refused = ("refused: the server is full" if "server is full" in text
                           else "failed: " + text.splitlines()[0])
                break
            await terminal.press("down", "up", pause=0.05)
            terminals.append(terminal)
        # Everyone types at once: each list moves and comes back.
        await asyncio.gather(*(t.press("down", "down", "up", "up", pause=0.05) for t in terminals))
        await asyncio.gather(*(t.settle(0.3) for t in terminals))
        children = descendants(server.process.pid)
        pss = [memory_kb(pid) for pid in children]
        rss = [memory_kb(pid, "Rss") for pid in children]
        grown = memory_kb(server.process.pid, "Rss") - base
        held = len(terminals)
        print(f"\nsessions held at once: {held} (limit {count}); the next one: {refused or 'accepted'}")
        print(f"  server process: {base / 1024:.1f} MB RSS idle, "
              f"+{grown / 1024 / max(held, 1):.2f} MB per session")
        if pss:
            print(f"  each session's studio: {statistics.mean(pss) / 1024:.1f} MB PSS "
                  f"({statistics.mean(rss) / 1024:.1f} MB RSS, shared pages counted in full)")
        for terminal in terminals:
            await terminal.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--sessions", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="studio-bench-ssh-") as tmp:
        work = Path(tmp)
        folder = work / "games"
        shutil.copytree(ROOT / "games", folder)
        async with Server(folder, work, 4) as server:
            pty_start(folder)  # warm the file cache and the bytecode
            own = [pty_start(folder) for _ in range(args.runs)]
            await ssh_start(server)
            runs = [await ssh_start(server) for _ in range(args.runs)]
            seconds = [elapsed for elapsed, _ in runs]
            print(f"studio start to first frame (pty, no SSH): {statistics.median(own) * 1000:6.0f} ms "
                  f"median of {args.runs} (min {min(own) * 1000:.0f}); target 500 ms")
            print(f"connect to first frame over SSH:           {statistics.median(seconds) * 1000:6.0f} ms "
                  f"median of {args.runs} (min {min(seconds) * 1000:.0f}); target 1500 ms")
            print(f"first frame at 80×24:                      {runs[-1][1]:6d} B")
            await wire(server, folder, args.idle)
        await capacity(folder, work, args.sessions)


if __name__ == "__main__":
    asyncio.run(main())
