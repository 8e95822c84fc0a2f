"""Calls of the control nodes (§7.3), one closure per compiled node.

A frame is the list ``[node_id, index, any, aux]``; the locals start as ``index = 0``,
``any = False``, ``aux = None``, which equals the reference's initialisation at the first call.
``aux`` holds what is node-specific: the remaining order of ``random-try``, the "any this pass"
flag of ``loop-until-all``, the pass count of ``loop-times``. A call returns True/False (done) or
None (it pushed a child or the game ended inside a ``win``/``lose``/``draw``).
"""

from __future__ import annotations

from typing import Callable

from studio.engines.btree.runtime.nodes import Node, is_number
from studio.engines.btree.runtime.stepper import Stepper

Call = Callable[[list, "bool | None"], "bool | None"]


def make_control(eng: Stepper, node: Node) -> Call:
    """The call function of control node ``node`` (player excluded: see ``tiles``)."""
    kids = node.children
    n = len(kids)
    kind = node.type

    if kind == "order":

        def call(f: list, prev: bool | None) -> bool | None:
            if prev is True:
                f[2] = True
            i = f[1]
            if i == n:
                return f[2]
            f[1] = i + 1
            eng._stack.append([kids[i], 0, False, None])
            return None

    elif kind == "all":

        def call(f: list, prev: bool | None) -> bool | None:
            if prev is False:
                return False
            i = f[1]
            if i == n:
                return True
            f[1] = i + 1
            eng._stack.append([kids[i], 0, False, None])
            return None

    elif kind == "none":

        def call(f: list, prev: bool | None) -> bool | None:
            if prev is True:
                return False
            i = f[1]
            if i == n:
                return True
            f[1] = i + 1
            eng._stack.append([kids[i], 0, False, None])
            return None

    elif kind == "random-try":

        def call(f: list, prev: bool | None) -> bool | None:
            order = f[3]
            if order is None:
                order = f[3] = eng.rng.try_order(n)
            if prev is True:
                return True
            if not order:
                return False
            eng._stack.append([kids[eng.rng.take(order)], 0, False, None])
            return None

    elif kind == "loop-until-all":

        def call(f: list, prev: bool | None) -> bool | None:
            if prev is True:
                f[2] = True
                f[3] = True
            i = f[1]
            if i == n:
                if f[3]:
                    f[3] = False
                    f[1] = 0
                    return None
                return f[2]
            f[1] = i + 1
            eng._stack.append([kids[i], 0, False, None])
            return None

    elif kind == "loop-times":
        times = node.get("times")
        if not is_number(times):
            times = None  # never equal: the loop runs until the step budget ends it

        def call(f: list, prev: bool | None) -> bool | None:
            if prev is True:
                f[2] = True
            i = f[1]
            if i == n:
                passes = (f[3] or 0) + 1
                f[3] = passes
                if passes == times:
                    return f[2]
                f[1] = 0
                return None
            f[1] = i + 1
            eng._stack.append([kids[i], 0, False, None])
            return None

    elif kind in ("win", "lose", "draw"):
        if kind == "draw":
            outcome = {"result": "draw"}
        else:
            outcome = {"result": kind}
            if "pid" in node.data:
                outcome["player"] = node.data["pid"]

        def call(f: list, prev: bool | None) -> bool | None:
            if prev is True:
                eng._finish(dict(outcome))
                return None
            i = f[1]
            if i == n:
                return False
            f[1] = i + 1
            eng._stack.append([kids[i], 0, False, None])
            return None

    else:  # pragma: no cover - flatten() only hands over the control types above
        raise ValueError(f"not a control node type: {kind!r}")
    return call
