#!/usr/bin/env python3
"""What watching a tournament live costs (issue 30, "Watch it live").

    python bench/watch.py [--spectators N] [--pace SECONDS] [--runs N] [--no-ssh]

1. The feed's cost to the tournament: the same run (built-ins in process: the fastest turns, so
   the worst case for the feed) with and without its live feed, interleaved; the median of each
   and their ratio. Then once with the AIs in their sandboxed workers, as tournaments run.
2. Spectators over SSH: ``studio serve --ssh`` on a copy of games/ with a roster, N spectators
   (default 30, one window size) on its shared view (``--private``: N teacher sessions, each on
   the spectator screen of haunted-tiles.toml from the hub, ``w``, a studio each), then
   ``studio tournament --pace`` plays its cup in another process. Printed: the server's, the sessions' and the tournament's
   CPU over the run, their memory, and the delay from a turn written to the feed to the turn on
   each spectator's screen (median, 95th percentile, worst), with how many turns each one saw.

Figures are printed, never asserted. Part 2 needs the 'ssh' and 'test' extras (asyncssh, pyte).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from studio.engines.haunted.maps import builtin_maps  # noqa: E402
from studio.engines.haunted.match import MatchConfig  # noqa: E402
from studio.engines.haunted.tournament import ROUND_ROBIN  # noqa: E402
from studio.sessions.haunted.tournament import TournamentPlan, TournamentRun  # noqa: E402

AIS = ("builtin:lookahead", "builtin:greedy", "builtin:cautious", "builtin:wander",
       "builtin:hunter", "builtin:idle")
CUP = "Built-in cup"
TICKS = os.sysconf("SC_CLK_TCK")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


# ------------------------------------------------------------------------------ feed cost


def timed_run(folder: Path, feed: bool, in_process: bool = True,
              entrants=AIS) -> tuple[float, float]:
    """Seconds of the run: processor time (this process, the AIs in it when in process) and
    wall time (the replays' fsyncs weigh on it, and on a busy machine it strays)."""
    plan = TournamentPlan(ROUND_ROBIN, entrants, MatchConfig(rounds=3), builtin_maps(), 5,
                          replays=folder, in_process_builtins=in_process)
    run = TournamentRun(plan)
    run.live_feed = feed
    cpu, wall = time.process_time(), time.perf_counter()
    run.run()
    return time.process_time() - cpu, time.perf_counter() - wall


def feed_cost(work: Path, runs: int) -> None:
    timed_run(work / "warm", True)
    with_feed, without = [], []
    for k in range(runs):  # interleaved: a machine busy for a while weighs on both alike
        with_feed.append(timed_run(work / f"f{k}", True))
        without.append(timed_run(work / f"n{k}", False))
    size = (work / "f0" / "live.jsonl").stat().st_size
    print(f"tournament of {len(AIS)} built-ins in process, round robin, best of 3 "
          f"({runs} runs each, interleaved; feed {size / 1024:.0f} KiB):")
    for k, what in enumerate(("processor time", "wall time")):
        a = statistics.median(r[k] for r in with_feed)
        b = statistics.median(r[k] for r in without)
        low = min(r[k] for r in with_feed) / min(r[k] for r in without)
        print(f"  {what:<15} {a * 1000:6.0f} ms with the feed, {b * 1000:6.0f} ms without: "
              f"ratio {a / b:.3f} of the medians, {low:.3f} of the fastest")
    few = AIS[:3]
    a = timed_run(work / "wf", True, in_process=False, entrants=few)[1]
    b = timed_run(work / "wn", False, in_process=False, entrants=few)[1]
    print(f"the same with {len(few)} AIs in sandboxed workers (one run each, wall time): "
          f"{a:.2f} s with the feed, {b:.2f} s without, ratio {a / b:.3f}")


# ------------------------------------------------------------------------- spectators


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


class Watcher:
    """A spectator's terminal: when each (match, round, turn) first reached it.

    Read from the bytes as they arrive rather than from a terminal emulator: thirty pyte
    screens kept this process busier than the server and the sessions together, so it read the
    frames late and measured its own delay. The studio sends the status line, the round title
    and the turn panel's first line whole, each when it changes; what came last holds.
    """

    ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
    MARKS = re.compile(rb"match (\d+) \xc2\xb7|Round (\d+) of|turn (\d+)(?!\d)")

    def __init__(self, terminal) -> None:
        self.terminal = terminal
        self.seen: dict[tuple[int, int, int], float] = {}
        self._tail = b""
        self._match = self._round = 0
        terminal.stream.feed = lambda data: None  # no screen kept from now on

        received = terminal.received

        def look(data: bytes) -> None:
            received(data)
            self._look(data)

        terminal.received = look

    def _look(self, data: bytes) -> None:
        now = time.time()
        text = self.ESCAPE.sub(b"", self._tail + data)
        self._tail = data[-48:]
        for found in self.MARKS.finditer(text):
            match, round_, turn = found.groups()
            if match:
                self._match = int(match)
            elif round_:
                self._round = int(round_)
            elif self._match and self._round:
                self.seen.setdefault((self._match, self._round, int(turn)), now)


def feed_turns(path: Path) -> dict[tuple[int, int, int], float]:
    """Each turn of the feed with the time it was written."""
    written: dict[tuple[int, int, int], float] = {}
    number = 0
    for line in path.read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "match":
            number = event["number"]
        elif event["event"] == "turn":
            written[(number, event["round"], event["record"]["turn"])] = event["t"]
    return written


async def play(folder: Path, pace: float, replays: Path) -> float:
    """Seconds ``studio tournament`` takes to play the project's cup at ``pace``."""
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        *tournament_command(folder, pace), "--replays", str(replays),
        stdout=asyncio.subprocess.DEVNULL, env=ENV)
    await process.wait()
    return time.monotonic() - started


