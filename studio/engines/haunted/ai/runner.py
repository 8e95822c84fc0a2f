"""Host side of a worker process: ``WorkerPlayer`` implements the ``Player`` contract.

One worker per AI per round: ``load`` starts it, moves reuse it (module state persists within the
round), ``close`` kills and reaps it. The host alone measures time; on overrun it kills the worker's
process group with SIGKILL (spec haunted.md §7.3, §8.1). Answers are timed when they arrive
(:mod:`.arrivals`), not when ``collect`` gets to them, so each AI is judged on its own clock.
Every write and read has that deadline, replies are capped, and the worker is stopped between its
turns (:mod:`.exchange`).
"""

from __future__ import annotations

import atexit
import importlib.util
import math
import os
import shutil
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path
from typing import Any

from studio.engines.haunted.ai import landlock, spawn
from studio.engines.haunted.ai.exchange import (
    REPLY_LIMIT,
    TOO_LARGE,
    TRUNCATED,
    Exchange,
    RawOutput,
    parse_reply,
)
from studio.engines.haunted.ai.probe import expected_confinement
from studio.engines.haunted.players import AIReply

WORKER = Path(__file__).with_name("worker.py")
ROUND_OUTPUT_LIMIT = 65536
_EXIT_GRACE = 0.5
"""Seconds to wait for the exit code of a worker whose reply pipe has closed."""
MAX_MOVES = 3
MAX_TURNS = 340
"""Longest possible round (§5.4) on the largest map, 15×15 at strength 3: ⌊(675 + 6) / 2⌋."""
V8_START_MB = 560
"""Writable memory (``RLIMIT_DATA``) a worker needs to start V8 and make one context: 555 MB
measured with mini-racer 0.14.1 (mostly the code range V8 reserves writable; about 67 MB of it
resident). A JavaScript worker's cap is this plus room for its heap and buffers."""
JS_THREADS = 4
"""Processes and threads a JavaScript worker may have: V8 runs with three (measured)."""


