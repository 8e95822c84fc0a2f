"""Sub-commands of ``studio``: each module here registers its commands with :func:`command`.

Every module in this package is imported when the parser is built, so an engine adds its
commands by adding a module, without touching ``cli.py``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Callable

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


def load_all() -> dict[str, tuple[str, Arguments, Command]]:
    """Import every command module of this package; returns the registry."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return COMMANDS
