"""Trusted fast mode: run a built-in AI inside the studio process (spec haunted.md §12).

Only for the studio's own built-in AIs (``builtin_ais/``): they are our code, so no sandbox is
needed and ``confined`` is True. Untrusted files always go to the worker-process runners.

Behaviour matches a worker process as closely as an in-process call can:

* **Fresh module per round.** ``load`` executes the source into a new namespace, so module-level
  state lasts for one round, as in a worker started for that round. (The compiled code object is
  cached; compiling is not behaviour.)
* **Randomness.** A worker seeds the process-wide ``random`` module with the round's AI seed
  (``random.seed(seed)``, §8.1). Two AIs sharing the studio process cannot both own that module,
  so each loaded module gets its own ``random.Random(seed)`` *in place of the module*: its
  ``import random`` (or ``from random import choice``) is answered with that generator, whose
  methods have the module's names and, seeded with the same integer, give the same numbers.
  Built-ins therefore simply call ``random.choice(...)`` and play identically in both runners.
  The studio's own ``random`` module is never touched or reseeded.
* **Answers** go through JSON like a worker's (tuples become lists; a value JSON cannot carry is
  ``bad_shape``); exceptions become ``exception`` with the last line of the traceback; ``print``
  output is captured per call.
* **No time limit**: a trusted built-in cannot hang; time is still measured and reported.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import json
import random
import sys
import time
import traceback
from pathlib import Path
from types import CodeType
from typing import Any

from studio.engines.haunted.builtin_ais import BUILTINS, PREFIX
from studio.engines.haunted.players import AIReply

_CODE_CACHE: dict[Path, CodeType] = {}
_FAST_TYPES = (str,)


def _compiled(path: Path) -> CodeType:
    code = _CODE_CACHE.get(path)
    if code is None:
        code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
        _CODE_CACHE[path] = code
    return code


def _error_line(exc: BaseException) -> str:
    """``Type: message``, as the last line of a traceback reads."""
    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def _private_builtins(rng: random.Random) -> dict[str, Any]:
    """A copy of the builtins whose ``__import__`` answers ``random`` with ``rng``."""
    real_import = builtins.__import__

    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "random" and level == 0:
            return rng
        return real_import(name, globals, locals, fromlist, level)

    table = dict(vars(builtins))
    table["__import__"] = guarded_import
    return table


def _jsonable(value: Any) -> Any:
    """``value`` as it would arrive through a JSON pipe; raises ValueError/TypeError if it can't."""
    if isinstance(value, list) and all(type(item) in _FAST_TYPES for item in value):
        return list(value)  # the common case, without a JSON round trip
    return json.loads(json.dumps(value, allow_nan=False))


class InProcessPlayer:
    """A :class:`~studio.engines.haunted.players.Player` for a built-in AI in this process.

    Args:
        name: a built-in name (``greedy`` or ``builtin:greedy``).
        path: the source file to run instead of the built-in's (trusted code only: tests, bench).
    """

    confined = True
    """Our own code: nothing to confine."""

    def __init__(self, name: str, path: Path | None = None) -> None:
        bare = name.removeprefix(PREFIX)
        if path is None:
            if bare not in BUILTINS:
                raise ValueError(f"no built-in AI named {bare!r} (known: {', '.join(BUILTINS)})")
            path = BUILTINS[bare]
        self.name = f"{PREFIX}{bare}" if path == BUILTINS.get(bare) else name
        self.path = path if isinstance(path, Path) else Path(path)
        self._main: Any = None
        self._pending: AIReply | None = None

    def load(self, seed: int, side: str) -> AIReply:
        """Execute the source as a fresh module with a private generator seeded with ``seed``."""
        self.close()
        start = time.perf_counter()
        out, err = io.StringIO(), io.StringIO()
        namespace: dict[str, Any] = {
            "__name__": "haunted_ai",
            "__file__": str(self.path),
            "__builtins__": _private_builtins(random.Random(seed)),
        }
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                exec(_compiled(self.path), namespace)
            main = namespace.get("main")
            if not callable(main):
                raise TypeError("the AI defines no callable main(game_state, side)")
        except Exception as exc:  # the AI's own error: reported, never raised
            return AIReply(
                ok=False, failure="exception", error=_error_line(exc),
                ms=(time.perf_counter() - start) * 1000, stdout=out.getvalue(), stderr=err.getvalue(),
            )
        self._main = main
        return AIReply(
            ok=True, ms=(time.perf_counter() - start) * 1000,
            stdout=out.getvalue(), stderr=err.getvalue(),
        )

    def request(self, turn: int, state: dict[str, Any], side: str) -> None:
        """Compute the answer now (the call is synchronous); :meth:`collect` hands it over."""
        if self._main is None:
            self._pending = AIReply(ok=False, failure="crash", error="the AI is not loaded")
            return
        start = time.perf_counter()
        out, err = io.StringIO(), io.StringIO()
        # Swapped by hand rather than with contextlib.redirect_*: this runs every turn.
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            result = self._main(state, side)
        except Exception as exc:
            reply = AIReply(ok=False, failure="exception", error=_error_line(exc))
        else:
            try:
                reply = AIReply(ok=True, result=_jsonable(result))
            except (TypeError, ValueError, RecursionError) as exc:
                reply = AIReply(
                    ok=False, failure="bad_shape",
                    error=f"the answer is not JSON-serialisable: {_error_line(exc)}",
                )
        finally:
            sys.stdout, sys.stderr = saved
        reply.ms = (time.perf_counter() - start) * 1000
        reply.stdout, reply.stderr = out.getvalue(), err.getvalue()
        self._pending = reply

    def collect(self) -> AIReply:
        """The answer to the last :meth:`request`."""
        reply, self._pending = self._pending, None
        if reply is None:
            return AIReply(ok=False, failure="crash", error="no request is pending")
        return reply

    def close(self) -> None:
        """Forget the round's module (its state must not reach the next round)."""
        self._main = None
        self._pending = None
