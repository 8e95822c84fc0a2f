"""Sub-commands of ``studio``: :data:`INDEX` names each one, its help and the module that
registers it with :func:`command`.

What every kind shares sits here (``project``, ``run``, ``serve``, ``importing``); each kind's
commands live in its own sub-package (``tilecode/``, ``btree/``, ``haunted/``). ``studio --help``
and ``studio FOLDER`` read only the index; a command's module is imported when that command is
parsed or run, so starting the studio pays for no command's engine. A new command is a module
that registers it with ``@command`` and a line in :data:`INDEX` (``cli.py`` does not change);
``tests/test_cli.py`` checks that the two agree.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from pathlib import Path

Command = Callable[[argparse.Namespace], int]
Arguments = Callable[[argparse.ArgumentParser], None]

INDEX: dict[str, tuple[str, str]] = {
    # name -> (one-line help, the module that registers it); in the order `studio --help` lists
    "new": ("create a new project file", "studio.commands.project"),
    "validate": ("check a project file; exit 1 with the errors if it is not valid",
                 "studio.commands.project"),
    "inspect": ("print a project's kind, name and a summary of its contents",
                "studio.commands.project"),
    "export": ("export a btree project as trrbt JSON", "studio.commands.btree.formats"),
    "expand": ("print the compiled tree of a game as {name, tree} JSON",
               "studio.commands.btree.formats"),
    "trace": ("write a seeded run in the corpus trace format (JSON Lines)",
              "studio.commands.btree.play"),
    "solve": ("search for a winning choice sequence (shortest by default)",
              "studio.commands.btree.solve"),
    "balance": ("the computer plays a game against itself: each seat's win/draw/loss rate with "
                "95 percent intervals, and the mean game length", "studio.commands.btree.balance"),
    "new-ai": ("write a commented starter Haunted Tiles AI (Python, or JavaScript with --js)",
               "studio.commands.haunted.ai"),
    "map-check": ("measure a Haunted Tiles map's home/away balance by simulation",
                  "studio.commands.haunted.mapcheck"),
    "match": ("play a Haunted Tiles match between two AIs", "studio.commands.haunted.match"),
    "tournament": ("run a Haunted Tiles tournament (single elimination or round robin)",
                   "studio.commands.haunted.match"),
    "submit": ("hand in a team's Haunted Tiles AI (checked, then stored with its time and hash)",
               "studio.commands.haunted.submit"),
    "submissions": ("list a Haunted Tiles project's submissions; --deadline / --no-deadline "
                    "close or reopen them", "studio.commands.haunted.submit"),
    "ladder": ("play a Haunted Tiles project's ladder (every submission against every other "
               "team's latest), or print its standings", "studio.commands.haunted.ladder"),
    "workers": ("list the workers of a Dask cluster for studio tournament --cluster: their "
                "studio version, AI confinement and matches in hand",
                "studio.commands.haunted.cluster"),
    "replay": ("play back (or --verify) a Haunted Tiles replay", "studio.commands.haunted.replay"),
    "import": ("import a trrbt YAML/JSON game as one self-contained btree project, original "
               "TileCode games (settings JSON or games.ts), or Haunted Tiles maps "
               "(maps.json --into PROJECT)", "studio.commands.importing"),
    "run": ("play a project in the plain terminal (headless)", "studio.commands.run"),
    "serve": ("share the studio: every SSH login gets its own studio on FOLDER",
              "studio.commands.serve"),
    "roster": ("list or change the roster of studio serve --roster: people, roles, teams, keys",
               "studio.commands.roster"),
}

COMMANDS: dict[str, tuple[Arguments, Command]] = {}
"""The commands whose modules are loaded: name -> (add-arguments, run)."""


def command(name: str, arguments: Arguments) -> Callable[[Command], Command]:
    """Register ``run`` as ``studio NAME`` (named in :data:`INDEX`, in this module); ``run``
    returns the exit code."""

    def register(run: Command) -> Command:
        if INDEX.get(name, ("", ""))[1] != run.__module__:
            raise LookupError(f"studio {name}: not in studio.commands.INDEX under {run.__module__}")
        COMMANDS[name] = (arguments, run)
        return run

    return register


def load(name: str) -> tuple[Arguments, Command]:
    """The add-arguments and run of the command ``name`` (of :data:`INDEX`), its module loaded."""
    importlib.import_module(INDEX[name][1])
    return COMMANDS[name]


def output_target(output: str | None, project_name: str, force: bool) -> Path:
    """Where a command writes a new project: ``output``, else a file named after the project in
    the current folder; either refused when it exists, unless ``force``.

    (Without ``output`` it used to take ``NAME-2.toml``: a second project of the same name beside
    the first, which the home screen cannot tell apart, and ``--force`` did nothing.)
    """
    from studio.storage import ProjectError, slug
    from studio.storage.folder import SUFFIX

    target = Path(output) if output is not None else Path(f"{slug(project_name)}{SUFFIX}")
    if target.exists() and not force:
        raise ProjectError("the file exists", file=target,
                           hint="choose another name (or -o FILE), or add --force to overwrite it")
    return target


def load_all() -> dict[str, tuple[Arguments, Command]]:
    """Import every command's module; returns the loaded commands (all of :data:`INDEX`)."""
    for name in INDEX:
        load(name)
    return COMMANDS
