"""Haunted Tiles use cases that the CLI and the screens share (screens.md: "below both").

Turning an AI name into a match entrant — a team of the project, ``builtin:NAME``, or a ``.py`` /
``.js`` file — and describing a match to play (:class:`MatchPlan`). Reading AI files and starting
worker processes happens here, so the engines stay pure and neither the commands nor the
screens copy it.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from studio.engines.haunted.board import Map
from studio.engines.haunted.builtin_ais import BUILTINS, PREFIX, SIMULATING
from studio.engines.haunted.match import Entrant, MatchConfig
from studio.engines.haunted.players import Player
from studio.sessions.haunted.veil import VEILED, VeiledPlayer
from studio.engines.common.limits import MAX_AI_SOURCE_BYTES
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import TeamEntry, source_path
from studio.storage.reading import read_bounded


SUBMITTED = "submitted:"
"""A team's submitted version as a match side (``submitted:NAME``; see ``opponents``)."""


def _factory():
    try:
        from studio.engines.haunted.ai.factory import make_player
    except ModuleNotFoundError:  # runners not installed: built-ins can still play in process
        return None  # (any other ImportError is a fault to show, not an installation to hide)
    return make_player


def source_sha256(path: Path) -> str:
    """The SHA-256 of an AI file recorded in replays ("" when it cannot be read: a FIFO, a file
    over :data:`~studio.engines.common.limits.MAX_AI_SOURCE_BYTES`, which the worker refuses too)."""
    try:
        return hashlib.sha256(read_bounded(path, MAX_AI_SOURCE_BYTES, "an AI file")).hexdigest()
    except ProjectError:
        return ""


def team_source(team: TeamEntry, folder: Path | None) -> str:
    """What a registry entry runs: ``builtin:NAME`` or the real path of its file.

    Raises:
        ProjectError: the file is outside the project's folder (:func:`source_path`).
    """
    if team.runtime == "builtin":
        return PREFIX + team.source
    try:
        return str(source_path(folder or Path.cwd(), team.source))
    except ProjectError as exc:
        exc.message = f"team {team.name!r}: {exc.message}"
        exc.args = (exc.message,)
        raise


def _maker(source: str, runtime: str, config: MatchConfig, in_process: bool,
           no_time_limit: bool, require_confinement: bool) -> Callable[[], Player]:
    make_player = _factory()
    if make_player is None:
        if runtime != "builtin":
            raise ProjectError("the AI runners are not available in this installation")
        from studio.engines.haunted.inprocess import InProcessPlayer

        return lambda: InProcessPlayer(source)
    limits = {"time_limit": None if no_time_limit else config.time_limit,
              "load_limit": config.load_limit, "require_confinement": require_confinement}

    def make() -> Player:
        try:
            return make_player(source, in_process_builtins=in_process, **limits)
        except (ValueError, RuntimeError) as exc:
            raise ProjectError(str(exc)) from None

    return make


def prepare_simulator() -> None:
    """Compile the batch simulator (in another process) before an AI that runs it plays.

    Its sandboxed workers cannot afford the first compile (seconds, against a load limit of
    5 s) and load the machine code from the cache instead; without it they would play as
    lookahead, and a match would depend on whether the cache was warm. Blocks: call it off the
    event loop (entrants are resolved on the match's thread).
    """
    from studio.sessions import warmup  # noqa: PLC0415

    warmup.prepare(warmup.HAUNTED)


def resolve_entrant(spec: str, config: MatchConfig, teams: Sequence[TeamEntry] = (),
                    folder: Path | None = None, *, name: str | None = None,
                    in_process: bool = False, no_time_limit: bool = False,
                    require_confinement: bool = False, veiled: bool = False,
                    digest: str = "") -> Entrant:
    """The match entrant for an AI name.

    Args:
        spec: a team name of ``teams``, ``builtin:NAME``, or a ``.py`` / ``.js`` file.
        config: the match settings (time and load limits of the workers).
        teams: the project's registry.
        folder: the project's folder (team sources are relative to it).
        name: the name shown for the entrant (default: ``spec``).
        in_process: run built-ins inside the studio process (trusted fast mode).
        no_time_limit: the UI's debug switch: moves may take as long as they take.
        require_confinement: the project or tournament requires confinement: a worker that
            cannot confine itself fully (the prediction was wrong) runs none of the AI's code.
        veiled: its source is not the person's to see: it plays behind a
            :class:`~studio.sessions.haunted.veil.VeiledPlayer`, and failing to start says only
            that it failed.
        digest: its SHA-256 when known without reading it (a submission's record).

    Raises:
        ProjectError: the AI cannot play, with what to do.
    """
    team = next((t for t in teams if t.name == spec), None)
    monster = alternate = ""
    if team is not None:
        monster, alternate = team.monster, team.alternate
        source = team_source(team, folder)
    else:
        source = spec
    if source.startswith(PREFIX):
        bare = source[len(PREFIX):]
        if bare not in BUILTINS:
            raise ProjectError(f"no built-in AI named {bare!r}",
                               hint="built-ins: " + ", ".join(PREFIX + n for n in BUILTINS))
        runtime, digest = "builtin", source_sha256(BUILTINS[bare])
    elif source.endswith((".py", ".js")):
        path = Path(source)
        if not path.is_file():
            raise ProjectError("no such AI file", file=path)
        runtime = "js" if source.endswith(".js") else "python"
        # A veiled AI's file is not this session's to read, not even for its hash.
        digest = digest or ("" if veiled else source_sha256(path))
    else:
        raise ProjectError(f"unknown AI {spec!r}",
                           hint="give builtin:NAME, a .py or .js file, or a team of the project")
    if sys.platform != "linux" and not (runtime == "builtin" and in_process):
        # The worker's first steps (die with the studio, then the sandbox) are Linux calls:
        # elsewhere it ended with a traceback in every round, read as the AI crashing.
        raise ProjectError(f"AI worker processes run only on Linux; this is {sys.platform}",
                           hint="built-in AIs can play inside the studio (--in-process); AI "
                           "files need Linux (on Windows: WSL)")
    if runtime == "builtin" and source[len(PREFIX):] in SIMULATING:
        prepare_simulator()
    make = _maker(source, runtime, config, in_process, no_time_limit, require_confinement)
    shown = name or spec
    if veiled:
        make = _veil(make)
    try:
        make().close()  # fail now, with a clear message, rather than in round 1
    except ProjectError:
        if not veiled:
            raise
        raise ProjectError(f"{shown}'s AI cannot start; {VEILED}") from None
    return Entrant(shown, make, runtime, source, digest, monster, alternate)


