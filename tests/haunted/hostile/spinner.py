"""A CPU hog between its own turns: answers at once, but a timer's signal handler spins while the
worker waits for the next request (issue 28: it slowed the opponent's answers by 60-130 %)."""
import signal
import time

SLICE = 0.005
"""Seconds per spin: short enough to answer the next request soon after it comes."""


GAP = 0.0002
"""Seconds between spins, in which the worker reads a request that came."""


def _spin(_signum, _frame):
    end = time.perf_counter() + SLICE
    while time.perf_counter() < end:
        pass
    signal.setitimer(signal.ITIMER_REAL, GAP)


def main(game_state, side):
    if signal.getsignal(signal.SIGALRM) is not _spin:
        signal.signal(signal.SIGALRM, _spin)
        signal.setitimer(signal.ITIMER_REAL, GAP)
    return ["none", "none", "none"]
