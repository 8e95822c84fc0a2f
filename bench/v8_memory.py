#!/usr/bin/env python3
"""What a JavaScript worker's memory cap must leave room for, and what it holds back.

    .venv/bin/python bench/v8_memory.py

Prints, from a real worker: its writable memory (``VmData``, what ``RLIMIT_DATA`` counts) and
resident size after V8 has started and loaded a small AI, then what a script keeping 1 GB of
``ArrayBuffer``s gets under the cap (``runner.V8_START_MB`` + 3 × the 64 MiB heap).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from studio.engines.haunted.ai import runner  # noqa: E402
from tests.haunted.hostile import move, player  # noqa: E402


def _status(pid: int) -> dict[str, int]:
    with open(f"/proc/{pid}/status", encoding="ascii") as file:
        fields = dict(line.split(":", 1) for line in file if line.startswith("Vm"))
    return {key: int(value.split()[0]) // 1024 for key, value in fields.items()}


def main() -> None:
    cap = runner.V8_START_MB + 3 * 64
    with player("js_counter.js") as ai:
        assert ai.load(1, "home").ok and move(ai).ok
        started = _status(ai.pid)
    print(f"V8 started, small AI loaded: VmData {started['VmData']} MB, "
          f"VmRSS {started['VmRSS']} MB (cap {cap} MB of VmData)")
    with player("js_buffers.js", time_limit=20.0) as ai:
        assert ai.load(1, "home").ok
        reply = move(ai)
        held = _status(ai.pid)
    kept = reply.stdout.strip().split(":")[0]
    print(f"1 GB of ArrayBuffers asked: {kept}; {reply.failure}: {reply.error.splitlines()[0]}; "
          f"peak VmRSS {held['VmHWM']} MB, VmData {held['VmData']} MB")


if __name__ == "__main__":
    main()
