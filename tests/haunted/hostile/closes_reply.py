"""Closes the worker's reply pipe and lives on (the host sees end of file from a live worker)."""
import os
import time


def main(game_state, side):
    with open("/proc/self/cmdline", "rb") as file:
        args = file.read().split(b"\0")
    os.close(int(args[args.index(b"--fds") + 1].split(b",")[1]))
    time.sleep(30)
