"""``studio new``, ``validate`` and ``inspect``: a project file of any kind, made, checked or
summarised."""

from __future__ import annotations

import argparse
import json

from studio.commands import command, output_target
from studio.storage import KINDS, check_project, load_project, new_project, save_project


def _new_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=list(KINDS), help="the kind of game")
    parser.add_argument("name", help="the project's name")
    parser.add_argument(
        "-o", "--output", metavar="FILE",
        help="file to write (default: a file named after the project in the current folder)",
    )
    parser.add_argument("--force", action="store_true",
                        help="overwrite the file if it exists (the old one is kept as .bak)")
    offered = ", ".join(f"{name} ({spec.title}: {what})" for spec in KINDS.values()
                        for name, what in spec.templates.items())
    parser.add_argument("--template", default="empty", metavar="NAME",
                        help=f"start from a template: empty (default) or {offered}")


@command("new", _new_arguments)
def _new(args: argparse.Namespace) -> int:
    project = new_project(args.kind, args.name, args.template)
    target = output_target(args.output, project.name, args.force)
    save_project(project, target)
    print(target)
    return 0


def _project_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="a project file (.toml)")


@command("validate", _project_argument)
def _validate(args: argparse.Namespace) -> int:
    project = load_project(args.project)
    warnings = check_project(project)
    for warning in warnings:
        print(f"{args.project}: warning: {warning}")
    note = f" (migrated from format {project.migrated_from})" if project.migrated_from else ""
    print(f"{args.project}: ok, {KINDS[project.kind].title} project {project.name!r}{note}")
    return 0


def _inspect_arguments(parser: argparse.ArgumentParser) -> None:
    _project_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


@command("inspect", _inspect_arguments)
def _inspect(args: argparse.Namespace) -> int:
    summary = load_project(args.project).summary()
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        width = max(len(key) for key in summary)
        for key, value in summary.items():
            print(f"{key:<{width}}  {value}")
    return 0