def shipped_entrant(name: str, runtime: str, runs: str, *, source: str, digest: str,
                    config: MatchConfig, monster: str = "", alternate: str = "",
                    in_process: bool = False, require_confinement: bool = False) -> Entrant:
    """An entrant that runs ``runs`` (``builtin:NAME`` or a file written from shipped source
    text, on a cluster worker) while its replay names ``source``, where the coordinator read
    it: the replay is then the one a local run writes.

    Raises:
        ProjectError: the AI runners are not available.
    """
    if runtime == "builtin" and runs[len(PREFIX):] in SIMULATING:
        prepare_simulator()
    make = _maker(runs, runtime, config, in_process, False, require_confinement)
    return Entrant(name, make, runtime, source, digest, monster, alternate)


def _veil(make: Callable[[], Player]) -> Callable[[], Player]:
    return lambda: VeiledPlayer(make())


def distinct_names(first: str, second: str) -> tuple[str, str]:
    """Two entrant names that can tell the teams apart (an AI against itself gets (A)/(B))."""
    if first == second:
        return f"{first} (A)", f"{second} (B)"
    return first, second


@dataclass(frozen=True)
class MatchPlan:
    """A match to play: who, where and how (what the match setup screen fills in)."""

    home: str
    """Team A (home in round 1): a team name of ``teams``, ``builtin:NAME`` or an AI file."""
    away: str
    """Team B."""
    config: MatchConfig
    seed: int
    maps: dict[str, Map]
    teams: tuple[TeamEntry, ...] = ()
    folder: Path | None = None
    home_name: str | None = None
    """The name shown for team A (default: ``home``), e.g. "Test" for the AI editor's run."""
    away_name: str | None = None
    no_time_limit: bool = False
    in_process_builtins: bool = False
    pace: float = 0.5
    """Seconds per turn in the match view (0: as fast as possible)."""
    start_paused: bool = False
    """Hold the match before its first turn (step it with ``n``)."""
    require_confinement: bool = False
    """The project requires confinement (checked at set-up, and by each worker again)."""
    extra: dict[str, str] = field(default_factory=dict)
    """Notes for the view (e.g. "quick test of map X")."""
    veiled: frozenset[str] = frozenset()
    """The sides (``home``/``away`` values) whose source the person may not see: they play
    veiled (``opponents.with_opponents`` sets it)."""
    digests: dict[str, str] = field(default_factory=dict)
    """Known SHA-256 of sides' sources (a submission's record), by side value."""

    def names(self) -> tuple[str, str]:
        """The teams as the match view names them: a team by its name, a built-in by its bare
        name, an AI file by its file name."""
        def shown(spec: str, name: str | None) -> str:
            if name:
                return name
            if spec.endswith((".py", ".js")):
                return Path(spec).name
            if spec.startswith(SUBMITTED):
                return f"{spec.removeprefix(SUBMITTED)} (submitted)"
            return spec.removeprefix(PREFIX)  # "greedy": the panel beside the board is narrow

        return distinct_names(shown(self.home, self.home_name), shown(self.away, self.away_name))

    def entrants(self) -> tuple[Entrant, Entrant]:
        """Both entrants, started once each to fail early.

        Raises:
            ProjectError: an AI cannot play.
        """
        names = self.names()
        options = {"in_process": self.in_process_builtins, "no_time_limit": self.no_time_limit,
                   "require_confinement": self.require_confinement}
        team_a = resolve_entrant(self.home, self.config, self.teams, self.folder,
                                 name=names[0], veiled=self.home in self.veiled,
                                 digest=self.digests.get(self.home, ""), **options)
        team_b = resolve_entrant(self.away, self.config, self.teams, self.folder,
                                 name=names[1], veiled=self.away in self.veiled,
                                 digest=self.digests.get(self.away, ""), **options)
        return team_a, team_b
