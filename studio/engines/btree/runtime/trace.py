"""The corpus trace protocol (``btree-trace/1``; corpus README): runs that record every wait.

The choosers are external to the engine and never touch the engine RNG:

* rule ``a``: ``i = (7*t + 3) mod n``;
* rule ``b``: a 32-bit LCG ``s = (1664525*s + 1013904223) mod 2**32``, ``i = floor(s*n / 2**32)``,
  advanced once per choice wait.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Iterator, Mapping, TextIO

from studio.engines.btree.runtime.engine import Engine

FORMULA_A = "i = (7*t + 3) mod n"
FORMULA_B = "s = (1664525*s + 1013904223) mod 2^32; i = floor(s*n / 2^32)"
LCG_SEED = 20250101
# Run letter → (engine seed, chooser rule, display boards, waits cap, displays cap) (README).
RUNS = {
    "a": (5, "a", True, 60, 200),
    "b": (12345, "b", False, 60, 1000),
    "c": (0, "a", True, 60, 200),
}


def chooser_a() -> Callable[[int, int], int]:
    """Rule a: choice ``(7*t + 3) mod n`` at choice wait ``t``."""
    return lambda t, n: (7 * t + 3) % n


def chooser_b(lcg_seed: int = LCG_SEED) -> Callable[[int, int], int]:
    """Rule b: the 32-bit LCG chooser (exact integer arithmetic)."""
    state = lcg_seed

    def choose(t: int, n: int) -> int:
        nonlocal state
        state = (1664525 * state + 1013904223) % 2**32
        return state * n // 2**32

    return choose


def _board_json(engine: Engine) -> dict | None:
    board = engine.board
    return None if board is None else board.to_json()


def run_trace(
    compiled: Mapping[str, Any],
    *,
    engine_seed: int,
    chooser: str = "a",
    lcg_seed: int = LCG_SEED,
    max_waits: int = 60,
    max_displays: int = 200,
    display_boards: bool = True,
    game: str = "",
    expanded: str = "",
    board: Mapping[str, Any] | None = None,
) -> Iterator[dict]:
    """Run the trace protocol and yield its lines (header, waits, end) as dicts.

    Args:
        compiled: the compiled game (expanded JSON shape).
        engine_seed: seed of the engine RNG.
        chooser: ``"a"`` or ``"b"`` (the README's rules).
        lcg_seed: the rule-b LCG's start state.
        max_waits, max_displays: caps (a wait whose index equals the cap ends the run).
        display_boards: whether display lines carry the board.
        game, expanded: the names written in the header.
        board: an initial board to inject (``None``: the tree builds its own).
    """
    chooser_info: dict[str, Any] = {"rule": chooser, "formula": FORMULA_A if chooser == "a" else FORMULA_B}
    if chooser == "b":
        chooser_info["lcg_seed"] = lcg_seed
    yield {
        "type": "header",
        "format": "btree-trace/1",
        "game": game,
        "expanded": expanded,
        "engine_seed": engine_seed,
        "shuffle": "fisher-yates",
        "chooser": chooser_info,
        "max_waits": max_waits,
        "max_displays": max_displays,
        "display_boards": display_boards,
    }
    pick = chooser_a() if chooser == "a" else chooser_b(lcg_seed)
    engine = Engine(compiled)
    engine.seed(engine_seed)
    if board is not None:
        engine.set_board(board)
    t = d = 0
    while True:
        waiting = engine.run_to_wait()
        if waiting == "display":
            line = {"type": "display", "d": d, "loop_check": engine.step_count, "delay": engine.display_delay}
            if display_boards:
                line["board"] = _board_json(engine)
            yield line
            if d == max_displays:
                yield _end(engine, "cap_displays", t, d)
                return
            engine.clear_display(reset=True)
            d += 1
        elif waiting == "choice":
            choices = engine.choices
            capped = t == max_waits
            chosen = None if capped else pick(t, len(choices))
            yield {
                "type": "choice",
                "t": t,
                "loop_check": engine.step_count,
                "board": _board_json(engine),
                "choices": [ch.to_json() for ch in choices],
                "chosen": chosen,
            }
            if capped:
                yield _end(engine, "cap_waits", t, d)
                return
            engine.choose(chosen, reset=True)
            t += 1
        else:
            yield _end(engine, "result", t, d)
            return


def _end(engine: Engine, reason: str, choices_made: int, displays_cleared: int) -> dict:
    line = {
        "type": "end",
        "reason": reason,
        "result": engine.result,
        "loop_check": engine.step_count,
        "choices_made": choices_made,
        "displays_cleared": displays_cleared,
    }
    if reason == "result":
        line["board"] = _board_json(engine)
    return line


def write_jsonl(lines: Iterable[Mapping[str, Any]], out: TextIO) -> int:
    """Write lines as JSON Lines (UTF-8 text, non-ASCII unescaped) to ``out``; returns the count."""
    count = 0
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
    return count
