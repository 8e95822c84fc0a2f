"""Worker side of JavaScript AIs: one fresh V8 context (mini-racer) per round (spec §8.2).

Imported by the worker by path in ``--js`` mode. V8 gives scripts no file, network or process
access, and the worker is confined as a Python one is (``confine``) in case a script escapes V8:
the source is read, then the worker confines itself, then the context is made. The context is
closed explicitly (a used, unclosed MiniRacer hangs the interpreter at exit) and the worker ends
with ``os._exit`` in any case.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import time
from collections.abc import Callable
from typing import Any

try:
    from .js_prelude import PRELUDE
except ImportError:  # run by path inside the worker, where this folder is on sys.path
    from js_prelude import PRELUDE  # type: ignore[no-redef]
OUTPUT_LIMIT = 4096
RESULT_LIMIT = 1024
"""Bytes of JSON of one answer (the host's ``ANSWER_LIMIT``, checked there again)."""


def import_mini_racer(package_dir: str) -> Any:
    """Import mini-racer from its folder alone (the worker runs with ``-S``: no site-packages)."""
    import importlib.util  # noqa: PLC0415
    import sys  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location(
        "py_mini_racer", os.path.join(package_dir, "__init__.py"),
        submodule_search_locations=[package_dir])
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["py_mini_racer"] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def run_js(session: Any, load: dict[str, Any], memory_mb: int,
           confine: Callable[[str], tuple[bool, str]]) -> None:
    """Load a JavaScript AI and answer moves until the host closes the pipe.

    Args:
        session: the worker's protocol session (``worker.Session``).
        load: the ``load`` message (path, seed, side).
        memory_mb: V8 heap cap; reaching it is reported as a crash and ends the worker.
        confine: confines the worker, given the AI's source path; ``(confined, how)``.
    """
    from py_mini_racer import JSOOMException, MiniRacer  # noqa: PLC0415 - see import_mini_racer

    started = time.perf_counter()
    with open(load["path"], encoding="utf-8-sig") as file:
        source = file.read()
    seed = int(load["seed"]) & 0xFFFFFFFFFFFFFFFF
    prelude = (PRELUDE.replace("SEED_LOW", str(seed & 0xFFFFFFFF))
               .replace("SEED_HIGH", str(seed >> 32)).replace("OUTPUT_LIMIT", str(OUTPUT_LIMIT)))
    done, how = confine(load["path"])
    confined = {"confined": done, "confinement": how}
    context = MiniRacer()
    atexit.register(context.close)
    context.set_hard_memory_limit(memory_mb << 20)
    try:
        context.eval(prelude)
        context.eval(source)
        context.eval("__studio.check()")
    except Exception as exc:  # noqa: BLE001 - any JS error at load is the AI's
        _take_output(context, session)
        kind = "crash" if isinstance(exc, JSOOMException) else "exception"
        session.send({"ok": False, "kind": kind, "error": _js_error(exc), **confined})
        context.close()
        return
    _take_output(context, session)
    session.send({"ok": True, "ms": (time.perf_counter() - started) * 1000, **confined})
    try:
        while (message := session.receive()) is not None:
            if not _move(context, session, message, JSOOMException):
                break
    finally:
        context.close()


def _move(context: Any, session: Any, message: dict[str, Any], oom: type) -> bool:
    """Answer one move; False when the context is spent (out of memory)."""
    started = time.perf_counter()
    call = f"__studio.start({json.dumps(message['state'])}, {json.dumps(message['side'])})"
    idle_polls = 0
    try:
        status = context.eval(call)
        while not isinstance(status, str):
            # A number: ms until the next timer, or -1 (none: only a Promise reaction can settle).
            if status == -1:
                idle_polls += 1
                time.sleep(0 if idle_polls == 1 else 0.002)
            elif status > 0:
                time.sleep(status / 1000)
            status = context.eval("__studio.poll()")
    except Exception as exc:  # noqa: BLE001
        _take_output(context, session)
        spent = isinstance(exc, oom) or context.was_hard_memory_limit_reached()
        session.send({"ok": False, "kind": "crash" if spent else "exception",
                      "error": _js_error(exc), "ms": (time.perf_counter() - started) * 1000})
        return not spent
    settled = json.loads(status)
    session.out.write(settled["output"][0])
    session.err.write(settled["output"][1])
    ms = (time.perf_counter() - started) * 1000
    if settled.get("ok") and len(settled["json"]) > RESULT_LIMIT:
        session.send({"ok": False, "kind": "bad_shape", "ms": ms,
                      "error": f"answer too large ({len(settled['json'])} bytes of JSON; "
                               f"at most {RESULT_LIMIT})"})
    elif settled.get("ok"):
        session.send({"ok": True, "ms": ms}, result_json=settled["json"])
    else:
        session.send({"ok": False, "kind": settled["kind"], "error": settled["error"][-2000:],
                      "ms": ms})
    return True


def _take_output(context: Any, session: Any) -> None:
    try:
        stdout, stderr = json.loads(context.eval("__studio.output()"))
    except Exception:  # noqa: BLE001 - a spent context has no output to give
        return
    session.out.write(stdout)
    session.err.write(stderr)


def _js_error(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[-2000:]


CHECK_MARK = "__studio_syntax_check__"
_PARSE_ERROR = re.compile(r"^<anonymous>:(\d+): (.*)$", re.MULTILINE)


def check_js(session: Any, source: str, memory_mb: int) -> None:
    """Report whether ``source`` parses as a classic script, without running any of it.

    The script is evaluated behind a first line that throws: V8 parses the whole script before
    running anything, so a syntax error is reported first, and a script that parses stops at that
    line before any statement of its own (hoisting creates bindings, it runs nothing). Line
    numbers are shifted back by that line; the column comes from V8's caret under the bad line.
    """
    from py_mini_racer import JSParseException, MiniRacer  # noqa: PLC0415

    context = MiniRacer()
    atexit.register(context.close)
    context.set_hard_memory_limit(memory_mb << 20)
    try:
        context.eval(f"throw {json.dumps(CHECK_MARK)};\n" + source)
    except JSParseException as exc:
        session.send({"ok": False, "kind": "syntax", **parse_error(str(exc))})
    except Exception as exc:  # noqa: BLE001 - the mark (it parsed), or a declaration clash
        first_line = str(exc).split("\n", 1)[0]
        if first_line == f"<anonymous>:1: {CHECK_MARK}":
            session.send({"ok": True})
        else:
            # Raised while declaring the globals, before the first line: no place of its own.
            error = parse_error(str(exc)).get("error") or _js_error(exc)
            session.send({"ok": False, "kind": "syntax", "error": error})
    finally:
        context.close()


def parse_error(text: str) -> dict[str, Any]:
    """Message, line and column (1-based, in the user's script) of a V8 parse error's text.

    V8 writes ``<anonymous>:LINE: SyntaxError: …``, then the line and a caret line (one
    character per source character) under the bad token.
    """
    found = _PARSE_ERROR.search(text)
    if found is None:
        return {"error": text.strip()[-2000:]}
    lines = text[found.end() + 1:].split("\n")
    caret = lines[1] if len(lines) > 1 else ""
    out: dict[str, Any] = {"error": found.group(2), "line": max(int(found.group(1)) - 1, 1)}
    if "^" in caret:
        out["column"] = caret.index("^") + 1
    return out
