"""The built-in Haunted Tiles AIs (spec haunted.md §9): one standalone file each.

Every file is a complete, standard-library-only AI defining ``main(game_state, side)``, exactly
what a student would write; the AI runners execute them by path in worker processes, and
:class:`studio.engines.haunted.inprocess.InProcessPlayer` runs them in the studio process.
They also serve as documented examples.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent

NAMES = (
    "idle", "north", "south", "east", "west", "wander", "cautious", "greedy", "hunter", "lookahead",
    "montecarlo",
)
"""Built-in names in the order the UI lists them."""

SIMULATING = frozenset({"montecarlo"})
"""Built-ins that run the studio's batch simulator: not standalone files, and they need its
compiled kernel before a match (``sessions.warmup``)."""

BUILTINS: dict[str, Path] = {name: _HERE / f"{name}.py" for name in NAMES}
"""Built-in name -> path of its source file."""

PREFIX = "builtin:"
"""How the CLI and team entries name a built-in: ``builtin:greedy``."""


def builtin_name(source: str) -> str | None:
    """The built-in name ``source`` refers to (``builtin:NAME``), or None."""
    if source.startswith(PREFIX) and source[len(PREFIX):] in BUILTINS:
        return source[len(PREFIX):]
    return None
