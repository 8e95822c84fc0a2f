#!/usr/bin/env python3
"""btree load + compile time for every corpus game (targets of btree.md §5: < 100 ms typical,
< 1 s for rust-old), and import to a TOML project.

    .venv/bin/python bench/btree_compile.py [--corpus ../shared/corpus/btree] [--repeat 3]

Prints the median load+compile time per game (file reading, YAML/JSON parsing, includes,
expansion, warnings), the slowest games, and the median over all games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from studio.storage.btree.trrbt import import_game, load_compiled

ROOT = Path(__file__).resolve().parent.parent
LENIENT = {"dungeon", "blockdude", "limerick"}  # need missing_links = "empty" (see the corpus README)


def timed(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "btree")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    games = json.loads((args.corpus / "index.json").read_text())["games"]
    rows = []
    for entry in games:
        path = args.corpus / entry["game"]
        mode = "empty" if path.stem in LENIENT else "error"
        compiled = load_compiled(path, mode)
        load = timed(lambda: load_compiled(path, mode), args.repeat)
        imp = timed(lambda: import_game(path, mode), 1)
        rows.append((load, imp, len(compiled.nodes), entry["game"].removeprefix("games/")))
    rows.sort(reverse=True)
    print(f"{'load+compile':>12} {'import':>8} {'nodes':>6}  game")
    for load, imp, nodes, name in rows[:10]:
        print(f"{load * 1000:10.1f}ms {imp * 1000:6.1f}ms {nodes:6d}  {name}")
    loads = [row[0] for row in rows]
    print(f"{len(rows)} games: median {statistics.median(loads) * 1000:.1f} ms, "
          f"max {max(loads) * 1000:.1f} ms; typical target < 100 ms, rust-old < 1 s")


if __name__ == "__main__":
    main()
