"""Writes ``lines`` well-formed reply lines of ``reply_kb`` KiB each straight onto its reply pipe
(issue 28: 1,024 lines of 1 MB grew the studio to 1.5 GB), then answers itself. The bulk is in
``stdout``, or with ``where="result"`` in the answer. The answers walk an 8-tile loop per monster,
so a round lasts while the lines pile up rather than ending in three jumps."""
import json
import os

LOOP = ["south"] * 3 + ["east"] + ["north"] * 3 + ["west"]
MIRROR = ["south"] * 3 + ["west"] + ["north"] * 3 + ["east"]
AWAY = {"south": "north", "north": "south", "east": "east", "west": "west"}


def _reply_fd():
    with open("/proc/self/cmdline", "rb") as file:
        args = file.read().split(b"\0")
    return int(args[args.index(b"--fds") + 1].split(b",")[1])


def _answer(turn, side):
    moves = [path[turn % len(path)] for path in (LOOP, LOOP, MIRROR)]
    return moves if side == "home" else [AWAY[m] for m in moves]


def main(game_state, side):
    size, lines = game_state.get("reply_kb", 1024) << 10, game_state.get("lines", 1024)
    out, made = _reply_fd(), {}
    for turn in range(lines):
        if turn % len(LOOP) not in made:  # encoded once: the flood runs at the pipe's speed
            reply = {"ok": True, "ms": 0.1, "stdout": "x" * size, "stderr": "",
                     "result": _answer(turn, side)}
            if game_state.get("where") == "result":
                reply["stdout"], reply["result"] = "", ["n" * size, "none", "none"]
            made[turn % len(LOOP)] = json.dumps(reply).encode() + b"\n"
        os.write(out, made[turn % len(LOOP)])
    return _answer(lines, side)
