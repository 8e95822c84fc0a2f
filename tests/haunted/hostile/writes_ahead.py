"""Writes answers for the coming turns straight onto its reply pipe, shrinks the request pipe to
one page and sleeps (issue 28: the host blocked in ``os.write`` for ever). The answers walk two
laps of an 8-tile loop per monster, so the round outlasts the pipe rather than ending at once."""
import fcntl
import json
import os
import time

F_SETPIPE_SZ = 1031
LOOP = ["south"] * 3 + ["east"] + ["north"] * 3 + ["west"]
MIRROR = ["south"] * 3 + ["west"] + ["north"] * 3 + ["east"]
AWAY = {"south": "north", "north": "south", "east": "east", "west": "west"}


def _fds():
    with open("/proc/self/cmdline", "rb") as file:
        args = file.read().split(b"\0")
    return [int(fd) for fd in args[args.index(b"--fds") + 1].split(b",")]


def main(game_state, side):
    requests, replies = _fds()
    fcntl.fcntl(requests, F_SETPIPE_SZ, 4096)
    paths = [LOOP * 2, LOOP * 2, MIRROR * 2]
    lines = []
    for turn in range(len(LOOP) * 2):
        answer = [path[turn] if side == "home" else AWAY[path[turn]] for path in paths]
        line = {"ok": True, "ms": 0.1, "stdout": "", "stderr": "", "result": answer}
        lines.append(json.dumps(line).encode() + b"\n")
    os.write(replies, b"".join(lines))  # one write under PIPE_BUF: the host sees them together
    time.sleep(3600)
