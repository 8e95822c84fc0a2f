"""The ladder's catch-up on a Dask cluster (issue 31): every missing match out at once, each
saved and entered as it comes back, with what a catch-up here guarantees.

The schedule, seeds and settings are the ladder's own (:mod:`studio.sessions.haunted.ladder`);
only where the matches are played changes. The ladder's lock is held to read what is missing and
to enter each result, not while matches are out, so a submission stored meanwhile is seen at the
next look and its matches go out too. A result that comes back for a match entered since (by
another runner) is dropped: counted once. A match's task ships both submissions' sources, read
and checked against their hashes when it is sent.
"""

from __future__ import annotations

import threading
from typing import Any

from studio import __version__
from studio.engines.haunted import replay as replays
from studio.engines.haunted.ladder import LadderMatch
from studio.engines.haunted.match import MatchResult
from studio.sessions.haunted.cluster_dispatch import Dispatch
from studio.sessions.haunted.cluster_pool import ClusterPool
from studio.sessions.haunted.feed import FeedWriter
from studio.sessions.haunted.ladder import (
    INDEX, CatchUp, Ladder, LadderCancelled, MakeEntrant, OnMatch, index_document,
    ladder_folder, ladder_lock, load_ladder, match_config, mended_results, replay_path, result_entry,
    sandboxed,
)
from studio.sessions.haunted.match_task import AISource, MatchOutcome, task_for
from studio.sessions.haunted.tournament import feed_file, write_index
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import requires_confinement
from studio.storage.haunted.project import HauntedModel
from studio.storage.haunted.replay import save_replay

POLL = 0.25
"""Seconds between looks at a cancel request (and at new submissions) while matches are out."""


def catch_up_on(pool: ClusterPool, model: HauntedModel, *,
                make_entrant: MakeEntrant | None = None, in_process: bool = False,
                cancel: threading.Event | None = None, on_match: OnMatch | None = None,
                live_feed: bool = True) -> CatchUp:
    """:func:`~studio.sessions.haunted.ladder.catch_up` with the matches played on ``pool``.

    Args:
        in_process: built-in entrants play inside the worker (tests).

    Raises:
        LadderCancelled: ``cancel`` was set (the matches out are dropped; none is entered).
        ProjectError: as ``catch_up``, or the cluster cannot play the matches.
    """
    if model.folder is None:
        raise ProjectError("the project has no folder yet: save it first")
    make = make_entrant or sandboxed(model)
    dispatch = Dispatch(pool, requires_confinement(model.body))
    dispatch.start()
    report = CatchUp()
    feed: FeedWriter | None = None
    teams: dict[str, dict[str, Any]] = {}
    """Each match's two entrants by its key, for the feed."""
    try:
        while True:
            if cancel is not None and cancel.is_set():
                raise LadderCancelled()
            ladder = _send_missing(model, dispatch, make, in_process, report, teams)
            if not dispatch.out:
                break
            if feed is None and live_feed:
                feed = FeedWriter(feed_file(ladder.folder), "ladder")
            for match, outcome in dispatch.collect(POLL):
                _enter(model, match, outcome, teams.pop(match.key), feed, on_match, report)
    except LadderCancelled:
        if feed is not None:
            feed.stopped("cancelled")
        raise
    finally:
        dispatch.cancel()
        if feed is not None:
            feed.close()
    return report


def _send_missing(model: HauntedModel, dispatch: Dispatch, make: MakeEntrant,
                  in_process: bool, report: CatchUp, teams: dict[str, dict[str, Any]]) -> Ladder:
    """Under the lock: the results mended, and every missing match not out yet sent."""
    assert model.folder is not None
    with ladder_lock(ladder_folder(model.folder)):
        ladder = load_ladder(model)
        if ladder.stale:
            raise ProjectError("the match settings, maps or ladder settings changed since the "
                               "ladder's matches were played", file=ladder.folder / INDEX,
                               hint="reset the ladder to play them again")
        results = mended_results(ladder, report)
        missing = [m for m in ladder.matches if m.key not in results]
        if results != ladder.results or (not missing and ladder.recorded is None):
            write_index(ladder.folder, index_document(ladder, results))
        report.pending = len(missing)
        out = {m.key for m in dispatch.items}
        maps = model.maps()
        for match in missing:
            if match.key in out:
                continue
            config = match_config(model.config(), match)
            teams[match.key] = {letter: make(ladder.submissions[v.sha256], config)
                                for letter, v in (("A", match.home), ("B", match.away))}
            sides = [AISource.of(teams[match.key][letter]) for letter in "AB"]
            dispatch.send(match, task_for(match.number, sides[0], sides[1], maps, config,
                                          match.seed, __version__,
                                          require_confinement=dispatch.admission.require_confinement,
                                          in_process=in_process))
    return ladder


def _enter(model: HauntedModel, match: LadderMatch, outcome: MatchOutcome,
           teams: dict[str, Any], feed: FeedWriter | None, on_match: OnMatch | None,
           report: CatchUp) -> None:
    """Under the lock: the match's replay saved and its result entered, unless another runner
    entered it meanwhile or the settings changed under it."""
    assert model.folder is not None
    result = MatchResult.from_replay(outcome.replay)
    with ladder_lock(ladder_folder(model.folder)):
        ladder = load_ladder(model)
        if match.key in ladder.results or ladder.stale or all(
                m.key != match.key for m in ladder.matches):
            return
        path = replay_path(ladder.folder, match.key)
        save_replay(replays.build(result, __version__), path)
        results: dict[str, dict[str, Any]] = {**ladder.results,
                                              match.key: result_entry(match, result, path)}
        write_index(ladder.folder, index_document(ladder, results))
    if feed is not None:
        config = match_config(model.config(), match)
        feed.replayed(teams, config, match.seed, model.maps(), match.number,
                      f"ladder {match.home.team} vs {match.away.team}", result)
        feed.match_ended(result, results[match.key])
    report.played.append(match.key)
    report.pending = max(0, report.pending - 1)
    if on_match is not None:
        on_match(match, results[match.key])
