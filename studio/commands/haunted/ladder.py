"""``studio ladder``: play the ladder's missing matches, follow new submissions, print standings.

    studio ladder cup.toml                 # catch up, then print the standings
    studio ladder cup.toml --follow        # and go on: play each new submission's matches
    studio ladder cup.toml --standings [--json]
    studio ladder cup.toml --reset         # forget every result (they are played again)
    studio ladder cup.toml --follow --cluster tcp://10.0.0.5:8786   # the matches on Dask

Through :mod:`studio.sessions.haunted.ladder`, as the Ladder screen and a submit are.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from studio.commands import command
from studio.engines.haunted.ladder import LadderMatch
from studio.sessions.haunted.confinement import refuse_unconfined, warning
from studio.sessions.haunted.ladder import (
    catch_up, load_ladder, reset_ladder, standing_json,
)
from studio.sessions.haunted.ladder_files import ladder_folder
from studio.sessions.haunted.ladder_queue import run_settled
from studio.storage import ProjectError, load_project
from studio.storage.haunted.kind import requires_confinement
from studio.storage.haunted.ladder import ladder_of
from studio.storage.haunted.project import HauntedModel, project_model


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="the competition's project (.toml)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--standings", action="store_true",
                      help="print the standings only (plays nothing)")
    what.add_argument("--follow", action="store_true",
                      help="keep running: play each new submission's matches as it comes")
    what.add_argument("--reset", action="store_true",
                      help="forget every ladder result (the next run plays them all again)")
    parser.add_argument("--interval", type=float, default=5.0, metavar="SECONDS",
                        help="with --follow: how often to look for new submissions (default 5)")
    parser.add_argument("--cluster", metavar="ADDRESS", default=None,
                        help="play the matches on a Dask cluster: a scheduler (tcp://HOST:PORT), "
                             "or local / local:N worker processes here (needs the cluster "
                             "extra)")
    parser.add_argument("--json", action="store_true", help="with --standings: print JSON")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")


def _model(path: str) -> HauntedModel:
    project = load_project(path)
    if project.kind != "haunted":
        raise ProjectError("not a Haunted Tiles project", file=project.path)
    return project_model(project)


@command("ladder", _arguments)
def _ladder(args: argparse.Namespace) -> int:
    model = _model(args.project)
    if args.standings:
        return _print_standings(model, args.json)
    if args.reset:
        removed = reset_ladder(model.folder)  # type: ignore[arg-type]
        print(f"ladder reset: {removed} match(es) forgotten", file=sys.stderr)
        return 0
    if not ladder_of(model.body).enabled:
        raise ProjectError("the ladder is off", file=Path(args.project),
                           field_path=("ladder", "enabled"),
                           hint="set enabled = true in the [ladder] table (or o in the Ladder "
                                "screen)")
    refuse_unconfined(requires_confinement(model.body), "this project")
    note = warning()
    if note and not args.quiet:
        print(f"warning: {note}", file=sys.stderr)

    def said(match: LadderMatch, entry: dict | None) -> None:
        if entry is not None and not args.quiet:
            winner = match.home.team if entry["winner"] == "home" else match.away.team
            print(f"ladder {match.number:>4}  {match.home.team} vs {match.away.team} "
                  f"({match.map_name}): {winner} wins {entry['home_rounds']}-"
                  f"{entry['away_rounds']}", flush=True)

    played: list[str] = []
    pool = None
    if args.cluster:
        from studio.sessions.haunted.cluster import ClusterPool  # noqa: PLC0415

        pool = ClusterPool(args.cluster)

    def catch_up_now():
        if pool is None:
            return catch_up(model, on_match=said)
        from studio.sessions.haunted.ladder_cluster import catch_up_on  # noqa: PLC0415

        return catch_up_on(pool, model, on_match=said)

    def play() -> None:
        nonlocal model
        while True:
            played.extend(catch_up_now().played)
            if not args.follow:
                return
            try:
                time.sleep(max(0.2, args.interval))
            except KeyboardInterrupt:
                return
            try:  # a teacher may have turned it off or changed the maps
                model = _model(args.project)
            except ProjectError as exc:  # caught mid-edit, say: the next look may find it whole
                print(f"warning: {exc}; trying again in {args.interval:g} s", file=sys.stderr)
                continue
            if not ladder_of(model.body).enabled:
                print("the ladder was turned off: stopping", file=sys.stderr)
                return

    def pending() -> int:
        nonlocal model
        if args.follow:
            return 0
        model = _model(args.project)
        return len(load_ladder(model).missing) if ladder_of(model.body).enabled else 0

    try:
        run_settled(ladder_folder(model.folder), play, pending)  # type: ignore[arg-type]
    finally:
        if pool is not None:
            pool.close()
    if args.follow:
        return 0
    if not args.quiet:
        print(f"{len(played)} match(es) played", file=sys.stderr)
        _print_standings(model, False)
    return 0


def _print_standings(model: HauntedModel, as_json: bool) -> int:
    ladder = load_ladder(model)
    rows = [standing_json(row) for row in ladder.rows]
    if as_json:
        print(json.dumps({"enabled": ladder.settings.enabled, "scheduled": len(ladder.matches),
                          "played": len(ladder.matches) - len(ladder.missing),
                          "standings": rows}, indent=2, ensure_ascii=False))
        return 0
    width = max([len(r["team"]) for r in rows] + [4])
    print(f"{'#':>3}  {'team':<{width}}  {'Elo':>6}  {'P':>3}  {'W':>3}  {'L':>3}  last submission")
    for r in rows:
        last = (r["last_submission"] or "").replace("T", " ").replace("Z", " UTC")
        print(f"{r['rank']:>3}  {r['team']:<{width}}  {r['elo']:>6.1f}  {r['played']:>3}  "
              f"{r['wins']:>3}  {r['losses']:>3}  {last}")
    missing = len(ladder.missing)
    state = "on" if ladder.settings.enabled else "off"
    print(f"ladder {state}: {len(ladder.matches) - missing} of {len(ladder.matches)} matches "
          f"played" + (", settings changed since: reset it" if ladder.stale else ""))
    return 0
