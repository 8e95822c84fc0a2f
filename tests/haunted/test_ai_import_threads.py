"""A Dask worker loads the AI runners from two threads at once: a match task's and the state probe
the coordinator runs on a worker that (re)joined. Before the package stopped importing its own
modules while loading, that pair failed every time in a fresh process (one side a ``KeyError``
for the package, the other "the AI runners are not available"), and a restarted worker lost its
first match (CI, stop 40)."""

from __future__ import annotations

import subprocess
import sys

import pytest

RACE = """
import threading
from studio.sessions.haunted import cluster_pool, entrants

out = {}
barrier = threading.Barrier(2)

def probe():
    barrier.wait()
    try:
        out["probe"] = cluster_pool._worker_state()
    except BaseException as exc:
        out["probe"] = repr(exc)

def runners():
    barrier.wait()
    try:
        out["runners"] = entrants._factory()
    except BaseException as exc:
        out["runners"] = repr(exc)

threads = [threading.Thread(target=probe), threading.Thread(target=runners)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ok = isinstance(out["probe"], dict) and callable(out["runners"])
print("ok" if ok else f"failed: {out}")
"""


@pytest.mark.parametrize("attempt", range(4))
def test_two_threads_load_the_ai_runners_at_once_in_a_fresh_process(attempt: int) -> None:
    result = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_the_package_still_offers_its_names() -> None:
    from studio.engines.haunted import ai  # noqa: PLC0415

    assert callable(ai.make_player) and isinstance(ai.JS_INSTALL_HINT, str)
    assert ai.WorkerPlayer.__name__ == "WorkerPlayer"
    with pytest.raises(AttributeError):
        ai.no_such_name  # noqa: B018
