"""``studio run``: play a project headless; each kind plugs in its own runner."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from studio.commands import command
from studio.commands.tilecode.run import add_arguments as tilecode_arguments
from studio.storage import KINDS, ProjectError, load_project

Runner = Callable[[argparse.Namespace], int]


def _runners() -> dict[str, Runner]:
    # Imported here so that `studio --help` does not load every engine.
    from studio.commands.btree.play import run_btree
    from studio.commands.tilecode.run import run_tilecode

    return {"btree": run_btree, "tilecode": run_tilecode}


def project_kind(path: str) -> str:
    """The kind of a project file; trrbt game files (.yaml/.yml/.json) count as btree."""
    if Path(path).suffix.lower() in (".yaml", ".yml", ".json"):
        return "btree"
    return load_project(path).kind


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="a project file (or a trrbt game file)")
    parser.add_argument("--seed", type=int, default=None, help="run seed (default: the project's)")
    btree = parser.add_argument_group("behaviour-tree games")
    btree.add_argument(
        "--player", action="append", metavar="PID=SEAT",
        help="who chooses for player PID: human (default), random, first, or computer "
             "(a search, 1 s a move; computer:0.5 for half a second); repeatable",
    )
    btree.add_argument("--max-choices", type=int, default=None, metavar="N",
                       help="stop after N choices")
    btree.add_argument("--missing-links", choices=["error", "empty"], default=None,
                       help="missing link targets: an error or expand to nothing")
    tilecode_arguments(parser)


@command("run", _arguments)
def _run(args: argparse.Namespace) -> int:
    kind = project_kind(args.project)
    runner = _runners().get(kind)
    if runner is None:
        raise ProjectError(
            f"{KINDS[kind].title} projects cannot be run yet", file=Path(args.project),
            hint="this kind's engine is not built yet",
        )
    return runner(args)
