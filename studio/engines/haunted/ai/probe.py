"""What confinement this machine gives AI workers, known before any worker starts (issue 28).

A real probe of the kernel (Landlock's ABI version, whether user namespaces may be made), not a
guess: a worker that runs confines itself with the same calls and reports what it achieved.
``landlock.SIMULATE_MISSING`` makes the probe (and the workers) treat Landlock as absent, so the
studio's behaviour without it can be tried where the kernel has it.
"""

from __future__ import annotations

import os
import sys

from studio.engines.haunted.ai import landlock


def gap() -> str:
    """Empty when workers started now would be fully confined; otherwise what is missing."""
    confined, reason = expected_confinement(True, False)
    return "" if confined else reason.removeprefix("runs unconfined: ")


def expected_confinement(confine: bool, js: bool) -> tuple[bool, str]:
    """What the worker will achieve, predicted before it starts (the load reply confirms it);
    the same for both languages, as both workers confine themselves the same way."""
    if not confine:
        return False, "runs unconfined: confinement switched off"
    if sys.platform != "linux":
        return False, f"runs unconfined: no Landlock on {sys.platform}"
    if landlock.abi_version() < 1:
        simulated = " (simulated)" if "landlock" in landlock.simulated_missing() else ""
        return False, f"runs unconfined: the kernel has no Landlock{simulated}"
    if os.geteuid() != 0 and _max_user_namespaces() == 0:
        return False, "runs unconfined: network open (user namespaces are disabled)"
    return True, ""


def _max_user_namespaces() -> int:
    try:
        with open("/proc/sys/user/max_user_namespaces", encoding="ascii") as file:
            return int(file.read())
    except (OSError, ValueError):
        return 0
