"""Shared pieces of the Haunted Tiles commands: turning command-line AI names into match entrants,
choosing maps and settings from a project, and the JSON/text form of results.

An AI is named by ``builtin:NAME``, a ``.py`` or ``.js`` file, or a team name of ``--project``.
Entrants come from :func:`studio.sessions.haunted.entrants.resolve_entrant`, which the screens
use too: sandboxed worker processes, or with ``--in-process`` the trusted in-process mode for
built-ins.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path
from typing import Any

from studio.engines.haunted.board import Map
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import AI_FAILURE, BOTH_FAILED, Entrant, MatchConfig, MatchResult
from studio.storage import ProjectError, load_project
from studio.sessions.haunted.entrants import resolve_entrant
from studio.storage.haunted.kind import (TeamEntry, config_of, maps_of, requires_confinement,
                                         teams_of)
from studio.storage.haunted.tournaments import new_match_swaps

FAILURE_NAMES = {"exception": "error", "timeout": "timeout", "bad_shape": "bad-output",
                 "crash": "crash"}
"""How ``--json`` names the failure kinds of §7.2."""


def match_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``studio match`` and ``studio tournament``."""
    parser.add_argument("--project", metavar="P.toml",
                        help="a haunted project: its maps, teams and match settings")
    parser.add_argument("--map", "--maps", dest="maps", metavar="NAME[,NAME…]",
                        help="one map, a comma-separated rotation, or 'rotation' (the default)")
    parser.add_argument("--rounds", type=int, help="planned rounds, an odd number (default 5)")
    parser.add_argument("--max-rounds", type=int, help="cap including extra rounds (default 10)")
    parser.add_argument("--timeout", "--time-limit", dest="time_limit", type=float,
                        help="seconds per move (default 2)")
    parser.add_argument("--seed", type=int, help="the seed (default: a random one, printed)")
    parser.add_argument("--swap-sides", action=argparse.BooleanOptionalAction, default=None,
                        help="home and away change every round, so neither team always acts "
                             "first (the default, unless the project's [match] says "
                             "swap_sides = false)")
    parser.add_argument("--in-process", action="store_true",
                        help="run built-in AIs inside the studio (fast; files still use workers)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--require-confinement", action="store_true", default=False,
                        help="refuse to run where AIs cannot be confined (as the project "
                             "setting require_confinement)")


class Setup:
    """What a match or tournament command plays with: maps, settings, project teams."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.folder = Path.cwd()
        self.teams: list[TeamEntry] = []
        body: dict[str, Any] | None = None
        required = False
        if args.project:
            project = load_project(args.project)
            if project.kind != "haunted":
                raise ProjectError("not a Haunted Tiles project", file=project.path)
            body = project.body
            self.folder = Path(args.project).resolve().parent
            try:
                self.maps: dict[str, Map] = maps_of(body)
                base = config_of(body, self.maps)
                self.teams = teams_of(body)
                required = requires_confinement(body)
            except ProjectError as exc:
                raise exc.with_file(project.path) from None
            self.body = body
        else:
            self.maps = builtin_maps()
            base = MatchConfig()
            self.body = {}
        rotation = base.maps
        if args.maps and args.maps != "rotation":
            rotation = tuple(name.strip() for name in args.maps.split(","))
            unknown = [name for name in rotation if name not in self.maps]
            if unknown:
                raise ProjectError(f"no map named {unknown[0]!r}",
                                   hint="maps: " + ", ".join(self.maps))
        rounds = args.rounds if args.rounds is not None else base.rounds
        max_rounds = args.max_rounds if args.max_rounds is not None else max(base.max_rounds, rounds)
        try:
            self.config = MatchConfig(
                rounds, max_rounds,
                args.time_limit if args.time_limit is not None else base.time_limit,
                base.load_limit, rotation,
                args.swap_sides if args.swap_sides is not None else new_match_swaps(self.body),
                base.coin_toss_if_all_tied,
            )
        except ValueError as exc:
            raise ProjectError(str(exc)) from None
        if args.seed is not None and not 0 <= args.seed < 2**64:
            raise ProjectError("the seed must be a whole number from 0 to 2^64 - 1")
        self.seed = args.seed if args.seed is not None else secrets.randbits(63)
        self.require_confinement = required or bool(getattr(args, "require_confinement", False))
        """Refuse to play where AI workers cannot be confined (flag or project setting)."""

    def entrant(self, spec: str) -> Entrant:
        """The entrant for a command-line AI name; raises ProjectError when it cannot play."""
        return resolve_entrant(spec, self.config, self.teams, self.folder,
                               in_process=bool(getattr(self.args, "in_process", False)),
                               require_confinement=self.require_confinement)


def round_reason(reason: str, failures: dict[str, dict[str, str]]) -> str:
    """The ``--json`` name of a round's reason (failure kinds get their own names)."""
    if reason == AI_FAILURE and failures:
        return FAILURE_NAMES.get(next(iter(failures.values()))["failure"], "error")
    if reason == BOTH_FAILED:
        return "both-failed"
    return reason


def result_json(result: MatchResult, names: dict[str, str], seed: int) -> dict[str, Any]:
    """The ``--json`` form of a match result."""
    rounds = []
    for r in result.rounds:
        away = "B" if r.home == "A" else "A"
        entry: dict[str, Any] = {
            "round": r.index, "map": r.map, "home": names[r.home],
            "winner": names[r.winner_team] if r.winner_team else None,
            "turns": r.turns, "reason": round_reason(r.reason, r.failures),
            "broken": {names[r.home]: r.broken[0], names[away]: r.broken[1]},
        }
        if r.failures:
            entry["failures"] = {names[t]: {"kind": FAILURE_NAMES.get(f["failure"], f["failure"]),
                                            "message": f["error"]} for t, f in r.failures.items()}
            entry["message"] = "; ".join(f"{names[t]}: {f['error']}" for t, f in r.failures.items())
        rounds.append(entry)
    return {
        "seed": seed,
        "teams": {"A": names["A"], "B": names["B"]},
        "winner": names[result.winner],
        "reason": "coin-toss" if result.coin_toss else "rounds",
        "wins": {names["A"]: result.wins["A"], names["B"]: result.wins["B"]},
        "ties": result.ties,
        "rounds_played": result.rounds_played,
        "rounds": rounds,
        "log": result.log,
    }


def round_line(r, names: dict[str, str]) -> str:
    """One text line per round: map, winner, reason, hits (the replay's ``broken``), turns."""
    away = "B" if r.home == "A" else "A"
    winner = names[r.winner_team] if r.winner_team else "tie"
    line = (f"round {r.index:>2}  {r.map:<16} {winner:<20} {round_reason(r.reason, r.failures):<11}"
            f" hits {r.broken[0]}-{r.broken[1]}  turns {r.turns}  ({names[r.home]} home vs {names[away]})")
    for team, failure in r.failures.items():
        line += f"\n          {names[team]}: {failure['failure']}: {failure['error']}"
    return line
