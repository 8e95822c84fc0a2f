"""The trace writer and choosers, without the corpus."""

from __future__ import annotations

import io
import json

from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.runtime.trace import chooser_a, chooser_b, run_trace, write_jsonl
from tests.btree.trees import game, node, rewrite, set_board

GAME = game(node("order", set_board("_ _ 📦"), node("display-board", delay=0.5),
                 node("loop-until-all", node("player", rewrite("_", "X"), pid=1))))


def test_trace_lines_follow_the_protocol() -> None:
    lines = list(run_trace(GAME, engine_seed=5, game="g", expanded="e"))
    assert [line["type"] for line in lines] == ["header", "display", "choice", "choice", "end"]
    assert lines[1] == {"type": "display", "d": 0, "loop_check": 4, "delay": 0.5,
                        "board": {"main": [["_", "_", "📦"]]}}
    assert lines[2]["chosen"] == 3 % 2 and lines[2]["choices"][0]["pid"] == 1
    assert lines[2]["choices"][0]["desc"] is None
    assert lines[-1]["reason"] == "result" and lines[-1]["result"] == {"result": "stalemate"}
    assert lines[-1]["choices_made"] == 2 and lines[-1]["displays_cleared"] == 1
    assert lines[-1]["board"] == {"main": [["X", "X", "📦"]]}


def test_caps_end_the_trace() -> None:
    lines = list(run_trace(GAME, engine_seed=5, max_waits=1, display_boards=False))
    assert lines[-2]["type"] == "choice" and lines[-2]["chosen"] is None and lines[-2]["t"] == 1
    assert lines[-1]["reason"] == "cap_waits" and "board" not in lines[-1]
    assert "board" not in lines[1]
    lines = list(run_trace(GAME, engine_seed=5, max_displays=0))
    assert [line["type"] for line in lines] == ["header", "display", "end"]
    assert lines[-1]["reason"] == "cap_displays"


def test_write_jsonl_round_trips_and_keeps_non_ascii() -> None:
    out = io.StringIO()
    lines = list(run_trace(GAME, engine_seed=12345, chooser="b"))
    assert write_jsonl(lines, out) == len(lines)
    text = out.getvalue()
    assert "📦" in text
    assert [json.loads(row) for row in text.splitlines()] == lines
    assert lines[0]["chooser"]["lcg_seed"] == 20250101


def test_choosers() -> None:
    pick = chooser_a()
    assert [pick(t, 5) for t in range(4)] == [3, 0, 2, 4]
    pick = chooser_b(20250101)
    state = (1664525 * 20250101 + 1013904223) % 2**32
    assert pick(0, 7) == state * 7 // 2**32


class _FakeCompiled:
    """Quacks like the compiler's ``Compiled``: ``to_json()`` plus origin/via maps."""

    def __init__(self) -> None:
        self.origin = ["root", "set", "show", "loop", "player", "rw"]
        self.via = [(), (), (), (), (), ("x-mirror",)]

    def to_json(self) -> dict:
        return GAME


def test_engine_accepts_a_compiled_object_and_maps_nodes_back() -> None:
    engine = Engine(_FakeCompiled())
    assert engine.run_to_choice() == "choice"
    assert engine.path() == [0, 3, 4]
    assert [engine.origin(i) for i in engine.path()] == ["root", "loop", "player"]
    assert engine.via(engine.choices[0].node) == ("x-mirror",)
    assert Engine(GAME).origin(0) is None
