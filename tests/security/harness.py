"""Run readers on hostile files in a separate process, measuring each one's time and memory.

One child process runs every case in turn (importing the studio once keeps the suite fast); per
case it resets the peak resident size the kernel keeps (``/proc/self/clear_refs``) and reads it
back afterwards, so each case is measured alone. A case that hangs is stopped by an alarm; one
that kills the child (a crash in C, the memory cap) is reported as such, and a new child goes
on with the rest. The child's address space is capped so that a regression fails the test with
a MemoryError instead of taking the machine's memory.

Run as ``python -m tests.security.harness`` with the cases as JSON on stdin.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 5.0
"""Each case must end within this."""
MEGABYTES = 300
"""... and grow the process by no more than this."""
ADDRESS_SPACE = 3 << 30
"""The child's address-space cap: far above any passing case, far below a machine's memory."""


@dataclass(frozen=True)
class Outcome:
    reader: str
    case: str
    result: str
    """``typed`` (the reader's error), ``accepted`` (no error), ``untyped`` (another exception),
    ``timeout``, or ``died`` (the process ended)."""
    error: str
    seconds: float
    megabytes: float


# ------------------------------------------------------------------------------ the child


class _Timeout(BaseException):
    """Raised by the alarm: not an Exception, so no reader's handler can swallow it."""


def _status(field: str) -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")  # resets VmHWM, the peak resident size (Linux 4.0+)
        return True
    except OSError:
        return False


def _run_one(reader_name: str, path: str) -> tuple[str, str]:
    from tests.security.readers import BY_NAME

    reader = BY_NAME[reader_name]
    try:
        reader.read(Path(path))
    except reader.errors as exc:
        return "typed", f"{type(exc).__name__}: {str(exc)[:300]}"
    except _Timeout:
        return "timeout", f"no answer within {SECONDS:g} s"
    except BaseException as exc:  # noqa: BLE001 - what the test is looking for
        return "untyped", f"{type(exc).__name__}: {str(exc)[:300]}"
    return "accepted", ""


def child() -> None:
    cases = json.load(sys.stdin)
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    from tests.security import readers  # noqa: F401 - import the studio before measuring

    def alarm(_signum, _frame):
        raise _Timeout

    signal.signal(signal.SIGALRM, alarm)
    for reader_name, case, path in cases:
        exact = _reset_peak()
        before = _status("VmRSS")
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, SECONDS + 1)
        try:
            result, error = _run_one(reader_name, path)
        except _Timeout:
            result, error = "timeout", f"no answer within {SECONDS:g} s"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        seconds = time.perf_counter() - start
        peak = _status("VmHWM") if exact else resource.getrusage(
            resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps([reader_name, case, result, error, seconds, max(peak - before, 0.0)]),
              flush=True)


# ----------------------------------------------------------------------------- the parent


def run_cases(cases: list[tuple[str, str, str]]) -> dict[tuple[str, str], Outcome]:
    """Run ``(reader, case, path)`` triples; the outcome of each, by (reader, case)."""
    outcomes: dict[tuple[str, str], Outcome] = {}
    remaining = list(cases)
    while remaining:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.security.harness"], cwd=ROOT, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = process.communicate(json.dumps(remaining),
                                           timeout=60 + (SECONDS + 2) * len(remaining))
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
        done = 0
        for line in out.splitlines():
            reader, case, result, error, seconds, megabytes = json.loads(line)
            outcomes[(reader, case)] = Outcome(reader, case, result, error, seconds, megabytes)
            done += 1
        if done < len(remaining):
            reader, case, _path = remaining[done]
            tail = " | ".join(err.strip().splitlines()[-3:])
            outcomes[(reader, case)] = Outcome(
                reader, case, "died", f"exit {process.returncode}: {tail}", 0.0, 0.0)
            done += 1
        remaining = remaining[done:]
    return outcomes


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    child()
