"""Helpers shared by the AI runner tests; the ``*.py``/``*.js`` files beside this are fixtures."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from studio.engines.haunted.ai import WorkerPlayer
from studio.engines.haunted.ai.factory import js_available
from studio.engines.haunted.players import AIReply

HERE = Path(__file__).resolve().parent
FAST = 0.3
"""Per-move limit in tests: short, so hostile cases stay cheap."""

HAS_JS = js_available()
NO_JS_REASON = "mini-racer is not installed (pip install 'tilegame-studio[js]')"

STATE: dict[str, Any] = {
    "boardSize": [7, 7],
    "tileStates": [[3] * 7 for _ in range(7)],
    "teamStates": {
        "home": [{"coord": [0, c], "isDead": False} for c in (0, 3, 6)],
        "away": [{"coord": [6, c], "isDead": False} for c in (0, 3, 6)],
    },
}


def fixture(name: str) -> Path:
    return HERE / name


def player(name: str, **options: Any) -> WorkerPlayer:
    options.setdefault("time_limit", FAST)
    options.setdefault("load_limit", 5.0)
    return WorkerPlayer(fixture(name), js=name.endswith(".js"), **options)


def move(ai: WorkerPlayer, turn: int = 1, **extra: Any) -> AIReply:
    ai.request(turn, {**STATE, **extra}, "home")
    return ai.collect()


def gone(pid: int | None) -> bool:
    """True when no process with this pid exists any more (not even a zombie)."""
    return pid is None or not os.path.exists(f"/proc/{pid}")


def session_members(sid: int) -> list[int]:
    """Processes still in the session the worker led (children that stayed behind)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getsid(int(entry)) == sid:
                    found.append(int(entry))
            except OSError:
                pass
    return found


def wait_gone(pid: int | None, seconds: float = 3.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.01)
    return gone(pid)