class WorkerPlayer:
    """A Python (or, with ``js=True``, JavaScript) AI in a sandboxed worker process.

    Args:
        path: the AI's source file.
        time_limit: seconds per move, wall clock, measured here; None for no limit (debug only).
        load_limit: seconds for start-up and the module's top level.
        memory_mb: address-space cap of a Python worker.
        cpu_seconds: CPU-time backstop; by default ``time_limit × MAX_TURNS + load_limit``.
        confine: apply Landlock, network and IPC namespaces, and drop every privilege (Linux).
        js: run the file in V8 (mini-racer) instead of Python.
        js_memory_mb: V8 heap cap; the whole worker's writable memory is capped at
            ``V8_START_MB + 3 × js_memory_mb`` (heap, ``ArrayBuffer`` contents and all).
        readable: folders the AI's runtime reads besides the standard library (a built-in AI
            that imports the studio); never a project folder.
        name: shown in logs; the file's stem by default.
    """

    def __init__(self, path: str | Path, *, time_limit: float | None = 2.0, load_limit: float = 5.0,
                 memory_mb: int = 512, cpu_seconds: int | None = None, confine: bool = True,
                 js: bool = False, js_memory_mb: int = 64, name: str | None = None,
                 readable: tuple[str, ...] = (), require_confinement: bool = False) -> None:
        self.path = Path(path).resolve()
        self.name = name or self.path.stem
        self.time_limit = time_limit
        self.load_limit = load_limit
        self.memory_mb = memory_mb
        per_move = time_limit or 60.0  # the longest configurable limit when there is none
        self.cpu_seconds = cpu_seconds or int(per_move * MAX_TURNS + load_limit) + 1
        self.js = js
        self.js_memory_mb = js_memory_mb
        self.readable = tuple(readable)
        self._confine = confine
        self.require_confinement = require_confinement
        """The worker refuses to run the AI where it cannot confine itself fully (it checks
        after confining, before any of the AI's code): the prediction can be wrong."""
        self.confined, self.unconfined_reason = expected_confinement(confine, js)
        self.confinement = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._workdir: str | None = None
        self._exchange: Exchange | None = None
        self._raw: list[RawOutput] = []
        self._sent_at = 0.0
        self._pending = False
        self._round_output = 0
        self._last_message: dict[str, Any] = {}

    # -- Player -------------------------------------------------------------------------------

    def load(self, seed: int, side: str) -> AIReply:
        """Start the worker and load the AI (within ``load_limit``)."""
        load = {"op": "load", "path": str(self.path), "seed": seed, "side": side}
        if self.require_confinement:
            load["require_confinement"] = True
        reply = self._begin(load)
        self._note_confinement()  # what the worker reached, when it got as far as saying
        if not reply.ok:
            self.close()
        return reply

    def request(self, turn: int, state: dict[str, Any], side: str) -> None:
        """Send the turn's state; returns at once."""
        self._sent_at = time.perf_counter()
        self._pending = True
        if self._process is not None:
            self._send({"op": "move", "turn": turn, "state": state, "side": side})

    def collect(self) -> AIReply:
        """Wait for the answer to the last request, at most ``time_limit`` after it was sent."""
        if not self._pending:
            return AIReply(False, failure="crash", error="collect() without request()")
        self._pending = False
        if self._process is None:
            return AIReply(False, failure="crash", error="the worker is not running")
        # No limit (the UI's debug switch, never in tournaments) waits as long as it takes.
        limit = self.time_limit if self.time_limit else math.inf
        reply = self._reply(self._sent_at + limit, self._sent_at)
        if reply.ok:
            reply = check_shape(reply)
        if reply.failure in ("timeout", "crash"):
            self.close()
        return reply

    def check(self, source: str) -> AIReply:
        """Parse JavaScript ``source`` in a fresh worker without running it (the AI editor's f6).

        V8 is only reachable in a worker, so even a parse never happens in the studio process.

        Returns:
            ok; or failure ``syntax`` with V8's message in ``error`` and ``result`` =
            ``{"line": …, "column": …}`` (1-based, None when unknown); ``timeout`` or ``crash``
            when the worker does not answer within ``load_limit``.
        """
        reply = self._begin({"op": "check", "source": source})
        if not reply.ok:
            reply.result = {key: self._last_message.get(key) for key in ("line", "column")}
        self.close()
        return reply

    def interrupt(self) -> None:
        """Kill the worker now, from any thread: an answer being waited for ends as a crash
        (and the waiting thread closes the player). What ends a move with no time limit."""
        process = self._process
        if process is not None:
            _kill_tree(process)

    def close(self) -> None:
        """Kill and reap the worker, remove its temp folder. Safe to call any number of times."""
        process, self._process = self._process, None
        _RUNNING.discard(self)
        if self._exchange is not None:
            self._exchange.close()  # first: no stop signal may reach a reaped (reused) pid
            self._exchange = None
        if process is not None:
            _kill_tree(process)
        for raw in self._raw:
            raw.join()
        self._raw = []
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None

    def __enter__(self) -> WorkerPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if sys.is_finalizing():  # threads are frozen: joining them or their streams aborts
                if self._process is not None:
                    _kill_tree(self._process)
                return
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit modules may already be gone
            pass

    @property
    def pid(self) -> int | None:
        """The worker's process id while it runs (for tests and diagnostics)."""
        return self._process.pid if self._process else None

    # -- plumbing -----------------------------------------------------------------------------

    def _begin(self, message: dict[str, Any]) -> AIReply:
        """Start a fresh worker, send its first message, and wait ``load_limit`` for the reply."""
        self.close()
        started = time.perf_counter()
        try:
            self._start()
        except OSError as exc:
            self.close()
            return AIReply(False, failure="crash", error=f"cannot start the worker: {exc}")
        self._last_message = {}
        self._send(message)
        return self._reply(started + self.load_limit, started)

    def _start(self) -> None:
        self._workdir = spawn.make_workdir()
        host_in, worker_out = os.pipe()
        worker_in, host_out = os.pipe()
        command = self._command(worker_in, worker_out)
        try:
            self._process = spawn.popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self._workdir, env=scrubbed_env(), pass_fds=(worker_in, worker_out),
                start_new_session=True)
        except BaseException:
            os.close(host_in)
            os.close(host_out)
            raise
        finally:
            os.close(worker_in)
            os.close(worker_out)
        self._exchange = Exchange(self._process.pid, host_out, host_in)
        self._raw = [RawOutput(self._process.stdout), RawOutput(self._process.stderr)]
        self._round_output = 0
        _RUNNING.add(self)

    def _command(self, worker_in: int, worker_out: int) -> list[str]:
        command = [sys.executable, "-I", "-S", str(WORKER), "--fds", f"{worker_in},{worker_out}",
                   "--workdir", str(self._workdir), "--memory-mb", str(self.memory_mb),
                   "--cpu-seconds", str(self.cpu_seconds), "--js-memory-mb", str(self.js_memory_mb),
                   "--parent", str(os.getpid())]
        if self.readable:
            command += ["--read", os.pathsep.join(self.readable)]
        if self.js:
            command += ["--js", mini_racer_dir(), "--processes", str(JS_THREADS),
                        "--js-data-mb", str(V8_START_MB + 3 * self.js_memory_mb)]
        if not self._confine:
            command += ["--confine", "no"]
        return command

    def _send(self, message: dict[str, Any]) -> None:
        if self._exchange is not None:
            self._exchange.send(message)

    def _reply(self, deadline: float, started: float) -> AIReply:
        """The answer that arrived by ``deadline``; its time runs from ``started`` to its arrival.

        The request is written first, by the same deadline: a worker that does not read it
        (its pipe full) must not hold the studio in a write any more than in a read.
        """
        exchange = self._exchange
        if exchange is None:
            return AIReply(False, failure="crash", error="the worker is not running")
        taken = exchange.finish(deadline)
        arrival = exchange.reply(deadline) if taken else None
        if arrival is None:
            ms = (time.perf_counter() - started) * 1000
            self.close()
            what = "no answer" if taken else "the request was not taken"
            return AIReply(False, failure="timeout", ms=ms,
                           error=f"{what} within {deadline - started:.2f} s; the worker was killed")
        ms = (arrival.at - started) * 1000
        if arrival.line is None:
            if arrival.ended == "eof":
                return self._crashed(ms)
            self.close()
            if arrival.ended == "unasked":
                return AIReply(False, failure="crash", ms=ms, error="the worker answered before "
                               "it was asked (answers written ahead); it was killed")
            return AIReply(False, failure="bad_shape", ms=ms, error=f"{TOO_LARGE}: a reply of "
                           f"more than {REPLY_LIMIT >> 10} KiB; the worker was killed")
        message, why = parse_reply(arrival.line)
        if message is None:
            self.close()
            failure = "bad_shape" if why.startswith(TOO_LARGE) else "crash"
            return AIReply(False, failure=failure, ms=ms, error=f"{why}; the worker was killed")
        stdout = self._bound(message.get("stdout", "") + self._raw[0].take())
        stderr = self._bound(message.get("stderr", "") + self._raw[1].take())
        self._last_message = message
        if not message.get("ok"):
            return AIReply(False, failure=message.get("kind", "exception"), ms=ms, stdout=stdout,
                           stderr=stderr, error=message.get("error", ""))
        return AIReply(True, result=message.get("result"), ms=ms, stdout=stdout, stderr=stderr)

    def _crashed(self, ms: float) -> AIReply:
        process = self._process
        code = None
        if process is not None:
            try:  # end of file comes from a worker that died, or is dying
                code = process.wait(timeout=_EXIT_GRACE)
            except subprocess.TimeoutExpired:  # closed its pipe but lives on: killed below
                pass
        stderr = self._bound(self._raw[1].take()) if self._raw else ""
        stdout = self._bound(self._raw[0].take()) if self._raw else ""
        self.close()
        if code is None:
            return AIReply(False, failure="crash", ms=ms, stdout=stdout, stderr=stderr,
                           error="the worker closed its reply pipe; it was killed")
        how = f"signal {-code}" if code < 0 else f"exit code {code}"
        if code == -signal.SIGXCPU:
            how += " (CPU time limit)"
        return AIReply(False, failure="crash", ms=ms, stdout=stdout, stderr=stderr,
                       error=f"the worker died ({how})")

    def _bound(self, text: str) -> str:
        """Apply the per-round budget on captured output."""
        room = ROUND_OUTPUT_LIMIT - self._round_output
        if len(text) <= room:
            self._round_output += len(text)
            return text
        self._round_output = ROUND_OUTPUT_LIMIT
        return text[:max(room, 0)] + TRUNCATED

    def _note_confinement(self) -> None:
        message = self._last_message
        if "confined" in message:
            self.confined = bool(message["confined"])
            self.confinement = message.get("confinement", "")
            self.unconfined_reason = "" if self.confined else f"runs unconfined: {self.confinement}"


