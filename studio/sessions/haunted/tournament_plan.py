"""The plan of a Haunted Tiles tournament (haunted.md §11): who plays, in which format, with
which settings, and what decides its results (the fingerprint a resumed run must match).

Building a plan reads the project and its submissions but plays nothing;
:mod:`studio.sessions.haunted.tournament` runs it. Apart so that what only needs the plan (the
ladder, a screen listing a tournament) does not carry the runner.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from studio.engines.haunted.board import Map
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.tournament import (
    SINGLE,
    Played,
    TournamentResult,
    scheduled_matches,
    seeding_order,
)
from studio.sessions.haunted.replays import tournament_folder
from studio.sessions.haunted.submissions import playing_teams, submissions_mode
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import TeamEntry

FORMAT = "studio-haunted-tournament"


def replay_file(folder: Path, number: int) -> Path:
    return folder / f"match-{number:03d}.json.gz"


@dataclass(frozen=True)
class TournamentPlan:
    """A tournament to run: who, in which format, with which settings, and where it is saved."""

    mode: str
    entrants: tuple[str, ...]
    """AI names in registration order: team names of ``teams``, ``builtin:NAME`` or files."""
    config: MatchConfig
    maps: dict[str, Map]
    seed: int
    name: str = ""
    teams: tuple[TeamEntry, ...] = ()
    folder: Path | None = None
    """The project's folder (team sources are relative to it)."""
    school_sizes: tuple[int, ...] | None = None
    """Per entrant, for seeding by school size; None seeds by registration order."""
    third_place: bool = False
    replays: Path | None = None
    """Where the matches and ``index.json`` are saved (None: nowhere)."""
    in_process_builtins: bool = False
    require_confinement: bool = False
    """Checked at set-up, and by each worker again before it runs an AI."""
    submissions: tuple[tuple[str, str], ...] = ()
    """In submissions mode: (team, SHA-256 of the submission it plays)."""
    skipped: tuple[tuple[str, str], ...] = ()
    """In submissions mode: (team, why it does not play), left out of ``entrants``."""
    pace: float = 0.0
    """Seconds at least between two turns, so that a class can follow it live (0: full speed)."""

    @property
    def seeding(self) -> list[int]:
        return seeding_order(len(self.entrants), self.school_sizes)

    @property
    def scheduled(self) -> int:
        return scheduled_matches(self.mode, len(self.entrants), self.third_place)

    def fingerprint(self) -> dict[str, Any]:
        """What decides the results: saved results of another fingerprint are another run's."""
        boards = json.dumps({n: self.maps[n].to_json() for n in self.config.maps}, sort_keys=True)
        played = {"submissions": dict(self.submissions)} if self.submissions else {}
        return {**played, "mode": self.mode, "entrants": list(self.entrants),
                "seeds": [self.entrants[i] for i in self.seeding],
                "third_place": self.third_place and self.mode == SINGLE, "seed": self.seed,
                "config": self.config.to_json(),
                "maps_sha256": hashlib.sha256(boards.encode()).hexdigest()}


def project_plan(table: dict[str, Any], teams: Sequence[TeamEntry], maps: dict[str, Map],
                 config: MatchConfig, folder: Path, *, in_process: bool = False,
                 required: bool = False) -> TournamentPlan:
    """The plan of a project's ``[[tournament]]`` (a table checked by ``tournaments_of``);
    ``required``: the project requires confinement (the table may too). In submissions mode
    the teams play their submissions (:func:`with_submissions`).

    Raises:
        ProjectError: in submissions mode, fewer than two entrants have a submission in time.
    """
    sizes = None
    if table["seeding"] == "school-size":
        by_name = {t.name: t.school_size for t in teams}
        sizes = tuple(by_name[name] for name in table["entrants"])
    config = replace(config, swap_sides=table["swap_sides"])
    plan = TournamentPlan(table["mode"], tuple(table["entrants"]), config, maps, table["seed"],
                          table["name"], tuple(teams), folder, sizes, table["third_place"],
                          tournament_folder(folder, table["name"]), in_process,
                          required or table["require_confinement"], pace=table.get("pace", 0.0))
    return with_submissions(plan, table.get("submission_deadline"))


def with_submissions(plan: TournamentPlan, deadline: datetime | None) -> TournamentPlan:
    """``plan`` with its registry teams playing their latest submission before ``deadline``,
    when the project is in submissions mode; those without one are left out, with the reason
    in ``skipped``. Other entrants (built-ins, files named on the command line) are untouched.

    Raises:
        ProjectError: fewer than two entrants are left.
    """
    if plan.folder is None or not submissions_mode(plan.folder, deadline):
        return plan
    playing = playing_teams(plan.teams, plan.entrants, plan.folder, deadline)
    out = {name for name, _ in playing.skipped}
    keep = [i for i, name in enumerate(plan.entrants) if name not in out]
    if len(keep) < 2:
        why = "; ".join(f"{name}: {reason}" for name, reason in playing.skipped)
        raise ProjectError(f"tournament {plan.name!r} needs two entrants with a submission "
                           f"before the deadline, and has {len(keep)} ({why})",
                           hint="teams submit with f7 in the AI editor or studio submit; the "
                                "teacher can move the deadline")
    sizes = plan.school_sizes
    return replace(plan, entrants=tuple(plan.entrants[i] for i in keep), teams=playing.teams,
                   school_sizes=tuple(sizes[i] for i in keep) if sizes is not None else None,
                   submissions=playing.hashes, skipped=playing.skipped)


def index_document(plan: TournamentPlan, matches: Sequence[Played],
                   result: TournamentResult | None = None) -> dict[str, Any]:
    """``index.json``: the plan, the matches played so far with their replay files, and once
    the run is complete (``result``) its byes, ratings and standings."""
    names = list(plan.entrants)
    entries = []
    for played in matches:
        entry = {"number": played.number, **played.to_json(names)}
        if plan.replays is not None:
            entry["replay"] = replay_file(plan.replays, played.number).name
        entries.append(entry)
    document: dict[str, Any] = {
        "format": FORMAT, "version": 1, "name": plan.name, "mode": plan.mode, "entrants": names,
        "seed": plan.seed, "plan": plan.fingerprint(), "scheduled": plan.scheduled,
        "complete": result is not None, "matches": entries, "byes": [], "ratings": {},
        "standings": [],
    }
    if plan.skipped:
        document["skipped"] = [{"name": name, "reason": reason} for name, reason in plan.skipped]
    if result is not None:
        final = result.to_json()
        document.update(byes=final["byes"], ratings=final["ratings"], standings=final["standings"])
        if plan.replays is not None:
            document["replays"] = [str(replay_file(plan.replays, m.number)) for m in matches]
    return document


def same_plan(document: dict[str, Any] | None, plan: TournamentPlan) -> bool:
    """Whether saved results (an ``index.json``) are of this plan, so a run may resume them."""
    return document is not None and document.get("plan") == plan.fingerprint()
