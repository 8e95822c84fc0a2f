"""The AI worker: runs one AI for one round in its own process (spec haunted.md §8.1).

Run by path as ``python -I -S worker.py ...`` with a scrubbed environment and a fresh temp folder
as working directory. Standard library only (mini-racer too in ``--js`` mode). It speaks JSON lines
on two dedicated pipes; stdin is /dev/null and stdout/stderr are captured by the host separately,
so nothing an AI prints can be taken for a protocol message.

Messages (host → worker, then worker → host)::

    {"op": "load", "path": ..., "seed": 1234, "side": "home"[, "require_confinement": true]}
        {"ok": true, "ms": 12.0, "stdout": "", "stderr": "", "confined": true, "confinement": ...}
    {"op": "move", "turn": 3, "state": {...}, "side": "home"}
        {"ok": true, "result": [...], "ms": 0.8, "stdout": "...", "stderr": "..."}
        {"ok": false, "kind": "exception" | "bad_shape", "error": "...", ...}
    {"op": "check", "source": "..."}            (``--js`` only, instead of ``load``)
        {"ok": true} or {"ok": false, "kind": "syntax", "error": ..., "line": 3, "column": 5}
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

CALL_OUTPUT_LIMIT = 4096
"""Characters of print output kept per stream per call; the rest is counted and dropped."""
RESULT_LIMIT = 1024
"""Largest serialised answer accepted; a legal one is about 30 bytes (the host's ``ANSWER_LIMIT``,
checked there again)."""
TRUNCATED = "…truncated"


class BoundedText(io.TextIOBase):
    """A text stream keeping the first ``limit`` characters written since the last ``take``."""

    def __init__(self, limit: int = CALL_OUTPUT_LIMIT) -> None:
        self._limit = limit
        self._parts: list[str] = []
        self._size = 0
        self._dropped = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = self._limit - self._size
        if room > 0:
            self._parts.append(text[:room])
            self._size += min(room, len(text))
        if len(text) > room:
            self._dropped = True
        return len(text)

    def take(self) -> str:
        """The text kept since the last call (marked when some was dropped); then reset."""
        text = "".join(self._parts) + (TRUNCATED if self._dropped else "")
        self._parts, self._size, self._dropped = [], 0, False
        return text


class Session:
    """The protocol loop around one runtime (Python here, V8 in ``js_engine``)."""

    def __init__(self, reader: io.BufferedReader, writer: io.BufferedWriter) -> None:
        self._reader = reader
        self._writer = writer
        self.out = BoundedText()
        self.err = BoundedText()

    def send(self, message: dict[str, Any], result_json: str | None = None) -> None:
        """Send one reply with the output captured since the last one.

        Args:
            message: the reply's fields.
            result_json: the answer, already encoded (spliced in rather than decoded again).
        """
        message.setdefault("stdout", self.out.take())
        message.setdefault("stderr", self.err.take())
        body = json.dumps(message)
        if result_json is not None:
            body = body[:-1] + ', "result": ' + result_json + "}"
        self._writer.write(body.encode() + b"\n")
        self._writer.flush()

    def receive(self) -> dict[str, Any] | None:
        line = self._reader.readline()
        return json.loads(line) if line else None

    def captured(self, call: Callable[[], Any]) -> Any:
        """Run ``call`` with ``sys.stdout``/``sys.stderr`` (and so ``print``) captured."""
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = self.out, self.err
        try:
            return call()
        finally:
            sys.stdout, sys.stderr = saved


def encode_answer(result: Any) -> tuple[str | None, str]:
    """The answer as JSON text, or ``(None, why)`` when it is not a JSON value of sane size."""
    try:
        text = json.dumps(result)
    except (TypeError, ValueError, RecursionError) as exc:
        return None, f"the answer is not JSON-serialisable: {type(exc).__name__}: {exc}"
    if len(text) > RESULT_LIMIT:
        return None, f"answer too large ({len(text)} bytes of JSON; at most {RESULT_LIMIT})"
    return text, ""


def error_text(exc: BaseException) -> str:
    """A traceback without the worker's own frames (the AI's file and line come first)."""
    if isinstance(exc, SyntaxError):
        # The AI's file, line, text and caret are all in the exception; the frames would be
        # the loader's compile() call, which crowded the error itself out of the studio's view.
        return "".join(traceback.format_exception_only(type(exc), exc)).strip()[-2000:]
    here = os.path.realpath(__file__)
    frames = traceback.extract_tb(exc.__traceback__)
    frames = [f for f in frames if os.path.realpath(f.filename) != here] or frames
    lines = traceback.format_list(frames[-8:]) + traceback.format_exception_only(type(exc), exc)
    return "".join(lines).strip()[-2000:]


def run_python(session: Session, load: dict[str, Any],
               confine: Callable[[str], tuple[bool, str]]) -> None:
    """Load a Python AI and answer moves until the host closes the pipe."""
    import random
    import types

    import linecache

    with open(load["path"], encoding="utf-8-sig") as file:  # read before dropping rights
        source = file.read()
    # Tracebacks quote the AI's lines from this cache: after the uid switch its folder may be
    # out of reach (a 0700 temp or home folder). No mtime: the cache never drops the entry.
    linecache.cache[load["path"]] = (len(source), None, source.splitlines(True), load["path"])
    confined, confinement = confine(load["path"])
    started = time.perf_counter()
    module = types.ModuleType("ai")
    module.__file__ = load["path"]
    sys.modules["ai"] = module
    random.seed(load["seed"])
    try:
        code = compile(source, load["path"], "exec")
        session.captured(lambda: exec(code, module.__dict__))
        main = getattr(module, "main", None)
        if not callable(main):
            raise TypeError("the AI defines no callable main(game_state, side)")
    except BaseException as exc:  # noqa: BLE001 - SystemExit too: the AI's fault, reported
        kind = "crash" if isinstance(exc, MemoryError) else "exception"
        session.send({"ok": False, "kind": kind, "error": error_text(exc),
                      "confined": confined, "confinement": confinement})
        return
    session.send({"ok": True, "ms": (time.perf_counter() - started) * 1000,
                  "confined": confined, "confinement": confinement})

    def call(state: Any, side: str) -> Any:
        result = main(state, side)
        if isinstance(result, Awaitable):
            import asyncio  # noqa: PLC0415 - only async AIs pay for it (~40 ms to import)
            result = asyncio.run(_awaited(result))
        return result

    while (message := session.receive()) is not None:
        started = time.perf_counter()
        try:
            result = session.captured(lambda: call(message["state"], message["side"]))
        except MemoryError as exc:
            # The address-space limit: report it as the crash it is and stop (§7.2).
            session.send({"ok": False, "kind": "crash", "error": f"memory limit: {error_text(exc)}"})
            return
        except BaseException as exc:  # noqa: BLE001
            session.send({"ok": False, "kind": "exception", "error": error_text(exc)})
            continue
        answer(session, result, started)


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def answer(session: Session, result: Any, started: float) -> None:
    """Send one move's result (shape checks beyond JSON are the host's)."""
    text, why = encode_answer(result)
    ms = (time.perf_counter() - started) * 1000
    if text is None:
        session.send({"ok": False, "kind": "bad_shape", "error": why, "ms": ms})
        return
    session.send({"ok": True, "ms": ms}, result_json=text)


class _Options:
    """Command-line options (hand-parsed: argparse alone would add ~10 ms to every start)."""

    def __init__(self, argv: list[str]) -> None:
        values = dict(zip(argv[0::2], argv[1::2]))
        self.fds = values["--fds"]  # IN,OUT protocol pipe descriptors
        self.workdir = values["--workdir"]
        self.memory_mb = int(values.get("--memory-mb", 512))
        self.cpu_seconds = int(values.get("--cpu-seconds", 600))
        self.processes = int(values.get("--processes", 1))
        self.no_confine = values.get("--confine", "yes") == "no"
        self.js = values.get("--js", "")  # the mini-racer package folder: run V8
        self.js_memory_mb = int(values.get("--js-memory-mb", 64))
        self.js_data_mb = int(values.get("--js-data-mb", 0))
        self.parent = int(values.get("--parent", 0))
        self.readable = [path for path in values.get("--read", "").split(os.pathsep) if path]


def _sibling(here: str, name: str) -> Any:
    """Import a module of this folder (the worker runs by path with ``-S``, outside the package)."""
    sys.path.insert(0, here)
    try:
        return __import__(name)
    finally:
        sys.path.remove(here)


def main(argv: list[str]) -> int:
    """Entry point: apply limits, wait for ``load`` (or ``check``), confine, then serve."""
    args = _Options(argv)
    here = os.path.dirname(os.path.abspath(__file__))
    hardening = _sibling(here, "confine")
    _sibling(here, "privileges").die_with_parent(args.parent)
    in_fd, out_fd = (int(fd) for fd in args.fds.split(","))
    session = Session(os.fdopen(in_fd, "rb"), os.fdopen(out_fd, "wb"))
    hardening.set_limits(0 if args.js else args.memory_mb, args.cpu_seconds,
                         data_mb=args.js_data_mb if args.js else 0)
    first = session.receive()
    op = first.get("op") if first is not None else None
    if op not in ("load", "check") or (op == "check" and not args.js):
        return 2
    js_engine = None
    readable = list(args.readable)
    if args.js:
        js_engine = _sibling(here, "js_engine")
        # V8 is set up (library loaded, ICU data read) before confinement, while the worker
        # has one thread: its own threads start with the first context, after confinement.
        js_engine.import_mini_racer(args.js).init_mini_racer()
        readable.append(args.js)
    folders = hardening.runtime_folders(readable)

    def confine(source: str) -> tuple[bool, str]:
        if args.no_confine:
            done, how = False, "confinement switched off"
        else:
            done, how = hardening.confine(args.workdir, args.processes, folders, source,
                                          args.parent)
        if not done and first.get("require_confinement"):
            # Here, before a line of the AI runs: the host's prediction said confined, and the
            # kernel refused part of it (a container's seccomp profile, a sysctl) after all.
            session.send({"ok": False, "kind": "crash", "confined": False, "confinement": how,
                          "error": f"not run: confinement is required and this worker {how}"})
            raise SystemExit(3)
        return done, how

    if js_engine is not None and op == "check":
        # The AI editor's syntax check: parse without running (the host compiles Python itself).
        confine("")
        js_engine.check_js(session, first["source"], args.js_memory_mb)
    elif js_engine is not None:
        js_engine.run_js(session, first, args.js_memory_mb, confine)
    else:
        run_python(session, first, confine)
    return 0


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main(sys.argv[1:]))  # no interpreter teardown: nothing the AI left may hang it
