"""Running a Haunted Tiles tournament with its replays folder (haunted.md §11): the use case that
``studio tournament`` and the tournament screen share.

A run saves every match as ``match-NNN.json.gz`` the moment it ends and rewrites ``index.json``
after each one, so a run that stops early (cancelled, crashed, killed) resumes where it stopped:
the saved matches are read back, not played again, and the schedule's seeds stay the same.
:meth:`TournamentRun.run` plays on the thread that calls it (a Textual thread worker in the UI,
while the AIs think in their own processes); :meth:`TournamentRun.cancel` and
:meth:`TournamentRun.progress` are safe from any thread.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio import __version__
from studio.engines.common.limits import MAX_INDEX_BYTES
from studio.engines.haunted import replay as replays
from studio.engines.haunted.match import MatchResult
from studio.engines.haunted.tournament import (
    DOUBLE_ROUND_ROBIN,
    SINGLE,
    Fixture,
    Played,
    TournamentResult,
    round_robin,
    single_elimination,
)
from studio.sessions.haunted.entrants import resolve_entrant
from studio.sessions.haunted.feed import FEED_NAME, FeedWriter
from studio.sessions.haunted.index_check import check_index
from studio.sessions.haunted.replays import tournament_folder
from studio.sessions.haunted.tournament_plan import (  # noqa: F401  (imported from here before the split)
    FORMAT,
    TournamentPlan,
    index_document,
    project_plan,
    replay_file,
    same_plan,
    with_submissions,
)
from studio.storage import served
from studio.storage.atomic import atomic_write
from studio.storage.errors import ProjectError
from studio.storage.haunted.replay import load_replay, save_replay
from studio.storage.reading import decode_text, parse_json, read_bounded

INDEX = "index.json"


def has_results(project_folder: Path, name: str) -> bool:
    """Whether a tournament called ``name`` left results beside the project (a run, or part of
    one), whether or not the project still has the tournament."""
    folder = tournament_folder(project_folder, name)
    return (folder / INDEX).exists() or replay_file(folder, 1).exists()


def feed_file(folder: Path) -> Path:
    """The live feed of the run saving to ``folder`` (see :mod:`studio.sessions.haunted.feed`)."""
    return folder / FEED_NAME


def saved_matches(folder: Path) -> dict[int, MatchResult]:
    """The matches of an earlier run, by schedule number. Not always consecutive: a run that
    plays several matches at once (``--cluster``) saves them in the order they finish."""
    done: dict[int, MatchResult] = {}
    for path in folder.glob("match-*.json.gz"):
        number = path.name.removeprefix("match-").removesuffix(".json.gz")
        if number.isdigit() and int(number) > 0 and path == replay_file(folder, int(number)):
            done[int(number)] = MatchResult.from_replay(load_replay(path))
    return dict(sorted(done.items()))


def read_index(folder: Path) -> dict[str, Any] | None:
    """The ``index.json`` of a tournament folder; None when there is none yet.

    Raises:
        ProjectError: it exists but cannot be read.
    """
    path = Path(folder) / INDEX
    if not path.exists():
        return None
    document = parse_json(decode_text(read_bounded(path, MAX_INDEX_BYTES, "a tournament index"),
                                      path, "the tournament index"), path)
    return check_index(document, path)


def write_index(folder: Path, document: dict[str, Any]) -> None:
    data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        served.make_folder(folder)
        atomic_write(folder / INDEX, data, backup=False)
    except OSError as exc:
        raise ProjectError(f"cannot write the tournament index: {exc.strerror or exc}",
                           file=folder / INDEX) from None


def clear_run(folder: Path) -> None:
    """Forget an earlier run: its matches would otherwise be taken for this run's on resume."""
    if not folder.is_dir():
        return
    for path in folder.glob("match-*.json.gz"):
        path.unlink()
    (folder / INDEX).unlink(missing_ok=True)


class TournamentCancelled(Exception):
    """The run was cancelled; the matches finished before that are saved."""


@dataclass(frozen=True)
class Progress:
    """How far a run is (safe to read from any thread)."""

    done: int
    scheduled: int
    current: str
    """The match being played ("final: A vs B"), "" between matches."""
    document: dict[str, Any]
    """The run's ``index.json`` as of now."""


