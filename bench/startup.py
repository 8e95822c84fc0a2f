#!/usr/bin/env python3
"""Start to first frame in a real terminal: the studio's home screen against a minimal Textual app.

    python bench/startup.py [--runs N] [--size COLSxROWS ...] [--checkout DIR] [FOLDER]

Each run starts a fresh interpreter on a new pseudo-terminal (bench/ptytime.py) and times from
just before the start until the first frame is on the screen: for the studio, its home screen on
FOLDER (default: the bundled games/) with the last project listed and the footer drawn; for the
baseline, a minimal Textual app written here (a Header, a DataTable of a few rows, a Footer)
with its last row and its footer drawn. Both run with this interpreter, the same environment and
terminal size, interleaved (studio, minimal, studio, …), after one untimed start of each (so the
file cache and the bytecode caches are warm). Prints the medians, their ratio and the target:
the studio within 1.2× the minimal app; and the processor time each had used when its frame was
seen (from /proc), which other work on a shared machine sways much less than the wall clock.
``--checkout`` times the studio of another checkout (for instance an older commit's, from
``git worktree add`` or ``git archive``) with the same bench.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from ptytime import FrameTime, first_frame, terminal_env

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.2
"""The studio's first frame within this many times the minimal app's."""

MINIMAL_APP = '''
from textual.app import App
from textual.widgets import DataTable, Footer, Header


class Minimal(App):
    TITLE = "minimal"
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield Header()
        yield DataTable(cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self):
        table = self.query_one(DataTable)
        table.add_columns("Name", "Kind", "Size", "Changed")
        for number in range(1, 6):
            table.add_row(f"Project {number}", "TileCode", f"{number}.0 KB", "2024-01-01 12:00")
        table.add_row("Last row", "Haunted Tiles", "9.9 KB", "2024-01-01 12:00")


Minimal().run()
'''
MINIMAL_FRAME = ("Last row", "palette")
STUDIO_FRAME = ("TileCode Sokoban", "palette")
"""The last project of games/ and the footer: the home screen is all drawn."""


def parse_size(text: str) -> tuple[int, int]:
    columns, _, rows = text.lower().partition("x")
    return int(columns), int(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9, help="timed starts of each app (default 9)")
    parser.add_argument("--size", type=parse_size, action="append", metavar="COLSxROWS",
                        help="terminal size; repeat for several (default: 80x24 and 120x40)")
    parser.add_argument("--checkout", type=Path, default=ROOT,
                        help="the checkout whose studio is timed (default: this one)")
    parser.add_argument("--frame", action="append", metavar="TEXT",
                        help="text that shows the studio's home screen is drawn (default: "
                             f"{' and '.join(map(repr, STUDIO_FRAME))}, right for games/)")
    parser.add_argument("folder", nargs="?", default=str(ROOT / "games"))
    args = parser.parse_args()
    sizes = args.size or [(80, 24), (120, 40)]
    checkout = args.checkout.resolve()
    studio_frame = tuple(args.frame or STUDIO_FRAME)
    # -P: the current folder is not put on sys.path; PYTHONPATH picks the checkout timed.
    env = terminal_env(pythonpath=checkout)
    studio = [sys.executable, "-P", "-m", "studio", str(Path(args.folder).resolve())]
    with tempfile.TemporaryDirectory(prefix="studio-bench-startup-") as tmp:
        script = Path(tmp) / "minimal_app.py"
        script.write_text(MINIMAL_APP)
        minimal = [sys.executable, "-P", str(script)]
        print(f"studio of {checkout}, {args.runs} runs each, interleaved; python {sys.version.split()[0]}")
        for size in sizes:
            times: dict[str, list[FrameTime]] = {"studio": [], "minimal": []}

            def run(which: str) -> FrameTime:
                if which == "studio":
                    return first_frame(studio, studio_frame, size=size, env=env, cwd=tmp)
                return first_frame(minimal, MINIMAL_FRAME, size=size, env=env, cwd=tmp)

            run("studio"), run("minimal")  # untimed: file cache and bytecode caches warm
            for _ in range(args.runs):
                for which in times:
                    times[which].append(run(which))
            print(f"\n{size[0]}×{size[1]}: start to first frame, median (min–max)")
            for which, label in (("studio", "studio home screen"), ("minimal", "minimal Textual app")):
                wall = [t.seconds * 1000 for t in times[which]]
                cpu = [t.cpu_seconds * 1000 for t in times[which] if t.cpu_seconds is not None]
                used = f"; processor {statistics.median(cpu):4.0f} ms" if cpu else ""
                print(f"  {label:<21} {statistics.median(wall):6.0f} ms  "
                      f"({min(wall):.0f}–{max(wall):.0f}){used}")
            studio_s = statistics.median(t.seconds for t in times["studio"])
            ratio = studio_s / statistics.median(t.seconds for t in times["minimal"])
            paired = statistics.median(s.seconds / m.seconds
                                       for s, m in zip(times["studio"], times["minimal"]))
            print(f"  ratio studio/minimal {ratio:6.2f}×   (median of the run-by-run ratios "
                  f"{paired:.2f}×)")
            if all(t.cpu_seconds for t in times["studio"] + times["minimal"]):
                cpu_ratio = (statistics.median(t.cpu_seconds for t in times["studio"])
                             / statistics.median(t.cpu_seconds for t in times["minimal"]))
                print(f"  processor time ratio {cpu_ratio:6.2f}×   (less swayed by other work "
                      "on the machine)")
            verdict = "meets" if ratio <= TARGET else "MISSES"
            print(f"  target ≤ {TARGET}×: {verdict}")

if __name__ == "__main__":
    main()
