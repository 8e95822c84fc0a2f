"""Running the ladder (issue 30): playing what the submissions call for, and reading its standings;
the use case that ``studio ladder``, a submit and the Ladder screen share.

The schedule is a pure function of the submissions (:mod:`studio.engines.haunted.ladder`), so a
run only "catches up": it plays the scheduled matches that have no result yet, one at a time,
each under an exclusive lock on ``replays/ladder/.lock`` (fcntl). The lock is held from choosing
the match to writing its result, so two processes (two sessions submitting at once, a runner left
on the server) never play the same match, and the index is never written by two at once. A match
is saved as ``match-KEY.json.gz`` and then entered in ``index.json``, both atomically; a run killed
mid-match left neither and the match is played again from its start with the same seed; a run
killed between the two is mended from the replay on the next run: counted once either way.

AIs play their submitted sources through :func:`~studio.sessions.haunted.entrants.resolve_entrant`,
as in tournaments: sandboxed workers, the project's confinement requirement.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from studio import __version__
from studio.engines.haunted import replay as replays
from studio.engines.haunted.ladder import (
    LadderMatch, Outcome, Row, Version, schedule, standings,
)
from studio.engines.haunted.match import Entrant, MatchAborted, MatchConfig, MatchResult, run_match
from studio.sessions.haunted.entrants import resolve_entrant
from studio.sessions.haunted.feed import FeedWriter
from studio.sessions.haunted.ladder_files import (  # noqa: F401  (the ladder's whole API here)
    FOLDER, FORMAT, INDEX, LadderBusy, LadderCancelled, ladder_folder, ladder_lock,
    read_ladder_index, replay_path, reset_ladder,
)
from studio.sessions.haunted.tournament import feed_file, write_index
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import requires_confinement
from studio.storage.haunted.ladder import LadderSettings, ladder_of
from studio.storage.haunted.project import HauntedModel
from studio.storage.haunted.replay import load_replay, save_replay
from studio.storage.haunted.submissions import (
    Submission, deadline_of, frozen_source, is_open, list_submissions,
)

MakeEntrant = Callable[[Submission, MatchConfig], Entrant]
"""Turns a submission into a match entrant (tests pass built-ins played in process)."""
OnMatch = Callable[[LadderMatch, "dict[str, Any] | None"], None]
"""Told of a match as it starts (None) and once its result is saved (its index entry)."""


# ------------------------------------------------------------------------------- the state


@dataclass(frozen=True)
class Ladder:
    """The ladder as of now: settings, submissions, schedule, results and standings."""

    settings: LadderSettings
    folder: Path
    submissions: dict[str, Submission]
    """By SHA-256: the file each version plays."""
    versions: tuple[Version, ...]
    matches: tuple[LadderMatch, ...]
    results: dict[str, dict[str, Any]]
    """``index.json``'s entries by match key."""
    rows: tuple[Row, ...]
    fingerprint: dict[str, Any] = field(default_factory=dict)
    recorded: dict[str, Any] | None = None
    """The fingerprint the saved results were played with (None: nothing saved yet)."""

    @property
    def missing(self) -> list[LadderMatch]:
        return [m for m in self.matches if m.key not in self.results]

    @property
    def stale(self) -> bool:
        """The settings changed since the saved results were played."""
        return self.recorded is not None and self.recorded != self.fingerprint


def versions_of(model: HauntedModel) -> tuple[list[Version], dict[str, Submission]]:
    """Every submission made before the deadline of every registry team with its own AI."""
    if model.folder is None:
        return [], {}
    deadline = deadline_of(model.body)
    found: list[Version] = []
    files: dict[str, Submission] = {}
    for team in model.teams():
        if team.runtime == "builtin":
            continue
        for sub in list_submissions(model.folder, team.name):
            if is_open(deadline, sub.time):
                found.append(Version(team.name, sub.sha256, sub.time, sub.sequence))
                files.setdefault(sub.sha256, sub)
    return found, files


