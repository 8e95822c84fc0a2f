"""Sub-commands of ``studio``: each module here registers its commands with :func:`command`.

What every kind shares sits here (``run``, ``serve``); each kind's commands live in its own
sub-package (``tilecode/``, ``btree/``, ``haunted/``). Every module below this package is
imported when the parser is built, so a kind adds its commands by adding a module, without
touching ``cli.py``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Callable
from pathlib import Path

from studio.storage import ProjectError
from studio.storage.folder import free_path

Command = Callable[[argparse.Namespace], int]
Arguments = Callable[[argparse.ArgumentParser], None]

COMMANDS: dict[str, tuple[str, Arguments, Command]] = {}
"""name -> (one-line help, add-arguments, run)."""


def command(name: str, help: str, arguments: Arguments) -> Callable[[Command], Command]:
    """Register ``run`` as ``studio NAME``; ``run`` returns the exit code."""

    def register(run: Command) -> Command:
        COMMANDS[name] = (help, arguments, run)
        return run

    return register


def output_target(output: str | None, project_name: str, force: bool) -> Path:
    """Where a command writes a new project: ``output`` (refusing to overwrite without
    ``force``), else a free file named after the project in the current folder."""
    if output is None:
        return free_path(Path.cwd(), project_name)
    target = Path(output)
    if target.exists() and not force:
        raise ProjectError("the file exists", file=target, hint="choose another name or add --force")
    return target


def load_all() -> dict[str, tuple[str, Arguments, Command]]:
    """Import every command module of this package and its kinds' sub-packages; returns the
    registry."""
    for info in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
        importlib.import_module(info.name)
    return COMMANDS
