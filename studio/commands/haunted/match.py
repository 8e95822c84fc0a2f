"""``studio match`` and ``studio tournament``: Haunted Tiles without the UI (spec haunted.md §12).

    studio match builtin:greedy my_ai.py --rounds 5 --seed 7 --replay out.json.gz
    studio tournament builtin:greedy builtin:lookahead a.py b.js --format roundrobin --json
    studio tournament --project cup.toml --name "Inner school CSM"
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from studio import __version__
from studio.commands import command
from studio.commands.haunted.entrants import Setup, match_options, result_json, round_line
from studio.commands.progress import ProgressLine
from studio.engines.common.inert import inert
from studio.engines.haunted import replay as replays
from studio.engines.haunted.match import run_match
from studio.engines.haunted.match_data import tally
from studio.engines.haunted.tournament import DOUBLE_ROUND_ROBIN, ROUND_ROBIN, SINGLE
from studio.sessions.haunted.cluster import ClusterPool, ParallelRun, hosts_text, progress_line
from studio.sessions.haunted.confinement import refuse_unconfined, warning
from studio.sessions.haunted.entrants import distinct_names
from studio.sessions.haunted.feed import FeedWriter, match_feed_path
from studio.sessions.haunted.results import write_csv
from studio.sessions.haunted.tournament import (TournamentPlan, TournamentRun, tournament_folder,
                                                with_submissions)
from studio.storage import ProjectError
from studio.storage.haunted.kind import tournaments_of
from studio.storage.haunted.replay import save_replay
from studio.storage.haunted.submissions import deadline_of


def _names(first: str, second: str) -> dict[str, str]:
    first, second = distinct_names(first, second)
    return {"A": first, "B": second}


def _match_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ai_a", metavar="AI_A", help="team A (home in round 1): builtin:NAME, "
                        "a .py or .js file, or a team of --project")
    parser.add_argument("ai_b", metavar="AI_B", help="team B")
    match_options(parser)
    parser.add_argument("--replay", metavar="FILE", help="save the replay (.json or .json.gz)")
    parser.add_argument("--quiet", action="store_true", help="print only the match result")


def _confinement(required: bool, what: str) -> None:
    """Say where AIs would run unconfined (on stderr: ``--json`` keeps stdout for JSON), and
    refuse when that was asked for."""
    refuse_unconfined(required, what)
    note = warning()
    if note:
        print(f"warning: {note}", file=sys.stderr)


@command("match", _match_arguments)
def _match(args: argparse.Namespace) -> int:
    setup = Setup(args)
    _confinement(setup.require_confinement, "this match")
    team_a, team_b = setup.entrant(args.ai_a), setup.entrant(args.ai_b)
    names = _names(team_a.name, team_b.name)
    team_a.name, team_b.name = names["A"], names["B"]
    feed = FeedWriter(match_feed_path(Path(args.replay)), "match") if args.replay else None
    hooks = {}
    if feed is not None:
        feed.match_started({"A": team_a, "B": team_b}, setup.config, setup.seed, setup.maps)
        hooks = {"observer": feed.turn_played, "on_round_start": feed.round_started,
                 "on_round_end": feed.round_ended}
    result = run_match(team_a, team_b, setup.maps, setup.config, setup.seed, **hooks)
    if feed is not None:
        feed.match_ended(result)
        feed.close()
    if args.replay:
        save_replay(replays.build(result, __version__), Path(args.replay))
        if feed is not None:  # the replay holds all the feed said
            feed.path.unlink(missing_ok=True)
    if args.json:
        print(json.dumps(result_json(result, names, setup.seed), indent=2, ensure_ascii=False))
        return 0
    for note in result.log:
        print(f"note: {note}")
    if not args.quiet:
        for r in result.rounds:
            print(round_line(r, names))
    toss = " after a coin toss" if result.coin_toss else ""
    print(f"{names[result.winner]} wins {tally(result.wins, result.ties, result.winner, '-')}"
          f"{toss} (seed {setup.seed})")
    return 0


def _tournament_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ais", nargs="*", metavar="AI",
                        help="entrants in registration order (builtin:NAME, files, team names)")
    parser.add_argument("--format", choices=["single", "roundrobin", "double"], default=None,
                        help="single elimination (default), round robin, or double round robin")
    parser.add_argument("--name", help="run this [[tournament]] of --project")
    parser.add_argument("--third-place", action="store_true", help="play a third-place match")
    parser.add_argument("--replays", metavar="FOLDER",
                        help="save every match's replay and index.json here (default with --name:"
                             " replays/NAME beside the project)")
    parser.add_argument("--resume", action="store_true",
                        help="with --replays: reuse the matches already saved there")
    parser.add_argument("--pace", type=float, default=None, metavar="SECONDS",
                        help="at least this long between turns, for a class watching it live "
                             "('studio watch'); default: the tournament's pace with --name, "
                             "else 0, full speed")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="play the matches in parallel on Dask: local (one worker process "
                             "per core), local:N, or a running scheduler such as "
                             "tcp://10.0.0.5:8786 (needs the cluster extra)")
    parser.add_argument("--csv", metavar="FILE",
                        help="write the standings as CSV to FILE and every match to "
                             "FILE-matches.csv")
    match_options(parser)


_FORMATS = {"single": SINGLE, "roundrobin": ROUND_ROBIN, "double": DOUBLE_ROUND_ROBIN}


@command("tournament", _tournament_arguments)
def _tournament(args: argparse.Namespace) -> int:
    setup = Setup(args)
    mode = _FORMATS[args.format or "single"]
    entrant_names = list(args.ais)
    third_place = args.third_place
    school_sizes = None
    if args.name:
        if not args.project:
            raise ProjectError("--name needs --project")
        tables = tournaments_of(setup.body, setup.teams)
        table = next((t for t in tables if t["name"] == args.name), None)
        if table is None:
            names = ", ".join(repr(t["name"]) for t in tables) or "none yet"
            raise ProjectError(f"no tournament named {args.name!r}", file=Path(args.project),
                               hint=f"its tournaments: {names}")
        entrant_names = entrant_names or table["entrants"]
        mode = _FORMATS[args.format] if args.format else table["mode"]
        third_place = third_place or table["third_place"]
        if args.seed is None:
            setup.seed = table["seed"]
        if args.swap_sides is None:
            setup.config = replace(setup.config, swap_sides=table["swap_sides"])
        if table["seeding"] == "school-size":
            sizes = {t.name: t.school_size for t in setup.teams}
            school_sizes = [sizes[n] for n in entrant_names]
    required = setup.require_confinement
    pace = args.pace if args.pace is not None else table["pace"] if args.name else 0.0
    if args.name:
        required = required or table["require_confinement"]
    _confinement(required, f"tournament {args.name!r}" if args.name else "this tournament")
    if len(entrant_names) < 2:
        raise ProjectError("a tournament needs at least two AIs")
    if len(set(entrant_names)) != len(entrant_names):
        raise ProjectError("an AI is entered twice", hint="copy the file to enter it again")
    folder = Path(args.replays) if args.replays else None
    if folder is None and args.name:  # a project's tournament keeps its replays beside it (§11)
        folder = tournament_folder(setup.folder, args.name)
    if args.resume and folder is None:
        raise ProjectError("--resume needs --replays FOLDER")
    plan = TournamentPlan(mode, tuple(entrant_names), setup.config, setup.maps, setup.seed,
                          args.name or "", tuple(setup.teams), setup.folder,
                          tuple(school_sizes) if school_sizes else None, third_place, folder,
                          bool(args.in_process), required,
                          pace=min(max(0.0, pace), 60.0))
    if args.project:  # a project's teams play their submissions once it takes them
        plan = with_submissions(plan, deadline_of(setup.body))
        for name, reason in plan.skipped:
            print(f"skipped {name}: {reason}", file=sys.stderr)

    entrant_names = list(plan.entrants)

    def on_match(played) -> None:
        if not args.json:
            home, away = entrant_names[played.home], entrant_names[played.away]
            r = played.result
            toss = ", coin toss" if r.coin_toss else ""
            print(f"{played.stage:<14} {home} vs {away}: {entrant_names[played.winner]} wins "
                  f"{tally(r.wins, r.ties, r.winner, '-')}{toss}")

    if args.cluster:
        document, run = _on_cluster(args.cluster, plan, args.resume, on_match)
    else:
        run = TournamentRun(plan, resume=args.resume, on_match=on_match)
        document = run.run()
    if args.csv:
        for path in write_csv(document, Path(args.csv)):
            print(f"wrote {path}", file=sys.stderr)
    if args.json:
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return 0
    result = run.result
    for stage, entrant in result.byes:
        print(f"{stage:<14} {entrant_names[entrant]}: bye")
    print("standings:")
    for place, index in enumerate(result.standings, 1):
        rating = f"  Elo {result.ratings[index]:.0f}" if result.ratings else ""
        print(f"  {place}. {entrant_names[index]}{rating}")
    print(f"(seed {setup.seed})")
    return 0


def _on_cluster(address: str, plan: TournamentPlan, resume: bool, on_match):
    """Run ``plan`` on a Dask cluster, with a progress line on stderr (redrawn in place on a
    terminal) and a line for each worker the run leaves out."""
    progress = ProgressLine()
    told: set[str] = set()
    with ClusterPool(address) as pool:
        workers = pool.workers()
        print(f"cluster {pool.address}: {len(workers)} workers, "
              f"{sum(w['threads'] for w in workers.values())} matches at a time",
              file=sys.stderr)

        def tell_left_out() -> None:  # each worker once, as the run first leaves it out
            for line in run.left_out:
                if line not in told:
                    told.add(line)
                    print(inert(f"left out: {line}"), file=sys.stderr)

        def report(played) -> None:
            progress.clear()
            on_match(played)
            tell_left_out()
            hosts = hosts_text(run.hosts)  # as of the match before: no wait for the cluster
            progress.show(progress_line(run.load()) + (f", {hosts}" if hosts else ""))

        if plan.pace > 0:
            print("note: --cluster plays at full speed (the pace is for a match watched turn "
                  "by turn)", file=sys.stderr)
        run = ParallelRun(plan, pool, resume=resume, on_match=report)
        try:
            document = run.run()
        finally:
            progress.end()
    played: dict[str, int] = {}
    for outcome in run.outcomes.values():
        played[outcome.worker] = played.get(outcome.worker, 0) + 1
    print("played on: " + ", ".join(f"{worker} {count}" for worker, count in sorted(played.items())),
          file=sys.stderr)
    tell_left_out()  # one refusing the last match
    return document, run