def fingerprint(model: HauntedModel, settings: LadderSettings) -> dict[str, Any]:
    """What decides the ladder's results besides the submissions: saved results of another
    fingerprint were played under other settings."""
    config = model.config()
    maps = model.maps()
    boards = json.dumps({n: maps[n].to_json() for n in config.maps if n in maps}, sort_keys=True)
    return {"seed": settings.seed, "games_per_pair": settings.games_per_pair,
            "config": config.to_json(),
            "maps_sha256": hashlib.sha256(boards.encode()).hexdigest()}


def load_ladder(model: HauntedModel) -> Ladder:
    """The ladder of ``model`` as its files say now (plays nothing).

    Raises:
        ProjectError: the project has no folder, or the index cannot be read.
    """
    if model.folder is None:
        raise ProjectError("the project has no folder yet: save it first")
    settings = ladder_of(model.body)
    folder = ladder_folder(model.folder)
    versions, files = versions_of(model)
    matches = schedule(versions, model.config().maps, settings.games_per_pair, settings.seed)
    document = read_ladder_index(folder) or {}
    results = dict(document.get("matches", {}))
    outcomes = {key: Outcome(e["winner"], e["home_rounds"], e["away_rounds"])
                for key, e in results.items()}
    rows = standings(versions, matches, outcomes)
    return Ladder(settings, folder, files, tuple(versions), tuple(matches), results,
                  tuple(rows), fingerprint(model, settings), document.get("plan"))