_RUNNING: weakref.WeakSet[WorkerPlayer] = weakref.WeakSet()
"""Players with a live worker, closed at exit while threads still run (a player left unclosed
in a global was closed only at finalization, where joining its threads aborted the interpreter
and left the worker running)."""


@atexit.register
def _close_running() -> None:
    for player in list(_RUNNING):
        player.close()


def mini_racer_dir() -> str:
    """The installed ``py_mini_racer`` package folder (the JS worker imports it from there)."""
    spec = importlib.util.find_spec("py_mini_racer")
    if spec is None or not spec.submodule_search_locations:
        raise OSError("mini-racer is not installed: pip install 'tilegame-studio[js]'")
    return str(list(spec.submodule_search_locations)[0])


def check_shape(reply: AIReply) -> AIReply:
    """Answers that can never be valid (§7.2) fail here; list lengths 1..3 go to the referee."""
    result = reply.result
    if not isinstance(result, list):
        kind = "null" if result is None else type(result).__name__
        why = f"the answer must be a list of moves, not {kind}"
    elif len(result) > MAX_MOVES:
        why = f"the answer has {len(result)} moves; at most {MAX_MOVES}"
    else:
        return reply
    return AIReply(False, failure="bad_shape", error=why, ms=reply.ms, stdout=reply.stdout,
                   stderr=reply.stderr)


def scrubbed_env() -> dict[str, str]:
    """The worker's whole environment: nothing of the user's (no tokens, no PYTHON* paths)
    but a request to simulate a missing confinement feature (``landlock.SIMULATE_MISSING``)."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    simulated = os.environ.get(landlock.SIMULATE_MISSING)
    if simulated:
        env[landlock.SIMULATE_MISSING] = simulated
    return env


def _kill_tree(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the worker's process group, then reap it.

    The AI cannot leave the group: a Python worker runs with ``RLIMIT_NPROC`` 1 under a uid of its
    own (or in its own user namespace), so it starts no process; V8 starts none either.
    """
    for kill in (lambda: os.killpg(process.pid, signal.SIGKILL), process.kill):
        try:
            kill()
        except (ProcessLookupError, PermissionError):
            pass
    try:
        process.wait(timeout=5.0)
    except subprocess.TimeoutExpired:
        pass
