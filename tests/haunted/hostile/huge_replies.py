"""Writes well-formed reply lines of ``reply_kb`` KiB each (the answer a long string), ``lines`` of
them, straight onto its reply pipe (issue 28: 1,024 lines of 1 MB grew the studio to 1.5 GB), then
answers normally."""
import json
import os


def _reply_fd():
    with open("/proc/self/cmdline", "rb") as file:
        args = file.read().split(b"\0")
    return int(args[args.index(b"--fds") + 1].split(b",")[1])


def main(game_state, side):
    size, lines = game_state.get("reply_kb", 1024) << 10, game_state.get("lines", 1024)
    line = json.dumps({"ok": True, "ms": 0.1, "stdout": "", "stderr": "",
                       "result": ["n" * size, "none", "none"]}).encode() + b"\n"
    out = _reply_fd()
    for _ in range(lines):
        os.write(out, line)
    return ["none", "none", "none"]
