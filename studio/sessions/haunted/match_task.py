"""A tournament match as one self-contained task, for a worker on another machine (issue 31).

:class:`MatchTask` holds everything that decides a match, as plain data: both AIs' source texts
with their SHA-256 (not paths: the worker has none of the project's files), the maps, the
settings, the seed and the studio version. :func:`play_task` plays it on the worker in the same
confined AI worker processes a local run uses and returns the replay body, so the coordinator
writes the very replay a local run writes. A worker that would play it differently refuses,
with the reason, rather than return a result that only looks right: another studio version,
built-in AIs that are not this version's, or no confinement where the tournament requires it.
"""

from __future__ import annotations

import hashlib
import os
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.engines.haunted.board import Map
from studio.engines.haunted.builtin_ais import BUILTINS, PREFIX
from studio.engines.haunted.match import Entrant, MatchConfig, run_match
from studio.sessions.haunted.entrants import shipped_entrant, source_sha256
from studio.storage.errors import ProjectError
from studio.storage.reading import read_bounded


class WorkerRefused(RuntimeError):
    """This worker will not play the match; the message says why (``args[1]``: the worker's
    Dask address, "" when not on a worker)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class AISource:
    """One side's AI as shipped: its text, not its path."""

    name: str
    source: str
    """``builtin:NAME`` or the file as the coordinator named it (what the replay records)."""
    runtime: str
    """``builtin``, ``python`` or ``js``."""
    sha256: str
    text: str = ""
    """The file's text; empty for a built-in, which is part of the studio version."""
    monster: str = ""
    alternate: str = ""

    @classmethod
    def of(cls, entrant: Entrant) -> AISource:
        """What ships for a resolved entrant: the file's text read now, under the size limit.

        Raises:
            ProjectError: the file cannot be read, or changed since the tournament started.
        """
        text = ""
        if entrant.runtime != "builtin":
            data = read_bounded(Path(entrant.source), MAX_AI_SOURCE_BYTES, "an AI file")
            if hashlib.sha256(data).hexdigest() != entrant.source_sha256:
                raise ProjectError(f"{entrant.name}'s AI file changed since the tournament "
                                   "started", file=Path(entrant.source))
            text = data.decode("utf-8", errors="surrogateescape")
        return cls(entrant.name, entrant.source, entrant.runtime, entrant.source_sha256, text,
                   entrant.monster, entrant.alternate)


@dataclass(frozen=True)
class MatchTask:
    """Everything that decides one match of a tournament, as data a worker can be sent."""

    number: int
    """Its schedule number (which replay file it becomes)."""
    home: AISource
    away: AISource
    maps: dict[str, dict[str, Any]]
    """The maps of ``config``'s rotation in their replay form (``Map.to_json``)."""
    config: dict[str, Any]
    """``MatchConfig.to_json()``."""
    seed: int
    studio_version: str
    require_confinement: bool = False
    in_process_builtins: bool = False


@dataclass(frozen=True)
class MatchOutcome:
    """What a worker sends back: the replay body (without the header a file adds) and where
    and how it was played."""

    number: int
    replay: dict[str, Any]
    confined: dict[str, bool]
    """Per team letter, as the worker's AI processes reported it (the replay says it too)."""
    worker: str
    """``host:pid`` of the process that played it."""
    seconds: float


def _studio_version() -> str:
    import studio  # noqa: PLC0415  (read at call time: a test gives one worker another version)

    return studio.__version__


def refusal(task: MatchTask) -> str:
    """Why this process must not play ``task`` ("" when it may)."""
    here = _studio_version()
    if task.studio_version != here:
        return (f"studio version differs: the worker has {here}, the tournament "
                f"{task.studio_version} (install the same version on every worker)")
    for side in (task.home, task.away):
        if side.runtime == "builtin":
            bare = side.source[len(PREFIX):]
            if bare not in BUILTINS or source_sha256(BUILTINS[bare]) != side.sha256:
                return (f"built-in AI {side.source} differs from the coordinator's "
                        "(a modified installation)")
        elif hashlib.sha256(side.text.encode("utf-8", "surrogateescape")).hexdigest() != side.sha256:
            return f"{side.name}'s source does not match its SHA-256 (damaged on the way)"
    if task.require_confinement:
        from studio.engines.haunted.ai.probe import gap  # noqa: PLC0415

        missing = gap()
        if missing:
            return f"the tournament requires confinement and AIs cannot be confined here ({missing})"
    return ""


def _worker_address() -> str:
    """This Dask worker's address ("" outside one): the coordinator leaves that worker out."""
    try:
        from distributed import get_worker  # noqa: PLC0415 - only on a cluster

        return str(get_worker().address)
    except (ImportError, ValueError):
        return ""


def play_task(task: MatchTask) -> MatchOutcome:
    """Play ``task`` here (on a cluster worker, or locally).

    Raises:
        WorkerRefused: see :func:`refusal`; the message names the worker.
    """
    address = _worker_address()
    where = address or f"{socket.gethostname()}:{os.getpid()}"
    why = refusal(task)
    if why:
        raise WorkerRefused(f"worker {where} refused match {task.number}: {why}", address)
    start = time.perf_counter()
    config = MatchConfig.from_json(task.config)
    maps = {name: Map.from_json(name, data) for name, data in task.maps.items()}
    with tempfile.TemporaryDirectory(prefix="studio-match-") as folder:
        home, away = (_entrant(side, letter, Path(folder), config, task)
                      for side, letter in ((task.home, "A"), (task.away, "B")))
        result = run_match(home, away, maps, config, task.seed)
    teams = result.replay["teams"]
    return MatchOutcome(task.number, result.replay,
                        {t: bool(teams[t].get("confined")) for t in ("A", "B")}, where,
                        time.perf_counter() - start)


def _entrant(side: AISource, letter: str, folder: Path, config: MatchConfig,
             task: MatchTask) -> Entrant:
    runs = side.source
    if side.runtime != "builtin":
        # The file's own name, so that what the AI sees of itself matches a local run.
        path = folder / letter / (Path(side.source).name or f"ai.{side.runtime}")
        path.parent.mkdir()
        path.write_bytes(side.text.encode("utf-8", "surrogateescape"))
        runs = str(path)
    try:
        return shipped_entrant(side.name, side.runtime, runs, source=side.source,
                               digest=side.sha256, config=config, monster=side.monster,
                               alternate=side.alternate, in_process=task.in_process_builtins,
                               require_confinement=task.require_confinement)
    except ProjectError as exc:
        raise WorkerRefused(f"match {task.number}: {side.name} cannot play here: {exc}",
                            _worker_address()) from None


def task_for(number: int, home: Entrant | AISource, away: Entrant | AISource,
             maps: dict[str, Map], config: MatchConfig, seed: int, studio_version: str, *,
             require_confinement: bool = False, in_process: bool = False) -> MatchTask:
    """The task of a scheduled match between two resolved entrants (read now) or sources."""
    boards = {name: maps[name].to_json() for name in dict.fromkeys(config.maps)}
    sides = [side if isinstance(side, AISource) else AISource.of(side) for side in (home, away)]
    return MatchTask(number, sides[0], sides[1], boards, config.to_json(), seed, studio_version,
                     require_confinement, in_process)
