"""Handing in a Haunted Tiles AI by the deadline, and which version plays: the use cases the AI
editor's submit, ``studio submit`` / ``studio submissions``, the teams screen and tournaments share.

A submission is checked before it is stored, as the AI editor's test does: the syntax (compiled
or parsed, nothing run), then a load in a sandboxed worker with one move on the project's first
map. Only code that passes both is stored (:mod:`studio.storage.haunted.submissions`). The
check runs on the exact bytes that are stored, from a private copy, so an edit of the draft in
the meantime changes nothing.

A project is in **submissions mode** once it has a deadline or any team has submitted: its
tournaments then play each team's latest submission made before the deadline, never a draft,
and skip a team without one, saying why.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.sessions.haunted.checks import LoadTest, SyntaxProblem, check_syntax, first_map, \
    run_load_test
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import TeamEntry, source_path
from studio.storage.haunted.project import HauntedModel
from studio.storage.haunted.submissions import (
    SUFFIXES, Submission, deadline_of, frozen_source, is_open, latest_before, list_submissions,
    store_submission, submissions_folder, submissions_table, team_part,
)

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def shown_deadline(deadline: datetime) -> str:
    """The deadline as written, and in UTC when it was written in another zone."""
    text = deadline.strftime("%Y-%m-%d %H:%M") + " " + (deadline.strftime("%z") or "UTC")
    if deadline.utcoffset():
        text += " (" + deadline.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC") + ")"
    return text.replace("+0000", "UTC")


def with_deadline(model: HauntedModel, deadline: datetime | None) -> HauntedModel:
    """The project with its deadline set, moved, or removed (None: submissions open)."""
    return model.with_table("submissions", submissions_table(deadline) or [])


def submitting_team(model: HauntedModel, path: Path | None = None,
                    team_index: int | None = None) -> TeamEntry | None:
    """The team a submission of this AI is for: the registry entry the editor was opened on, or
    else the first team whose source is ``path``. None for a built-in or a file no team runs.

    The one place that decides who submits: a roster narrows it to the person's own team.
    """
    teams = model.teams()
    if team_index is not None:
        tables = model.team_tables
        name = tables[team_index].get("name") if 0 <= team_index < len(tables) else None
        team = next((t for t in teams if t.name == name), None)
        return team if team is not None and team.runtime != "builtin" else None
    if path is None or model.folder is None:
        return None
    real = Path(path).resolve()
    for team in teams:
        if team.runtime == "builtin":
            continue
        try:
            if source_path(model.folder, team.source) == real:
                return team
        except ProjectError:
            continue
    return None


@dataclass(frozen=True)
class SubmitOutcome:
    """What a submit did: stored (``submission``) or refused, and why."""

    submission: Submission | None = None
    refusal: str = ""
    """Why nothing was stored: ``closed``, ``too_big``, ``syntax``, ``load`` or ``error``."""
    message: str = ""
    """One line for a toast or stderr."""
    problem: SyntaxProblem | None = None
    load: LoadTest | None = None

    @property
    def ok(self) -> bool:
        return self.submission is not None


def _refused(refusal: str, message: str, **more) -> SubmitOutcome:
    return SubmitOutcome(refusal=refusal, message=message + "; nothing was stored", **more)


def submit(model: HauntedModel, team: TeamEntry, data: bytes, suffix: str, *,
           clock: Clock = utc_now, origin: str = "") -> SubmitOutcome:
    """Check ``data`` (an AI's source) and store it as ``team``'s newest submission.

    Blocks for up to the project's load and move limits (a worker loads the AI): call it from a
    thread in a screen.

    Args:
        model: the project (its deadline, maps, limits and folder).
        team: the team that submits (see :func:`submitting_team`).
        data: the source as it is handed in.
        suffix: ``.py`` or ``.js``.
        clock: now, time-zone aware (tests pass a fixed one).
        origin: the file it came from, kept in the record for people.
    """
    if model.folder is None:
        return _refused("error", "the project has no folder yet: save it first")
    if team.runtime == "builtin":
        return _refused("error", f"{team.name!r} plays a built-in AI: there is nothing to submit")
    now = clock()
    try:
        deadline = deadline_of(model.body)
    except ProjectError as exc:
        return _refused("error", f"the project's deadline is not valid ({exc.message})")
    if not is_open(deadline, now):
        return _refused("closed", f"submissions closed at {shown_deadline(deadline)}")
    suffix = suffix.lower()
    if suffix not in SUFFIXES:
        return _refused("error", f"a submission is a .py or .js file, not {suffix or 'no suffix'!r}")
    if len(data) > MAX_AI_SOURCE_BYTES:
        return _refused("too_big", f"the AI is {len(data):,} bytes, over the limit of "
                        f"{MAX_AI_SOURCE_BYTES:,} for an AI file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _refused("syntax", f"the file is not UTF-8 text (byte {exc.start})")
    try:
        problem = check_syntax(text, suffix == ".js", f"{team_part(team.name)}{suffix}")
    except RuntimeError as exc:
        return _refused("error", str(exc))
    if problem is not None:
        where = problem.where()
        return _refused("syntax", f"{where + ': ' if where else ''}{problem.message}",
                        problem=problem)
    board = first_map(model)
    if board is None:
        return _refused("error", "the project has no valid map to test the AI on")
    load = _load_copy(data, suffix, team, model)
    if not load.ok:
        return _refused("load", "it did not pass the load test: " + load.details()[0], load=load)
    try:
        stored = store_submission(model.folder, team.name, data, suffix, now, origin)
    except ProjectError as exc:
        return _refused("error", str(exc), load=load)
    return SubmitOutcome(stored, message=f"Submitted for {team.name} at {stored.shown_time()} "
                         f"· {stored.short_hash}", load=load)


def _load_copy(data: bytes, suffix: str, team: TeamEntry, model: HauntedModel) -> LoadTest:
    """The load test of exactly ``data``, run from a private copy (the worker reads a file)."""
    with tempfile.TemporaryDirectory(prefix="studio-submit-") as folder:
        copy = Path(folder) / f"{team_part(team.name)}{suffix}"
        fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(copy, 0o644)  # the worker drops privileges: it must still read the copy
        board = first_map(model)
        assert board is not None
        return run_load_test(str(copy), model.config(), board)


# ---------------------------------------------------------------------------- who has handed in


@dataclass(frozen=True)
class TeamSubmissions:
    """A team's submissions as a list shows them."""

    team: TeamEntry
    submissions: tuple[Submission, ...]
    """Newest first (bounded by the storage's listing)."""
    deadline: datetime | None

    @property
    def playing(self) -> Submission | None:
        """The submission tournaments play: the newest before the deadline."""
        return latest_before(list(self.submissions), self.deadline)

    @property
    def late(self) -> int:
        """Submissions made after the deadline (stored while it was open or unset)."""
        return sum(1 for s in self.submissions if not is_open(self.deadline, s.time))


def team_submissions(model: HauntedModel) -> list[TeamSubmissions]:
    """Every team that plays its own AI, in registration order, with its submissions.

    Raises:
        ProjectError: the deadline is invalid, or the submissions folder leads out.
    """
    deadline = deadline_of(model.body)
    if model.folder is None:
        return []
    return [TeamSubmissions(team, tuple(list_submissions(model.folder, team.name)), deadline)
            for team in model.teams() if team.runtime != "builtin"]


def has_submissions(project_folder: Path) -> bool:
    """Whether any team has submitted (a sidecar in some team's folder)."""
    folder = submissions_folder(project_folder)
    if not folder.is_dir():
        return False
    with os.scandir(folder) as teams:
        for count, entry in enumerate(teams):
            if count >= 1000:
                break
            if entry.is_dir(follow_symlinks=False) and _holds_sidecar(Path(entry.path)):
                return True
    return False


def _holds_sidecar(folder: Path) -> bool:
    with os.scandir(folder) as files:
        for count, entry in enumerate(files):
            if count >= 5000:
                return False
            if entry.name.endswith(".json"):
                return True
    return False


def submissions_mode(project_folder: Path | None, deadline: datetime | None) -> bool:
    """Whether tournaments play submissions: a deadline is set, or a team has submitted."""
    return deadline is not None or (project_folder is not None and has_submissions(project_folder))


@dataclass(frozen=True)
class Playing:
    """Who plays a tournament in submissions mode."""

    teams: tuple[TeamEntry, ...]
    """The registry with each submitting team's source pointed at its submission."""
    hashes: tuple[tuple[str, str], ...]
    """(team, SHA-256 of the submission it plays)."""
    skipped: tuple[tuple[str, str], ...]
    """(team, why it does not play)."""


def playing_teams(teams: Sequence[TeamEntry], entrants: Sequence[str], folder: Path,
                  deadline: datetime | None) -> Playing:
    """Resolve the ``entrants`` that are registry teams with their own AI to the latest
    submission before ``deadline``; built-ins play as they are; a team without a submission in
    time is skipped with the reason."""
    out, hashes, skipped = [], [], []
    entered = set(entrants)
    for team in teams:
        if team.runtime == "builtin" or team.name not in entered:
            out.append(team)
            continue
        try:
            found = list_submissions(folder, team.name)
            chosen = latest_before(found, deadline)
            if chosen is not None:
                frozen_source(chosen)  # changed since it was handed in: refuse, do not play it
        except ProjectError as exc:
            skipped.append((team.name, exc.message))
            continue
        if chosen is None:
            late = " (only after the deadline)" if found else ""
            skipped.append((team.name, f"no submission before the deadline{late}"
                            if deadline is not None else "no submission"))
            continue
        runtime = "js" if chosen.path.suffix == ".js" else "python"
        out.append(replace(team, runtime=runtime, source=chosen.relative(folder)))
        hashes.append((team.name, chosen.sha256))
    return Playing(tuple(out), tuple(hashes), tuple(skipped))
