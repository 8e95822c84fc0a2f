import os
import sys


def main(game_state, side):
    for _ in range(2000):
        print("x" * 1000)
    sys.stderr.write("e" * 1_000_000)
    os.write(1, b"r" * 1_000_000)  # raw writes bypass sys.stdout: the host drains and bounds them
    return ["none", "none", "none"]
