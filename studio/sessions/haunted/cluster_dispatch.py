"""Matches out on a cluster, and which of its workers they may go to (issue 31, "Faults"):
what a tournament's and the ladder's runs on Dask share.

A worker with another studio version, or one that cannot confine AIs when the tournament
requires it, would play a match differently or unsafely. It is left out, with its reason said
where the run's progress is shown, and the matches go to the others; the run stops only when no
worker is left that may play. Workers are looked at when the run starts and again whenever new
ones appear (a lab machine joining, or a nanny starting a worker again after it died: a new
address each time), and a match a worker refuses itself (it changed, or joined between two
looks) is sent again to the others.

While every worker fits, matches go out unrestricted, as Dask would place them; once one is
left out, each goes out restricted to the workers that fit as known then, and a match whose
allowed workers have all gone is sent again with the new list (Dask would wait for them
forever).
"""

from __future__ import annotations

from typing import Any, Protocol

from studio.sessions.haunted.match_task import MatchOutcome, MatchTask, WorkerRefused
from studio.storage.errors import ProjectError

MAX_WORDS = 300
"""Characters kept of what a worker says of itself (its address, why it refused)."""
MAX_REFUSALS = 3
"""Workers that may refuse one match before the run stops on it (each is then left out)."""


class Surveyed(Protocol):
    def verdicts(self, require_confinement: bool,
                 addresses: list[str] | None = None) -> dict[str, str]: ...


class Pool(Surveyed, Protocol):
    """What a dispatch needs of :class:`~studio.sessions.haunted.cluster_pool.ClusterPool`."""

    def wait_for_a_worker(self, wait: float = 30.0) -> str: ...

    def submit(self, task: MatchTask, workers: list[str] | None = None) -> Any: ...

    def finished(self, futures: list[Any], timeout: float) -> list[Any]: ...

    def cancel(self, futures: list[Any]) -> None: ...


class Admission:
    """The workers that fit a run (``good``) and those left out, with why (``refused``)."""

    def __init__(self, pool: Surveyed, require_confinement: bool) -> None:
        self.pool = pool
        self.require_confinement = require_confinement
        self.good: set[str] = set()
        self.refused: dict[str, str] = {}

    def survey(self, addresses: list[str] | None = None) -> None:
        """Look at ``addresses`` (every worker when None) and sort them."""
        for address, why in self.pool.verdicts(self.require_confinement, addresses).items():
            if why:
                self.refuse(address, why)
            elif address not in self.refused:
                self.good.add(address)

    def follow(self, live: set[str]) -> bool:
        """The workers are now ``live``: new ones looked at, gone ones dropped. Whether the
        workers matches may go to changed."""
        before = set(self.good)
        new = sorted(live - self.good - set(self.refused))
        if new:
            self.survey(new)
        self.good &= live
        return self.good != before

    def refuse(self, address: str, why: str) -> None:
        self.good.discard(address)
        # Both come from the worker (its address, its version, its message): a line each, of a
        # bounded length, however long what it sent; made inert where they are shown.
        self.refused[address[:MAX_WORDS]] = " ".join(why.split())[:MAX_WORDS]

    @property
    def workers(self) -> list[str] | None:
        """Where a match may go: None (anywhere) while no worker is left out."""
        return sorted(self.good) if self.refused else None

    def stranded(self, allowed: list[str] | None) -> bool:
        """Whether a match sent to ``allowed`` can no longer be played by any of them."""
        return allowed is not None and not set(allowed) & self.good

    def left_out(self) -> list[str]:
        """``worker ADDRESS: why``, one per worker left out."""
        return [f"worker {address}: {why}" for address, why in sorted(self.refused.items())]

    def none_fit(self) -> str:
        """Why the run cannot go on ("" while a worker fits)."""
        if self.good:
            return ""
        return "no worker of the cluster can play this tournament: " + "; ".join(
            self.left_out())


def refusing_worker(exc: Any) -> str:
    """The address a :class:`~studio.sessions.haunted.match_task.WorkerRefused` came from ("" if
    it was raised outside a Dask worker)."""
    args = getattr(exc, "args", ())
    return str(args[1]) if len(args) > 1 else ""


class Dispatch:
    """Matches out on the cluster, each with what it stands for (a fixture, a ladder match).

    ``start`` looks at the workers (the run cannot start without one that fits), ``send`` hands a
    match out, ``follow`` keeps up with the workers there are, and ``collect`` returns the
    matches played, sending a refused one again elsewhere.
    """

    def __init__(self, pool: Pool, require_confinement: bool) -> None:
        self.pool = pool
        self.admission = Admission(pool, require_confinement)
        self.out: dict[Any, tuple[Any, MatchTask, list[str] | None]] = {}
        self._refusals: dict[int, int] = {}

    def start(self) -> None:
        """Raises ProjectError: no worker, or none that fits."""
        missing = self.pool.wait_for_a_worker()
        if missing:
            raise ProjectError(f"the cluster cannot play this tournament: {missing}")
        self.admission.survey()
        if self.admission.none_fit():
            raise ProjectError(self.admission.none_fit())

    @property
    def items(self) -> list[Any]:
        """What the matches out stand for."""
        return [item for item, _, _ in self.out.values()]

    def send(self, item: Any, task: MatchTask) -> None:
        workers = self.admission.workers
        self.out[self.pool.submit(task, workers)] = (item, task, workers)

    def follow(self, live: set[str]) -> None:
        """The workers are now ``live``: matches whose allowed workers all went go again."""
        if not self.admission.follow(live):
            return
        stranded = [f for f, (_, _, w) in self.out.items() if self.admission.stranded(w)]
        if stranded and self.admission.good:
            self.pool.cancel(stranded)
            for future in stranded:
                item, task, _ = self.out.pop(future)
                self.send(item, task)

    def collect(self, timeout: float) -> list[tuple[Any, MatchOutcome]]:
        """The matches finished within ``timeout`` (waiting for the first), with their outcome.

        Raises:
            ProjectError: a match failed on the cluster (its worker lost too often, an error),
                or no worker is left that may play it.
        """
        played = []
        for future in self.pool.finished(list(self.out), timeout):
            item, task, _ = self.out.pop(future)
            try:
                played.append((item, future.result()))
            except WorkerRefused as exc:
                self._refused(item, task, exc)
            except Exception as exc:  # a worker lost too often (KilledWorker), a task error
                raise ProjectError(f"match {task.number} failed on the cluster: "
                                   f"{type(exc).__name__}: {exc}") from None
        return played

    def _refused(self, item: Any, task: MatchTask, exc: WorkerRefused) -> None:
        """A worker refused the match itself: left out, the match sent to the others (the run
        stops when none is left, or when :data:`MAX_REFUSALS` refused this match)."""
        self.admission.refuse(refusing_worker(exc) or "?", str(exc))
        count = self._refusals[task.number] = self._refusals.get(task.number, 0) + 1
        if self.admission.none_fit() or count >= MAX_REFUSALS:
            raise ProjectError(self.admission.none_fit() or str(exc))
        self.send(item, task)

    def cancel(self) -> None:
        """Every match still out dropped (a resumed run plays them again)."""
        self.pool.cancel(list(self.out))
        self.out.clear()
