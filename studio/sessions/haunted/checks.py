"""Checking a Haunted Tiles AI before a match: a load test and a syntax check (haunted.md §13.6).

Both run the AI's code only in a worker process (the runners of ``engines/haunted/ai``): a load
test starts a worker, loads the AI and asks for one move on a map's first state; a syntax check
compiles Python here (compiling runs nothing) and parses JavaScript in a worker, where V8 lives.
Both block for up to the load and time limits, so screens call them from a thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.engines.haunted.answers import game_state, interpret
from studio.engines.haunted.board import Map
from studio.engines.haunted.match import MatchConfig
from studio.engines.haunted.rules import Round
from studio.engines.haunted.builtin_ais import SIMULATING, builtin_name
from studio.sessions.haunted.entrants import MatchPlan, prepare_simulator
from studio.storage.haunted.project import HauntedModel

TEST_SEED = 1
"""The AI seed of every load test: the same code answers the same way each time."""


@dataclass(frozen=True)
class LoadTest:
    """What a load test found."""

    ok: bool
    stage: str = ""
    """Where it failed: ``start`` (no worker), ``load`` or ``move``."""
    failure: str = ""
    """``exception``, ``timeout``, ``crash``, ``bad_shape`` or ``error`` (could not start)."""
    error: str = ""
    load_ms: float = 0.0
    move_ms: float = 0.0
    answer: Any = None
    """The raw answer to the one move."""
    moves: tuple[str | None, ...] = ()
    """The answer as the referee reads it."""
    warnings: tuple[str, ...] = ()
    output: str = ""
    """What the AI printed (stdout then stderr), bounded like in a match."""
    confinement: str = ""
    """Empty when the worker was confined; otherwise what it runs with."""
    board: str = ""

    def summary(self) -> str:
        """One line for a list: ``✓ 41 ms + 3 ms`` or ``✗ timeout``."""
        if self.ok:
            return f"✓ {self.load_ms:.0f}+{self.move_ms:.0f} ms"
        return f"✗ {self.failure}"

    def details(self) -> list[str]:
        """Lines that explain the result (the answer, or the failure and its reason)."""
        if self.ok:
            lines = [f"loaded in {self.load_ms:.0f} ms; answered {self.answer!r} in "
                     f"{self.move_ms:.1f} ms on {self.board!r}, turn 1, home",
                     "moves: " + ", ".join(str(move) for move in self.moves)]
        else:
            where = {"start": "could not start", "load": "failed to load",
                     "move": "failed on its first move"}.get(self.stage, "failed")
            lines = [f"{where}: {self.failure}"]
            lines += [line for line in self.error.strip().splitlines()[-6:] if line.strip()]
        lines += [f"warning: {warning}" for warning in self.warnings]
        if self.output.strip():
            lines.append("printed: " + " ⏎ ".join(self.output.strip().splitlines()[:3]))
        if self.confinement:
            lines.append(self.confinement)
        return lines


def run_load_test(source: str, config: MatchConfig, board: Map, seed: int = TEST_SEED) -> LoadTest:
    """Load ``source`` in a worker and ask it for one move on ``board``'s first state, as home.

    Args:
        source: ``builtin:NAME`` or an AI file (as :func:`haunted.team_source` gives it).
        config: the time and load limits to apply (those of the project's matches).
        board: the map whose first state the AI answers.
        seed: the AI's seed.
    """
    try:
        from studio.engines.haunted.ai.factory import make_player  # noqa: PLC0415
        if builtin_name(source) in SIMULATING:
            prepare_simulator()
        player = make_player(source, time_limit=config.time_limit, load_limit=config.load_limit)
    except (ImportError, ValueError, RuntimeError) as exc:
        return LoadTest(False, "start", "error", str(exc), board=board.name)
    try:
        loaded = player.load(seed, "home")
        note = getattr(player, "unconfined_reason", "")
        if not loaded.ok:
            return LoadTest(False, "load", loaded.failure or "exception", loaded.error,
                            load_ms=loaded.ms, output=loaded.stdout + loaded.stderr,
                            confinement=note, board=board.name)
        state = Round(board).initial_state()
        player.request(1, game_state(state), "home")
        reply = player.collect()
    finally:
        player.close()
    output = loaded.stdout + loaded.stderr + reply.stdout + reply.stderr
    common = {"load_ms": loaded.ms, "move_ms": reply.ms, "output": output,
              "confinement": note, "board": board.name}
    if not reply.ok:
        return LoadTest(False, "move", reply.failure or "exception", reply.error, **common)
    read = interpret(reply.result, [True, True, True], "test (home)", 1)
    if read.moves is None:
        return LoadTest(False, "move", "bad_shape", read.error, answer=reply.result, **common)
    return LoadTest(True, answer=reply.result, moves=tuple(read.moves),
                    warnings=tuple(read.warnings), **common)


@dataclass(frozen=True)
class SyntaxProblem:
    """A syntax error: the message and its place (1-based; None when the parser gave none)."""

    message: str
    line: int | None = None
    column: int | None = None

    def where(self) -> str:
        if self.line is None:
            return ""
        return f"line {self.line}" + (f", column {self.column}" if self.column else "")


def check_syntax(text: str, js: bool, filename: str = "<ai>", limit: float = 5.0
                 ) -> SyntaxProblem | None:
    """The first syntax error of an AI's source, or None when it parses.

    Python is compiled here: ``compile()`` builds code without running any of it. JavaScript is
    parsed by V8 in a worker process (it is not part of the studio process).

    Raises:
        RuntimeError: JavaScript while mini-racer is not installed, or the worker failed.
    """
    if not js:
        try:
            compile(text, filename, "exec", dont_inherit=True)
        except SyntaxError as exc:  # IndentationError and TabError are SyntaxErrors too
            return SyntaxProblem(f"{type(exc).__name__}: {exc.msg}", exc.lineno, exc.offset)
        except ValueError as exc:  # a NUL byte in the source
            return SyntaxProblem(f"ValueError: {exc}")
        except (RecursionError, MemoryError):
            # Python's parser and compiler refuse code nested thousands deep this way (cleanly:
            # they count their depth); a hostile file must not end the editor with it.
            return SyntaxProblem("the code nests too deep for Python to compile")
        return None
    from studio.engines.haunted.ai.factory import JS_INSTALL_HINT, js_available  # noqa: PLC0415
    from studio.engines.haunted.ai.runner import WorkerPlayer  # noqa: PLC0415

    if not js_available():
        raise RuntimeError(f"cannot check JavaScript: {JS_INSTALL_HINT}")
    with WorkerPlayer(filename, js=True, load_limit=limit) as worker:
        reply = worker.check(text)
    if reply.ok:
        return None
    if reply.failure != "syntax":
        raise RuntimeError(f"the syntax check failed ({reply.failure}): {reply.error}")
    place = reply.result or {}
    return SyntaxProblem(reply.error, place.get("line"), place.get("column"))


def first_map(model: HauntedModel) -> Map | None:
    """The map a test plays: the first of the project's rotation (None without a valid map)."""
    maps = model.maps()
    rotation = model.config().maps
    return maps.get(rotation[0]) if rotation and rotation[0] in maps else next(
        iter(maps.values()), None)


def one_round_plan(model: HauntedModel, home: str, away: str, seed: int, home_name: str = "Test"
               ) -> MatchPlan:
    """A one-round match on the project's first map with its time limits (the AI editor's run).

    Args:
        model: the project (maps, teams, limits, folder).
        home: the AI under test (a file, ``builtin:NAME`` or a team name), at home.
        away: its opponent.
        seed: the match seed (shown by the match view).
        home_name: how the tested AI is named in the match.
    """
    config = model.config()
    board = first_map(model)
    one = MatchConfig(rounds=1, max_rounds=1, time_limit=config.time_limit,
                      load_limit=config.load_limit,
                      maps=(board.name,) if board is not None else config.maps[:1],
                      coin_toss_if_all_tied=config.coin_toss_if_all_tied)
    return MatchPlan(home=home, away=away, config=one, seed=seed, maps=model.maps(),
                     teams=tuple(model.teams()), folder=model.folder, home_name=home_name)