def tournament_command(folder: Path, pace: float) -> list[str]:
    return [sys.executable, "-P", "-m", "studio", "tournament", "--project",
            str(folder / "haunted-tiles.toml"), "--name", CUP, "--pace", str(pace),
            "--rounds", "3", "--in-process"]


async def spectators(work: Path, count: int, pace: float, private: bool) -> None:
    from ssh import FIRST_FRAME, Server, memory_kb, open_project  # bench/ssh.py

    from studio.ssh.pty_process import descendants
    from studio.storage import scan_folder

    folder = work / "games"
    shutil.copytree(ROOT / "games", folder)
    names = [entry.path.name for entry in scan_folder(folder)]
    row = names.index("haunted-tiles.toml")
    alone = await play(folder, pace, work / "alone")
    print(f"\nthe cup at {pace:g} s a turn, nobody watching: {alone:.1f} s")
    options: tuple[str, ...] = ()
    if not private:  # the roster's spectators: one shared view for all (same window size)
        options = ("--roster", str(work / "roster.toml"))
    server = Server(folder, work, count + 1, options)
    line = server.key.export_public_key().decode().strip()
    (work / "roster.toml").write_text(  # every client logs in with the one key
        f'[[person]]\nname = "Fan"\nrole = "spectator"\nkeys = ["{line}"]\n')
    async with server:
        watchers = []
        started = time.monotonic()
        for k in range(count):
            terminal = await server.login()
            if private:  # a teacher's session each, on the hub's spectator screen
                await terminal.wait_for(*FIRST_FRAME, timeout=120)
                await open_project(terminal, row, "— hub")
                await terminal.press("w")
            await terminal.wait_for("waiting", timeout=60)
            watchers.append(Watcher(terminal))
        how = "each in a studio of their own" if private else "on one shared view"
        print(f"{count} spectators logged in and watching ({how}) in "
              f"{time.monotonic() - started:.0f} s")
        await asyncio.sleep(2)
        sessions = descendants(server.process.pid)
        pids = [server.process.pid, *sessions]
        before = {pid: cpu_seconds(pid) for pid in pids}
        idle_bytes = sum(w.terminal.bytes for w in watchers)
        await asyncio.sleep(5)
        idle_bytes = sum(w.terminal.bytes for w in watchers) - idle_bytes
        idle_cpu = sum(cpu_seconds(p) - before[p] for p in pids) / 5
        print(f"  waiting, before the run: {idle_cpu * 100:.1f}% of a core for server and "
              f"sessions together, {idle_bytes} B sent in 5 s")
        before = {pid: cpu_seconds(pid) for pid in pids}
        clients_cpu = time.process_time()
        wall = time.monotonic()
        tournament = await asyncio.create_subprocess_exec(
            *tournament_command(folder, pace), stdout=asyncio.subprocess.DEVNULL, env=ENV)
        peak: dict[int, int] = {}
        tournament_cpu = 0.0
        while tournament.returncode is None:
            tournament_cpu = cpu_seconds(tournament.pid) or tournament_cpu
            for pid in pids:
                peak[pid] = max(peak.get(pid, 0), memory_kb(pid))
            try:
                await asyncio.wait_for(tournament.wait(), 1.0)
            except asyncio.TimeoutError:
                pass
        wall = time.monotonic() - wall
        clients_cpu = time.process_time() - clients_cpu
        await asyncio.sleep(1.0)  # the last frames arrive
        used = {pid: cpu_seconds(pid) - before[pid] for pid in pids}
        feed = folder / "replays" / "built-in-cup" / "live.jsonl"
        written = feed_turns(feed)
        delays = [w.seen[key] - t for w in watchers for key, t in written.items() if key in w.seen]
        shares = [sum(key in w.seen for key in written) / len(written) for w in watchers]
        server_cpu = used[server.process.pid]
        session_cpu = [used[p] for p in sessions]
        print(f"  the cup at {pace:g} s a turn, watched: {len(written)} turns in {wall:.1f} s")
        print(f"  the tournament's process: {tournament_cpu / wall * 100:.1f}% of a core "
              f"(read up to its last second)")
        print(f"  server process: {server_cpu / wall * 100:.1f}% of a core, "
              f"{peak.get(server.process.pid, 0) / 1024:.1f} MB PSS")
        print(f"  each of the {len(sessions)} studios: {statistics.mean(session_cpu) / wall * 100:.1f}% "
              f"of a core on average (max {max(session_cpu) / wall * 100:.1f}%), "
              f"{statistics.mean(peak.get(p, 0) for p in sessions) / 1024:.1f} MB PSS")
        print(f"  all {len(sessions)} studios together: {sum(session_cpu) / wall * 100:.0f}% of a "
              f"core (this machine has {os.cpu_count()} cores)")
        print(f"  server and studios together: {(server_cpu + sum(session_cpu)) / wall * 100:.0f}% "
              f"of a core")
        print(f"  the {count} SSH clients (this benchmark's process, on the same machine): "
              f"{clients_cpu / wall * 100:.0f}% of a core")
        if delays:
            delays.sort()
            p95 = delays[int(0.95 * (len(delays) - 1))]
            print(f"  delay, written to the feed -> on a spectator's screen: median "
                  f"{statistics.median(delays) * 1000:.0f} ms, 95th percentile {p95 * 1000:.0f} ms, "
                  f"worst {delays[-1] * 1000:.0f} ms (target: 500 ms)")
        print(f"  turns seen per spectator: {min(shares) * 100:.0f}% at least, "
              f"{statistics.mean(shares) * 100:.0f}% on average")
        for watcher in watchers:
            await watcher.terminal.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--spectators", type=int, default=30)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--no-ssh", action="store_true", help="measure the feed's cost only")
    parser.add_argument("--private", action="store_true",
                        help="each spectator in a studio of their own (a teacher's session on "
                             "the spectator screen), as before shared views")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="studio-bench-watch-") as tmp:
        work = Path(tmp)
        feed_cost(work, args.runs)
        if not args.no_ssh:
            sys.path.insert(0, str(ROOT / "bench"))
            asyncio.run(spectators(work, args.spectators, args.pace, args.private))


if __name__ == "__main__":
    main()
