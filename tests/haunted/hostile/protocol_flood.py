"""Writes megabytes without a newline straight into the worker's reply pipe."""
import os


def _reply_fd():
    with open("/proc/self/cmdline", "rb") as file:
        args = file.read().split(b"\0")
    return int(args[args.index(b"--fds") + 1].split(b",")[1])


def main(game_state, side):
    out, chunk = _reply_fd(), b"x" * 65536
    for _ in range(100):  # 6.25 MiB, more than the host takes as one line
        os.write(out, chunk)
    return ["none", "none", "none"]
