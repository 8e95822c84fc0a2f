"""Writes the reply line named in the state straight onto its reply pipe, then sleeps: lines
that are JSON but not a reply the host may trust."""
import os
import time

LINES = {
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "not-an-object": b"[]",
    "text-not-text": b'{"ok": true, "result": ["none", "none", "none"], "stdout": 5}',
    "forged-kind": b'{"ok": false, "kind": "all_good", "error": ""}',
    "ok-not-bool": b'{"ok": "yes", "result": ["none", "none", "none"]}',
    "deep-result": b'{"ok": true, "result": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
}


def main(game_state, side):
    with open("/proc/self/cmdline", "rb") as file:
        args = file.read().split(b"\0")
    os.write(int(args[args.index(b"--fds") + 1].split(b",")[1]), LINES[game_state["forged"]] + b"\n")
    time.sleep(30)
