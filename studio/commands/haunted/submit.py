"""``studio submit`` and ``studio submissions``: hand in a Haunted Tiles AI by the deadline, and
list (or, for the teacher, reopen) a project's submissions.

    studio submit cup.toml --team "Greedy Ghosts" ais/greedy.py
    studio submissions cup.toml [--deadline 2026-11-13T17:00:00-07:00 | --no-deadline] [--json]

Both go through :mod:`studio.sessions.haunted.submissions`, as the AI editor does.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from studio.commands import command
from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.sessions.haunted.ladder_queue import queue_catch_up
from studio.sessions.haunted.submissions import (
    shown_deadline, submit, submitting_team, team_submissions, utc_now, with_deadline,
)
from studio.storage import ProjectError, load_project, save_project
from studio.storage.haunted.project import HauntedModel, project_model
from studio.storage.haunted.submissions import (
    deadline_of, is_open, parse_deadline,
)
from studio.storage.reading import read_bounded


def _model(path: str) -> tuple[object, HauntedModel]:
    project = load_project(path)
    if project.kind != "haunted":
        raise ProjectError("not a Haunted Tiles project", file=project.path)
    return project, project_model(project)


def _submit_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="the competition's project (.toml)")
    parser.add_argument("file", metavar="FILE", help="the AI to hand in (.py or .js)")
    parser.add_argument("--team", help="the team it is for (default: the team whose AI file "
                                       "FILE is)")


@command("submit", _submit_arguments)
def _submit(args: argparse.Namespace) -> int:
    _, model = _model(args.project)
    path = Path(args.file)
    if args.team is not None:
        team = next((t for t in model.teams() if t.name == args.team), None)
        if team is None:
            raise ProjectError(f"no team named {args.team!r}", file=Path(args.project),
                               hint="teams: " + ", ".join(t.name for t in model.teams()))
    else:
        team = submitting_team(model, path)
        if team is None:
            raise ProjectError("no team of the project plays this file", file=path,
                               hint="say which team with --team NAME")
    data = read_bounded(path, MAX_AI_SOURCE_BYTES, "an AI file")
    outcome = submit(model, team, data, path.suffix, origin=str(args.file))
    if not outcome.ok:
        raise ProjectError(outcome.message, file=path)
    print(outcome.message)
    queued = queue_catch_up(model, Path(args.project))
    if queued:
        print(queued, file=sys.stderr)
    return 0


def _submissions_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="the competition's project (.toml)")
    change = parser.add_mutually_exclusive_group()
    change.add_argument("--deadline", metavar="TIME",
                        help="set the deadline: ISO 8601 with its offset, e.g. "
                             "2026-11-13T17:00:00-07:00 (saves the project, keeping a .bak)")
    change.add_argument("--no-deadline", action="store_true",
                        help="remove the deadline: submissions are open again")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")


@command("submissions", _submissions_arguments)
def _submissions(args: argparse.Namespace) -> int:
    project, model = _model(args.project)
    if args.deadline is not None or args.no_deadline:
        try:
            deadline = None if args.no_deadline else parse_deadline(args.deadline)
        except ProjectError as exc:
            raise ProjectError(f"--deadline: {exc.message}", hint=exc.hint) from None
        project.body = with_deadline(model, deadline).body
        save_project(project, check_stale=True)
        model = project_model(project)
        said = f"deadline {shown_deadline(deadline)}" if deadline else "no deadline: open"
        print(f"{args.project}: {said} (saved; the previous version is kept as .bak)",
              file=sys.stderr)
    deadline = deadline_of(model.body)
    listed = team_submissions(model)
    if args.json:
        print(json.dumps(_json(model, deadline, listed), indent=2, ensure_ascii=False))
        return 0
    now = utc_now()
    state = "open" if is_open(deadline, now) else "closed"
    print(f"deadline: {shown_deadline(deadline)} ({state})" if deadline else
          "deadline: none (open)")
    width = max([len(entry.team.name) for entry in listed] + [4])
    for entry in listed:
        playing = entry.playing
        if playing is None:
            line = "no submission" + (" before the deadline" if entry.submissions else "")
        else:
            line = f"{playing.shown_time()}  {playing.short_hash}  {len(entry.submissions)} in all"
        if entry.late:
            line += f", {entry.late} after the deadline (not played)"
        print(f"{entry.team.name:<{width}}  {line}")
    if not listed:
        print("no team plays its own AI")
    return 0


def _json(model: HauntedModel, deadline, listed) -> dict:
    folder = model.folder or Path.cwd()

    def one(submission) -> dict:
        return {"time": submission.time.isoformat().replace("+00:00", "Z"),
                "sha256": submission.sha256, "file": submission.relative(folder),
                "late": not is_open(deadline, submission.time)}

    return {"deadline": deadline.isoformat() if deadline else None,
            "open": is_open(deadline, utc_now()),
            "teams": [{"name": entry.team.name,
                       "playing": one(entry.playing) if entry.playing else None,
                       "submissions": [one(s) for s in entry.submissions]}
                      for entry in listed]}