class TournamentRun:
    """One run of a plan.

    Args:
        plan: what to run.
        resume: reuse the matches saved by an earlier run of the same plan; otherwise an earlier
            run's files are removed first.
        notify: called on the run's thread whenever :meth:`progress` changed.
        on_match: called on the run's thread after each match played (not for reused ones).
    """

    live_feed = True
    """Write the live feed beside the results (a bench measures the run without it)."""

    def __init__(self, plan: TournamentPlan, *, resume: bool = False,
                 notify: Callable[[], None] | None = None,
                 on_match: Callable[[Played], None] | None = None) -> None:
        self.plan = plan
        self.resume = resume
        self._notify = notify or (lambda: None)
        self._on_match = on_match
        self._cancel = threading.Event()
        self._lock = threading.Lock()
        self._played: list[Played] = []
        self._done: dict[int, MatchResult] = {}
        self._progress = Progress(0, plan.scheduled, "", index_document(plan, []))
        self.result: TournamentResult | None = None
        """Set when :meth:`run` completes."""
        self.feed: FeedWriter | None = None
        """The live feed beside the results, while :meth:`run` plays."""
        self._entrants: list = []

    def progress(self) -> Progress:
        with self._lock:
            return self._progress

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Stop at the next turn (or before the next match); :meth:`run` then raises
        :class:`TournamentCancelled`. The match being played is not saved: a resumed run plays
        it again from its start, with the same seed."""
        self._cancel.set()

    def _show(self, current: str) -> None:
        with self._lock:
            self._progress = Progress(len(self._played), self.plan.scheduled, current,
                                      index_document(self.plan, self._played))
        self._notify()

    def _check(self, *_: Any) -> None:
        if self._cancel.is_set():
            raise TournamentCancelled()

    def _turn(self, *turn: Any) -> None:
        if self.feed is not None:
            self.feed.turn_played(*turn)
        if self.plan.pace > 0:
            self._cancel.wait(self.plan.pace)  # a cancel ends the wait at once
        self._check()

    def _entry(self, played: Played) -> dict[str, Any]:
        return index_document(self.plan, [played])["matches"][0]

    def _started(self, fixture: Fixture) -> None:
        reused = self._done.get(fixture.number)
        if reused is not None:  # listed at once: a later cancel keeps it in the index
            self._played.append(Played(fixture.stage, fixture.home, fixture.away, fixture.seed,
                                       reused, fixture.number))
            if self.feed is not None:
                self.feed.match_reused(self._entry(self._played[-1]))
            self._show("")
            return
        self._check()
        names = self.plan.entrants
        if self.feed is not None:
            home, away = self._entrants[fixture.home], self._entrants[fixture.away]
            self.feed.match_started({"A": home, "B": away}, self.plan.config, fixture.seed,
                                    self.plan.maps, fixture.number, fixture.stage)
        self._show(f"{fixture.stage}: {names[fixture.home]} vs {names[fixture.away]}")

    def _finished(self, played: Played) -> None:
        folder = self.plan.replays
        if folder is not None:
            save_replay(replays.build(played.result, __version__),
                        replay_file(folder, played.number))
        self._played.append(played)
        if folder is not None:
            write_index(folder, index_document(self.plan, self._played))
        if self.feed is not None:
            self.feed.match_ended(played.result, self._entry(played))
        self._show("")
        if self._on_match is not None:
            self._on_match(played)

    def run(self) -> dict[str, Any]:
        """Play (or resume) the tournament; returns its final ``index.json`` document.

        Raises:
            TournamentCancelled: :meth:`cancel` was called.
            ProjectError: an AI cannot play, the saved matches are another run's, or a file
                cannot be written.
        """
        plan, folder = self.plan, self.plan.replays
        if folder is not None:
            if self.resume:
                self._done = saved_matches(folder)
            else:
                clear_run(folder)
        self._check()
        entrants = [resolve_entrant(spec, plan.config, plan.teams, plan.folder,
                                    in_process=plan.in_process_builtins,
                                    require_confinement=plan.require_confinement)
                    for spec in plan.entrants]
        self._entrants = entrants
        hooks: dict[str, Any] = {"on_match": self._finished, "done": self._done,
                                 "on_start": self._started, "observer": self._turn}
        if folder is not None and self.live_feed:
            self.feed = FeedWriter(feed_file(folder), "tournament")
            self.feed.tournament_started(index_document(plan, []))
            hooks.update(on_round_start=self.feed.round_started,
                         on_round_end=self.feed.round_ended)
        try:
            document = self._play(entrants, hooks)
        except TournamentCancelled:
            self._stop("cancelled")
            raise
        except Exception as exc:
            self._stop(f"stopped: {exc}")
            raise
        if self.feed is not None:
            self.feed.tournament_ended(document)
            self.feed.close()
        return document

    def _stop(self, why: str) -> None:
        if self.feed is not None:
            self.feed.stopped(why)
            self.feed.close()

    def _play(self, entrants: list, hooks: dict[str, Any]) -> dict[str, Any]:
        plan, folder = self.plan, self.plan.replays
        try:
            if plan.mode == SINGLE:
                result = single_elimination(entrants, plan.maps, plan.config, plan.seed,
                                            school_sizes=plan.school_sizes,
                                            third_place=plan.third_place, **hooks)
            else:
                result = round_robin(entrants, plan.maps, plan.config, plan.seed,
                                     double=plan.mode == DOUBLE_ROUND_ROBIN, **hooks)
        except ValueError as exc:  # a saved match that does not fit this tournament
            raise ProjectError(str(exc), file=folder,
                               hint="run it afresh (without resuming)") from None
        self.result = result
        document = index_document(plan, result.matches, result)
        if folder is not None:
            write_index(folder, document)
        with self._lock:
            self._progress = Progress(len(result.matches), plan.scheduled, "", document)
        self._notify()
        return document


