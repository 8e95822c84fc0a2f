"""``studio workers ADDRESS``: what a Dask cluster offers ``studio tournament --cluster``, before
a tournament is sent to it (issue 31).

    studio workers tcp://10.0.0.5:8786
    studio workers local:2 --require-confinement
"""

from __future__ import annotations

import argparse
import json

from studio import __version__
from studio.commands import command
from studio.sessions.haunted.cluster import ClusterPool
from studio.sessions.haunted.cluster_pool import verdict


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="ADDRESS",
                        help="a scheduler (tcp://HOST:PORT), or local / local:N to try one here")
    parser.add_argument("--require-confinement", action="store_true",
                        help="count a worker that cannot confine AIs as unusable")
    parser.add_argument("--json", action="store_true", help="print the workers as JSON")


@command("workers", _arguments)
def _workers(args: argparse.Namespace) -> int:
    """Exit 1 when no worker could play this studio's matches."""
    with ClusterPool(args.address) as pool:
        rows = pool.survey()
        address = pool.address
    for row in rows:  # the words a tournament's run says when it leaves the worker out
        row["refused"] = verdict(row, args.require_confinement)
    usable = sum(not row["refused"] for row in rows)
    if args.json:
        print(json.dumps({"scheduler": address, "workers": rows}, indent=2))
        return 0 if usable else 1
    print(f"scheduler {address}: {len(rows)} workers, {usable} usable "
          f"(this studio: {__version__})")
    for row in rows:
        confined = "confined" if not row["gap"] else f"unconfined ({row['gap']})"
        state = f"REFUSED: {row['refused']}" if row["refused"] else "ok"
        print(f"  {row['address']:<28} {row['host']:<16} {row['threads']} thread(s), "
              f"{row['processing']} match(es) in hand, studio {row['version']}, {confined}: "
              f"{state}")
    return 0 if usable else 1
