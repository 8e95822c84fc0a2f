"""The cluster a tournament runs on: Dask distributed's client, its workers and what they play
(issue 31). :class:`ClusterPool` starts a local cluster (``local[:N]``) or joins a scheduler
(``tcp://HOST:PORT``), says which workers would play a match differently (another studio
version, no confinement where the tournament requires it) and hands matches out as tasks.

``distributed`` is an optional extra (``tilegame-studio[cluster]``); it is imported only when a
cluster is asked for.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from studio import __version__
from studio.sessions.haunted.match_task import MatchTask, play_task
from studio.storage.errors import ProjectError

SETTINGS = {"distributed.worker.profile.enabled": False,
            "distributed.admin.system-monitor.interval": "2s",
            "distributed.scheduler.worker-saturation": 1.0}
"""Dask settings for the local cluster the studio starts: no statistical profiler (a stack sample
every 10 ms in every worker, for a dashboard nobody opens here) and a look at the machine's load
every 2 s rather than 0.5 s. On 2 cores they took about a third of the workers' own processor
time beside the matches (bench/tournament.py, 28 matches: 0.6 s a worker against 0.85 s). A
worker holds one match per thread, no more (Dask's default, 1.1, rounds up to two for a thread):
a match queued behind a long one on a busy worker waited while another worker stood idle at
the end of a run. The cluster is also started without a memory limit (``memory_limit=0``), which
turns off Dask's memory monitors: a look at every worker's memory every 100 ms, from its nanny
(in this process, beside the scheduler) and from the worker itself, took a third of the
scheduler's thread and slowed the matches by some 10% on 2 cores (a 66-match round robin: 39–43 s
against 48–53 s). A worker runs only the studio's engine; each AI has its own process, whose
memory the sandbox bounds."""
INSTALL = "pip install 'tilegame-studio[cluster]'"
MISSING = f"--cluster needs Dask distributed, which is not installed: {INSTALL}"


def require_distributed() -> Any:
    """The ``distributed`` module.

    Raises:
        ProjectError: it is not installed (one line saying how to install it).
    """
    try:
        import distributed  # noqa: PLC0415
    except ImportError:
        raise ProjectError(MISSING) from None
    return distributed


def parse_address(spec: str) -> tuple[str, int]:
    """``local`` / ``local:N`` -> ("local", N, default the cores); a scheduler address -> (it, 0).

    Raises:
        ProjectError: neither form.
    """
    if spec == "local" or spec.startswith("local:"):
        count = spec.partition(":")[2] or str(os.cpu_count() or 1)
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise ProjectError(f"--cluster {spec}: give local:N with N from 1 to 256")
        return "local", int(count)
    if "://" in spec or ":" in spec:
        return spec, 0
    raise ProjectError(f"--cluster {spec!r}: give local, local:N or a scheduler address such "
                       "as tcp://10.0.0.5:8786")


@contextmanager
def _usable_stderr() -> Iterator[None]:
    """sys.stderr with a real file descriptor while worker processes start.

    Inside the studio's UI (and its tests) Textual replaces sys.stderr with an object without
    one, and multiprocessing's resource tracker, started with the first local worker, then
    fails with "bad value(s) in fds_to_keep".
    """
    saved = sys.stderr
    try:
        usable = saved is not None and saved.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if not usable and sys.__stderr__ is not None:
        sys.stderr = sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = saved


def _worker_state() -> dict[str, str]:
    """Run on each worker by :meth:`ClusterPool.verdicts`."""
    from studio.engines.haunted.ai.probe import gap  # noqa: PLC0415
    from studio.sessions.haunted.match_task import _studio_version  # noqa: PLC0415

    return {"version": _studio_version(), "gap": gap()}


def _quiet_shutdown() -> None:
    """Run on the local cluster's workers before it closes: a worker whose heartbeat was on its
    way as the scheduler closed logged the closed connection with a traceback, at the end of a
    run that went well (Dask's own race)."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


QUIET_WAIT = 2.0
"""Seconds a close waits for the local cluster's workers to be quieted."""


def _quiet_workers(client: Any) -> None:
    with suppress(Exception):
        client.run(_quiet_shutdown)


def verdict(state: dict[str, str], require_confinement: bool) -> str:
    """Why a worker in ``state`` (:func:`_worker_state`) would refuse this coordinator's
    matches; "" when it plays them."""
    if state.get("version") != __version__:
        return f"it has studio {state.get('version', '?')}, the coordinator {__version__}"
    if require_confinement and state.get("gap"):
        return f"it cannot confine AIs ({state['gap']}) and the tournament requires confinement"
    return ""


class ClusterPool:
    """A Dask client; for ``local[:N]`` also the local cluster of N worker processes it owns.

    Args:
        spec: ``local``, ``local:N`` or a scheduler address (``tcp://HOST:PORT``).
        timeout: seconds to reach a scheduler.
    """

    def __init__(self, spec: str, *, timeout: float = 10.0) -> None:
        distributed = require_distributed()
        self._distributed = distributed
        address, count = parse_address(spec)
        self._cluster = None
        quiet = logging.ERROR  # the CLI's own progress line says what matters
        try:
            if address == "local":
                import dask  # noqa: PLC0415 - there with distributed

                # The scheduler runs here: the settings while it starts. Each worker's nanny (one
                # started again after a worker died too) sets them, dotted, in its worker.
                with _usable_stderr(), dask.config.set(SETTINGS):
                    self._cluster = distributed.LocalCluster(
                        n_workers=count, threads_per_worker=1, processes=True, memory_limit=0,
                        host="127.0.0.1", dashboard_address=None, silence_logs=quiet,
                        config=dict(SETTINGS))
                address = self._cluster.scheduler_address
            self.client = distributed.Client(address, timeout=timeout)
        except OSError as exc:
            self.close()
            raise ProjectError(f"cannot reach the Dask scheduler at {address}: {exc}",
                               hint="start one with `dask scheduler` and workers with "
                                    "`dask worker ADDRESS`") from None
        self.address = address

    def workers(self) -> dict[str, dict[str, Any]]:
        """Per worker address: its host, threads and the match tasks it holds now."""
        info = self.client.scheduler_info(n_workers=-1)["workers"]
        processing = self.client.processing()
        return {addr: {"host": w.get("host", ""), "threads": w.get("nthreads", 1),
                       "processing": len(processing.get(addr, ()))}
                for addr, w in info.items()}

    def slots(self) -> int:
        """How many matches the cluster plays at once (its worker threads)."""
        return sum(w["threads"] for w in self.workers().values())

    def survey(self) -> list[dict[str, Any]]:
        """Every worker as :meth:`workers` lists it, with its studio version and what its AI
        confinement lacks ("" when complete), by address."""
        states = self.client.run(_worker_state)
        return [{"address": addr, **info, "version": states.get(addr, {}).get("version", "?"),
                 "gap": states.get(addr, {}).get("gap", "")}
                for addr, info in sorted(self.workers().items())]

    def wait_for_a_worker(self, wait: float = 30.0) -> str:
        """Wait up to ``wait`` seconds for a first worker; why there is none ("" when there is)."""
        try:
            self.client.wait_for_workers(1, timeout=wait)
        except TimeoutError:
            return (f"the scheduler at {self.address} has had no worker for {wait:.0f} s "
                    f"(start some with `dask worker {self.address}`)")
        return ""

    def verdicts(self, require_confinement: bool,
                 addresses: list[str] | None = None) -> dict[str, str]:
        """Per worker (those of ``addresses``, or all): why it would refuse this coordinator's
        matches, "" when it would play them (each task checks again: a worker may change)."""
        return {addr: verdict(state, require_confinement) for addr, state
                in sorted(self.client.run(_worker_state, workers=addresses).items())}

    def submit(self, task: MatchTask, workers: list[str] | None = None) -> Any:
        """``task`` to the cluster: to any worker, or one of ``workers`` only."""
        # A fresh key per submission: a resumed run's match must not be served from memory.
        return self.client.submit(play_task, task, key=f"match-{task.number}-{uuid.uuid4().hex}",
                                  pure=False, workers=workers, allow_other_workers=False)

    def finished(self, futures: list[Any], timeout: float) -> list[Any]:
        """Those of ``futures`` that are done, waiting up to ``timeout`` for the first."""
        try:
            done, _ = self._distributed.wait(futures, timeout=timeout,
                                             return_when="FIRST_COMPLETED")
        except TimeoutError:  # distributed.TimeoutError is this one
            return []
        return list(done)

    def cancel(self, futures: list[Any]) -> None:
        if futures:
            self.client.cancel(futures)

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            if self._cluster is not None:  # ours: its workers are about to lose the scheduler
                # On a thread, 2 s at most: a worker too busy to answer must not hold the close.
                quiet = threading.Thread(target=_quiet_workers, args=(client,), daemon=True)
                quiet.start()
                quiet.join(QUIET_WAIT)
            client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def __enter__(self) -> ClusterPool:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()
