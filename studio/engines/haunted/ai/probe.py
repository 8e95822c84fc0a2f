"""What confinement this machine gives AI workers, known before any worker starts (issue 28).

A real probe of the kernel (Landlock's ABI version, whether this user may make the namespaces a
worker makes), not a guess: a worker that runs confines itself with the same calls and reports
what it achieved. The namespaces are tried in a child process, once, with the worker's own code:
``user.max_user_namespaces`` says nothing of a seccomp profile (a container's) or a sysctl
(Debian's ``kernel.unprivileged_userns_clone``) that refuses them, and a match that requires
confinement must not start on a guess. ``landlock.SIMULATE_MISSING`` makes the probe (and the
workers) treat Landlock as absent, so the studio's behaviour without it can be tried where the
kernel has it.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys

from studio.engines.haunted.ai import landlock

_HERE = os.path.dirname(os.path.abspath(__file__))
_TRY_NAMESPACES = ("import os, sys; sys.path.insert(0, sys.argv[1]); import confine; "
                   "print(confine.new_namespaces(os.geteuid() == 0), end='')")
"""Run in a child: the worker's own step 2 (``confine.new_namespaces``); prints why it failed."""


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
    refused = namespaces_refused()
    if refused:
        return False, f"runs unconfined: network open ({refused})"
    return True, ""


@functools.cache
def namespaces_refused() -> str:
    """Why a worker of this process could not make its network and IPC namespaces (and, not
    as root, the user namespace they need); empty when it could. Tried once, in a child."""
    try:
        child = subprocess.run([sys.executable, "-I", "-S", "-c", _TRY_NAMESPACES, _HERE],
                               capture_output=True, text=True, timeout=30, env={}, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the namespace probe did not run: {exc}"
    if child.returncode != 0:
        last = (child.stderr.strip().splitlines() or [f"exit status {child.returncode}"])[-1]
        return f"the namespace probe failed: {last}"
    return child.stdout.strip()


def _max_user_namespaces() -> int:
    try:
        with open("/proc/sys/user/max_user_namespaces", encoding="ascii") as file:
            return int(file.read())
    except (OSError, ValueError):
        return 0
