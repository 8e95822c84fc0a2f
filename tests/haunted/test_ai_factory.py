"""``make_player`` and ``studio new-ai``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.engines.haunted.ai import JS_INSTALL_HINT, WorkerPlayer, factory, make_player
from studio.engines.haunted.builtin_ais import BUILTINS
from studio.engines.haunted.inprocess import InProcessPlayer
from tests.haunted.hostile import HAS_JS, NO_JS_REASON, STATE, fixture


def test_builtins_run_in_workers_by_default_and_in_process_on_request() -> None:
    worker = make_player("builtin:greedy", time_limit=0.7, load_limit=3.0)
    assert isinstance(worker, WorkerPlayer)
    assert worker.path == BUILTINS["greedy"] and worker.time_limit == 0.7
    assert worker.load_limit == 3.0 and worker.name == "builtin:greedy"
    assert isinstance(make_player("builtin:greedy", in_process_builtins=True), InProcessPlayer)


def test_files_pick_their_runtime_by_suffix() -> None:
    python = make_player(str(fixture("counter.py")))
    assert isinstance(python, WorkerPlayer) and not python.js
    if HAS_JS:
        assert make_player(str(fixture("js_counter.js"))).js


@pytest.mark.parametrize(("source", "needle"), [
    ("builtin:nobody", "builtin:greedy"),
    ("ai.txt", "builtin:NAME"),
    ("missing.py", "no such AI file"),
])
def test_unknown_sources_are_clear_errors(source: str, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        make_player(source)


def test_js_without_mini_racer_says_how_to_install(monkeypatch) -> None:
    monkeypatch.setattr(factory, "js_available", lambda: False)
    with pytest.raises(RuntimeError, match=r"pip install 'tilegame-studio\[js\]'"):
        make_player(str(fixture("js_counter.js")))
    assert "tilegame-studio[js]" in JS_INSTALL_HINT


def _new_ai(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", "new-ai", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)


def test_new_ai_writes_a_python_starter_that_plays(tmp_path: Path) -> None:
    assert _new_ai(tmp_path, "my bot").returncode == 0
    source = tmp_path / "my_bot.py"
    assert "game_state" in source.read_text() and "tileStates" in source.read_text()
    with make_player(str(source)) as ai:
        assert ai.load(1, "home").ok
        ai.request(1, STATE, "home")
        reply = ai.collect()
    assert reply.ok and len(reply.result) == 3
    assert set(reply.result) <= {"north", "south", "east", "west", "none"}
    assert "north" not in reply.result  # home starts on row 0: never step off the board


def test_new_ai_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    assert _new_ai(tmp_path, "bot", "-o", "x.py").returncode == 0
    again = _new_ai(tmp_path, "bot", "-o", "x.py")
    assert again.returncode != 0 and "exists" in again.stderr
    assert _new_ai(tmp_path, "bot", "-o", "x.py", "--force").returncode == 0


@pytest.mark.skipif(not HAS_JS, reason=NO_JS_REASON)
def test_new_ai_writes_a_js_starter_that_plays(tmp_path: Path) -> None:
    assert _new_ai(tmp_path, "ghost", "--js").returncode == 0
    source = tmp_path / "ghost.js"
    assert "function main(gameState, side)" in source.read_text()
    with make_player(str(source)) as ai:
        assert ai.load(1, "away").ok
        ai.request(1, STATE, "away")
        reply = ai.collect()
    assert reply.ok and len(reply.result) == 3 and "south" not in reply.result
