"""A module top level that sleeps far beyond any load limit (a slow import)."""
import time

time.sleep(30)


def main(game_state, side):
    return ["none", "none", "none"]
