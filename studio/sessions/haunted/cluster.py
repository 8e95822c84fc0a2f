"""Tournaments on many cores or machines, with Dask distributed (issue 31).

The coordinator (this process) keeps everything a local run keeps: it decides which matches can
be played (:func:`~studio.engines.haunted.fixtures.open_fixtures`), sends each as a
:class:`~studio.sessions.haunted.match_task.MatchTask` to the cluster, and writes every replay,
``index.json`` and the live feed itself, in the order matches finish. Match seeds come from the
schedule, so once every result is in, the sequential engine given them all plays nothing and
returns what a sequential run returns. Dask reruns a task whose worker died on another worker
and completes its future once: a match lost with a worker is played again and counted once.

The cluster itself (starting or joining it, checking its workers) is
:mod:`studio.sessions.haunted.cluster_pool`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from studio import __version__
from studio.engines.haunted.fixtures import known_fixtures, open_fixtures
from studio.engines.haunted.match import MatchResult
from studio.engines.haunted.tournament import Fixture, Played
from studio.sessions.haunted.cluster_pool import (  # noqa: F401  (imported from here)
    INSTALL,
    MISSING,
    ClusterPool,
    parse_address,
    require_distributed,
)
from studio.sessions.haunted.cluster_dispatch import Dispatch
from studio.sessions.haunted.cluster_order import Costs
from studio.sessions.haunted.match_task import AISource, MatchOutcome, task_for
from studio.sessions.haunted.tournament import TournamentPlan, TournamentRun

LOOK_EVERY = 0.5
"""Seconds at least between two looks at the workers during a run (for progress only)."""
POLL = 0.25
"""Seconds between looks at a cancel request while matches are out on the cluster."""


@dataclass(frozen=True)
class Load:
    """Where a parallel run is: matches done, out on the cluster, and not started yet."""

    done: int
    running: int
    queued: int
    rate: float
    """Matches per second since the run started (0 until one finished)."""

    @property
    def seconds_left(self) -> float | None:
        """None until a match finished, and once none is left (the last line said "about 0s
        left" under "15/15 done")."""
        left = self.running + self.queued
        return left / self.rate if self.rate > 0 and left else None


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    return (f"{hours}h{rest // 60:02d}m" if hours else
            f"{rest // 60}m{rest % 60:02d}s" if rest >= 60 else f"{rest}s")


def progress_line(load: Load, width: int = 20) -> str:
    """``[#####---]  12/120 done, 2 running, 106 queued, 1.5 matches/s, about 1m12s left``."""
    total = load.done + load.running + load.queued
    filled = round(width * load.done / total) if total else width
    left = load.seconds_left
    when = f", about {_duration(left)} left" if left is not None else ""
    return (f"[{'#' * filled}{'-' * (width - filled)}] {load.done:>{len(str(total))}}/{total} "
            f"done, {load.running} running, {load.queued} queued, {load.rate:.2f} matches/s"
            f"{when}")


def where_to_run(text: str) -> str:
    """The tournament screen's "where to run" as typed: "" (or ``here``) for here, else a
    ``--cluster`` value.

    Raises:
        ProjectError: neither, or ``distributed`` is not installed (checked now, not at run).
    """
    text = text.strip()
    if text in ("", "here"):
        return ""
    parse_address(text)
    require_distributed()
    return text


def hosts_text(hosts: dict[str, tuple[int, int]]) -> str:
    """``busy/workers 10.0.0.7 2/2, 10.0.0.8 1/2`` (matches in hand, workers; per host)."""
    if not hosts:
        return ""
    return "busy/workers " + ", ".join(f"{host} {busy}/{workers}" for host, (workers, busy)
                                       in sorted(hosts.items()))


def cluster_line(run: ParallelRun) -> str:
    """A parallel run as the tournament screen's status line says it: how far, how fast, the
    workers per host (from what the run saw at its last match: no cluster call), and the workers
    left out with why."""
    load = run.seen
    left = load.seconds_left
    when = f" · about {_duration(left)} left" if left is not None else ""
    hosts = hosts_text(run.hosts)
    left_out = run.left_out  # the tournament screen's status line is the place to say why
    return (f"{run.where}: {load.running} running · {load.queued} queued · "
            f"{load.rate:.2f}/s{when}" + (f" · {hosts}" if hosts else "")
            + (" · left out: " + "; ".join(left_out) if left_out else ""))


class ParallelRun(TournamentRun):
    """A :class:`TournamentRun` whose matches are played on a cluster.

    Args:
        pool: a :class:`ClusterPool`, or where to open one for the run (``local``, ``local:N``
            or a scheduler address: opened and closed on the run's thread, so a screen's run
            does not wait for a cluster on the event loop).

    Cancelling drops the matches out on the cluster (a resumed run plays them again); the
    pace setting does not apply (a match is not played turn by turn here).
    """

    def __init__(self, plan: TournamentPlan, pool: ClusterPool | str, *, resume: bool = False,
                 notify: Callable[[], None] | None = None,
                 on_match: Callable[[Played], None] | None = None) -> None:
        super().__init__(plan, resume=resume, notify=notify, on_match=on_match)
        self.where = pool if isinstance(pool, str) else pool.address
        self.pool: ClusterPool | None = None if isinstance(pool, str) else pool
        self.dispatch: Dispatch | None = None
        """The matches out on the cluster, and the workers they may go to."""
        self._clock = time.monotonic()
        self._new = 0
        self.outcomes: dict[int, MatchOutcome] = {}
        """What the workers sent back, by schedule number (where and how each was played)."""
        self.seen = Load(0, 0, plan.scheduled, 0.0)
        """:meth:`load` as of the last match: safe to read from any thread without asking the
        cluster."""
        self.hosts: dict[str, tuple[int, int]] = {}
        """Per worker host, as of the last look: (workers, matches in hand)."""
        self._looked = float("-inf")
        self._slots = 1
        self.costs = Costs()
        """What each entrant's matches took so far: the next to send are the dearest."""

    @property
    def left_out(self) -> list[str]:
        """``worker ADDRESS: why`` for each worker this run does not use."""
        return self.dispatch.admission.left_out() if self.dispatch is not None else []

    def load(self) -> Load:
        """Where the run is now (the cluster's size as of the last look at it)."""
        done = len(self._played)
        running = min(len(self.dispatch.out) if self.dispatch else 0, max(1, self._slots))
        elapsed = time.monotonic() - self._clock
        rate = self._new / elapsed if self._new and elapsed > 0 else 0.0
        return Load(done, running, self.plan.scheduled - done - running, rate)

    def _look(self) -> None:
        """Refresh :attr:`seen`, and every :data:`LOOK_EVERY` seconds :attr:`hosts` (two calls
        to the scheduler: per match they cost a third of a tiny match's time on the
        coordinator); then tell whoever follows the run."""
        now = time.monotonic()
        if self.pool is not None and now - self._looked >= LOOK_EVERY:
            hosts: dict[str, tuple[int, int]] = {}
            workers = self.pool.workers()
            refused: dict[str, str] = {}
            if self.dispatch is not None:
                self.dispatch.follow(set(workers))
                refused = self.dispatch.admission.refused
            used = {address: info for address, info in workers.items() if address not in refused}
            for info in used.values():  # a worker left out plays none of this run's matches
                count, busy = hosts.get(info["host"], (0, 0))
                hosts[info["host"]] = (count + 1, busy + info["processing"])
            self.hosts, self._looked = hosts, now
            self._slots = sum(info["threads"] for info in used.values()) or 1
        self.seen = self.load()
        self._notify()

    def _play(self, entrants: list, hooks: dict[str, Any]) -> dict[str, Any]:
        if self.pool is not None:
            return self._play_on(entrants)
        with ClusterPool(self.where) as pool:
            self.pool = pool
            try:
                return self._play_on(entrants)
            finally:
                self.pool = None

    def _play_on(self, entrants: list) -> dict[str, Any]:
        assert self.pool is not None
        self.dispatch = Dispatch(self.pool, self.plan.require_confinement)
        self.dispatch.start()
        for fixture in self._fixtures(known=True):  # a resumed run lists what it reuses first
            if fixture.number in self._done:
                self._started(fixture)
        # Read once: every match plays the sources as they were when the run began.
        sources = [AISource.of(entrant) for entrant in entrants]
        self._clock = time.monotonic()
        try:
            self._run_out(entrants, sources)
        finally:
            self.dispatch.cancel()
        return super()._play(entrants, {"done": self._done})

    def _fixtures(self, known: bool = False) -> list[Fixture]:
        plan = self.plan
        pick = known_fixtures if known else open_fixtures
        return pick(plan.mode, len(plan.entrants), plan.seed, self._done,
                    school_sizes=plan.school_sizes, third_place=plan.third_place)

    def _run_out(self, entrants: list, sources: list[AISource]) -> None:
        """Every match to the cluster once both its entrants are known, as many at a time as
        the cluster plays (the dearest first: :mod:`cluster_order`), until all are played."""
        dispatch = self.dispatch
        assert dispatch is not None
        self._look()  # how many the cluster plays at once
        while True:
            self._check()
            self._send(sources, ())
            if not dispatch.out:
                return
            played = dispatch.collect(POLL)
            for fixture, outcome in played:
                self.costs.learn(fixture, outcome.seconds, outcome.replay)
            if played:  # the freed workers' next matches go before the results are written
                self._send(sources, {fixture.number for fixture, _ in played})
            for fixture, outcome in played:
                self._collect(fixture, outcome, entrants)

    def _send(self, sources: list[AISource], landed: Iterable[int]) -> None:
        """Fill the cluster's free slots; ``landed``: matches back but not yet entered."""
        plan, dispatch = self.plan, self.dispatch
        assert dispatch is not None
        taken = {fixture.number for fixture in dispatch.items} | set(landed)
        fresh = [f for f in self._fixtures() if f.number not in taken]
        for fixture in self.costs.dearest(fresh, self._slots - len(dispatch.out)):
            dispatch.send(fixture, task_for(
                fixture.number, sources[fixture.home], sources[fixture.away], plan.maps,
                plan.config, fixture.seed, __version__,
                require_confinement=plan.require_confinement,
                in_process=plan.in_process_builtins))

    def _collect(self, fixture: Fixture, outcome: MatchOutcome, entrants: list) -> None:
        result = MatchResult.from_replay(outcome.replay)
        self.outcomes[fixture.number] = outcome
        self._done[fixture.number] = result
        self._new += 1
        if self.feed is not None:  # as a local run writes it while it plays, all at once
            self.feed.replayed({"A": entrants[fixture.home], "B": entrants[fixture.away]},
                               self.plan.config, fixture.seed, self.plan.maps, fixture.number,
                               fixture.stage, result)
        self._finished(Played(fixture.stage, fixture.home, fixture.away, fixture.seed, result,
                              fixture.number))
        self._look()
