"""``make_player``: turn a team's AI source (built-in name or file) into a :class:`Player`."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from studio.engines.haunted.ai.runner import WorkerPlayer
from studio.engines.haunted.builtin_ais import BUILTINS, PREFIX, SIMULATING
from studio.engines.haunted.players import Player

JS_INSTALL_HINT = ("JavaScript AIs need the optional extra: pip install 'tilegame-studio[js]' "
                   "(mini-racer; in a checkout: .venv/bin/pip install -e '.[js]')")


def js_available() -> bool:
    """Whether mini-racer is installed (JavaScript AIs can run)."""
    return importlib.util.find_spec("py_mini_racer") is not None


def builtin_readable(name: str) -> tuple[str, ...]:
    """What a built-in AI reads besides the standard library: its siblings (``montecarlo``
    falls back on ``lookahead.py``) and, for those that run the studio's simulator, the studio
    package and the environment's packages (numpy, numba). Our own code, never a project's."""
    here = BUILTINS[name].parent
    if name not in SIMULATING:
        return (str(here),)
    checkout = here.parents[3]  # builtin_ais -> haunted -> engines -> studio -> its parent
    return (str(here), str(checkout), sys.prefix)


def make_player(source: str, *, time_limit: float = 2.0, load_limit: float = 5.0,
                in_process_builtins: bool = False, require_confinement: bool = False) -> Player:
    """The player for ``source``.

    Args:
        source: ``builtin:NAME``, a ``.py`` file or a ``.js`` file.
        time_limit: seconds per move.
        load_limit: seconds to start and load the AI.
        in_process_builtins: run built-ins inside the studio process (trusted fast mode, §12).
        require_confinement: a worker that cannot confine itself fully runs no AI code.

    Raises:
        ValueError: unknown built-in, unknown file kind, or a file that does not exist.
        RuntimeError: a ``.js`` file while mini-racer is not installed.
    """
    if source.startswith(PREFIX):
        name = source[len(PREFIX):]
        if name not in BUILTINS:
            raise ValueError(f"no built-in AI named {name!r}; choose one of: "
                             + ", ".join(PREFIX + known for known in BUILTINS))
        if in_process_builtins:
            from studio.engines.haunted.inprocess import InProcessPlayer  # noqa: PLC0415
            return InProcessPlayer(name)
        return WorkerPlayer(BUILTINS[name], time_limit=time_limit, load_limit=load_limit,
                            name=source, readable=builtin_readable(name),
                            require_confinement=require_confinement)
    path = Path(source)
    suffix = path.suffix.lower()
    if suffix not in (".py", ".js"):
        raise ValueError(f"cannot run {source!r} as an AI: give builtin:NAME, a .py file or a "
                         ".js file (create one with `studio new-ai NAME`)")
    if not path.is_file():
        raise ValueError(f"no such AI file: {source}")
    if suffix == ".js" and not js_available():
        raise RuntimeError(f"cannot run {source}: {JS_INSTALL_HINT}")
    return WorkerPlayer(path, time_limit=time_limit, load_limit=load_limit, js=suffix == ".js",
                        require_confinement=require_confinement)