def index_document(ladder: Ladder, results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    outcomes = {key: Outcome(e["winner"], e["home_rounds"], e["away_rounds"])
                for key, e in results.items()}
    rows = standings(ladder.versions, ladder.matches, outcomes)
    return {"format": FORMAT, "version": 1, "plan": ladder.fingerprint, "matches": results,
            "standings": [standing_json(row) for row in rows]}


def standing_json(row: Row) -> dict[str, Any]:
    last = row.last_submission
    return {"rank": row.rank, "team": row.team, "elo": round(row.elo, 1), "played": row.played,
            "wins": row.wins, "losses": row.losses, "rounds_won": row.rounds_won,
            "rounds_lost": row.rounds_lost,
            "last_submission": last.isoformat(timespec="seconds").replace("+00:00", "Z")
            if last else None}


def result_entry(match: LadderMatch, result: MatchResult, replay: Path) -> dict[str, Any]:
    """The match as ``index.json`` lists it."""
    return {"home": match.home.team, "away": match.away.team,
            "home_sha256": match.home.sha256, "away_sha256": match.away.sha256,
            "game": match.game, "map": match.map_name, "seed": match.seed,
            "winner": "home" if result.winner == "A" else "away",
            "home_rounds": result.wins["A"], "away_rounds": result.wins["B"],
            "ties": result.ties, "replay": replay.name}


# ------------------------------------------------------------------------------- playing


def match_config(config: MatchConfig, match: LadderMatch) -> MatchConfig:
    """The project's settings with the rotation starting on the match's map."""
    rotation = list(config.maps)
    start = (match.number - 1) % len(rotation)
    return replace(config, maps=tuple(rotation[start:] + rotation[:start]))


def sandboxed(model: HauntedModel) -> MakeEntrant:
    """Submissions as tournaments play them: their frozen source, in a sandboxed worker."""
    from studio.storage.haunted.kind import TeamEntry  # noqa: PLC0415

    required = requires_confinement(model.body)
    registry = {t.name: t for t in model.teams()}

    def make(sub: Submission, config: MatchConfig) -> Entrant:
        frozen_source(sub)  # changed since it was handed in: refuse, do not play it
        team = registry.get(sub.team) or TeamEntry(sub.team, "python", "")
        runtime = "js" if sub.path.suffix == ".js" else "python"
        entry = replace(team, runtime=runtime, source=sub.relative(model.folder))
        return resolve_entrant(sub.team, config, [entry], model.folder,
                               require_confinement=required)

    return make


@dataclass
class CatchUp:
    """What a catch-up did."""

    played: list[str] = field(default_factory=list)
    """Keys of the matches it played."""
    mended: list[str] = field(default_factory=list)
    """Keys of matches whose replay was saved but not entered (a run killed in between)."""
    pending: int = 0
    """Matches still missing when it stopped."""


def catch_up(model: HauntedModel, *, make_entrant: MakeEntrant | None = None,
             cancel: threading.Event | None = None,
             on_match: OnMatch | None = None,
             limit: int | None = None, live_feed: bool = True) -> CatchUp:
    """Play every scheduled match that has no result yet, one at a time under the lock.

    Args:
        make_entrant: how a submission plays (default: :func:`sandboxed`).
        cancel: set it to stop at the next turn; the match being played is not saved.
        on_match: called with each match as it starts (entry None) and once its result is
            saved (its ``index.json`` entry).
        limit: play at most this many matches (None: all).
        live_feed: write ``live.jsonl`` so spectators can follow.

    Raises:
        LadderCancelled: ``cancel`` was set.
        ProjectError: the settings changed since the saved results (reset the ladder), an AI
            cannot play, or a file cannot be written.
    """
    if model.folder is None:
        raise ProjectError("the project has no folder yet: save it first")
    make = make_entrant or sandboxed(model)
    report = CatchUp()
    feed: FeedWriter | None = None
    try:
        while limit is None or len(report.played) < limit:
            with ladder_lock(ladder_folder(model.folder), cancel):
                ladder = load_ladder(model)
                if ladder.stale:
                    raise ProjectError("the match settings, maps or ladder settings changed "
                                       "since the ladder's matches were played",
                                       file=ladder.folder / INDEX,
                                       hint="reset the ladder to play them again")
                results = mended_results(ladder, report)
                missing = [m for m in ladder.matches if m.key not in results]
                report.pending = len(missing)
                if not missing:
                    if report.mended or ladder.results != results or ladder.recorded is None:
                        write_index(ladder.folder, index_document(ladder, results))
                    break
                if feed is None and live_feed:
                    # Matches only, no tournament header: a ladder has no bracket to show,
                    # and its standings are the Ladder screen's.
                    feed = FeedWriter(feed_file(ladder.folder), "ladder")
                match = missing[0]
                results[match.key] = _play(model, ladder, match, make, cancel, feed, on_match)
                write_index(ladder.folder, index_document(ladder, results))
                if on_match is not None:
                    on_match(match, results[match.key])
                report.played.append(match.key)
                report.pending -= 1
    except LadderCancelled:
        if feed is not None:
            feed.stopped("cancelled")
        raise
    finally:
        if feed is not None:
            feed.close()
    return report


def mended_results(ladder: Ladder, report: CatchUp) -> dict[str, dict[str, Any]]:
    """The results, with the matches whose replay was saved but never entered added."""
    results = dict(ladder.results)
    for match in ladder.matches:
        path = replay_path(ladder.folder, match.key)
        if match.key in results or not path.exists():
            continue
        try:
            result = MatchResult.from_replay(load_replay(path))
        except (ProjectError, KeyError, TypeError, ValueError):
            path.unlink(missing_ok=True)  # not a whole replay: play the match again
            continue
        results[match.key] = result_entry(match, result, path)
        report.mended.append(match.key)
    return results


def _play(model: HauntedModel, ladder: Ladder, match: LadderMatch, make: MakeEntrant,
          cancel: threading.Event | None, feed: FeedWriter | None,
          on_match: OnMatch | None) -> dict[str, Any]:
    config = match_config(model.config(), match)
    home = make(ladder.submissions[match.home.sha256], config)
    away = make(ladder.submissions[match.away.sha256], config)
    maps = model.maps()
    hooks: dict[str, Any] = {}
    if feed is not None:
        feed.match_started({"A": home, "B": away}, config, match.seed, maps, match.number,
                           f"ladder {match.home.team} vs {match.away.team}")
        hooks = {"on_round_start": feed.round_started, "on_round_end": feed.round_ended}

    def observer(*turn: Any) -> None:
        if feed is not None:
            feed.turn_played(*turn)
        if cancel is not None and cancel.is_set():
            raise MatchAborted("cancelled")

    if on_match is not None:
        on_match(match, None)
    result = run_match(home, away, maps, config, match.seed, observer=observer, **hooks)
    if result.winner is None:  # aborted: nothing saved, played again from its start next time
        raise LadderCancelled()
    path = replay_path(ladder.folder, match.key)
    save_replay(replays.build(result, __version__), path)
    entry = result_entry(match, result, path)
    if feed is not None:
        feed.match_ended(result, entry)
    return entry
