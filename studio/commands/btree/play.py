"""``studio run`` / ``trace`` for behaviour-tree games, in the plain terminal (``solve``: see
``btree_solve``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from studio.commands import command
from studio.commands.btree.formats import load_compiled
from studio.engines.btree.runtime.engine import Engine
from studio.engines.btree.play.seats import parse_seat
from studio.engines.btree.play.session import AutoMove, GameOver, PlaySession, seat_rng
from studio.engines.btree.model.text import board_lines, choice_text, result_text
from studio.engines.btree.runtime.trace import run_trace, write_jsonl
from studio.storage import ProjectError, load_project

__all__ = ["SEAT_KINDS", "engine_for", "parse_seats", "play", "project_body", "seat_rng"]

SEAT_KINDS = ("human", "random", "first", "computer")  # the terminal runner's (no solver seat yet)
SEAT_HINT = "human, random, first or computer[:SECONDS]"


def runner_seat(text: Any) -> bool:
    """Whether the terminal runner plays this seat (``computer:0.5`` included)."""
    try:
        kind, _ = parse_seat(text)
    except ValueError:
        return False
    return kind in SEAT_KINDS


def parse_seats(values: list[str] | None) -> dict[str, str]:
    """``["X=random", "O=computer:0.5"]`` -> ``{"X": "random", "O": "computer:0.5"}``."""
    seats: dict[str, str] = {}
    for value in values or []:
        pid, sep, kind = value.partition("=")
        if not sep or not runner_seat(kind):
            raise ProjectError(f"bad --player {value!r}", hint=f"write PID=SEAT with SEAT {SEAT_HINT}")
        seats[pid] = kind
    return seats


class HumanChooser:
    """Reads choice numbers from a text stream; ``u`` undoes (-1), ``q`` quits (None)."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin, self.stdout = stdin, stdout

    def __call__(self, engine: Engine) -> int | None:
        count = len(engine.choices)
        while True:
            self.stdout.write(f"choice (1-{count}, u undo, q quit)> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                return None
            answer = line.strip().lower()
            if answer == "q":
                return None
            if answer == "u":
                return -1
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer) - 1
            self.stdout.write(f"type a number from 1 to {count}, u or q\n")


def show_board(engine: Engine, out: TextIO, display: dict[str, Any]) -> None:
    lines = board_lines(
        engine.board_dict(), display.get("show_hidden", False), display.get("cell_width", 0),
        display.get("glyphs"),
    )
    out.write("\n".join(lines) + "\n")


def show_wait(engine: Engine, out: TextIO, display: dict[str, Any]) -> None:
    show_board(engine, out, display)
    out.write(f"player {engine.choice_player} to move:\n")
    for number, choice in enumerate(engine.choices, start=1):
        out.write(f"  {number:>2}. {choice_text(choice.to_json())}\n")


def play(
    session: PlaySession,
    stdin: TextIO,
    out: TextIO,
    max_choices: int | None = None,
    display: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """Play to the end (or until a human quits); returns the result, None if quit.

    Seats, undo and the random seats' choices are the session's (the play screen uses the same),
    this loop only prints and reads. ``display`` is the project's ``[display]`` table (glyphs,
    hidden tiles, cell width).
    """
    display = display or {}
    human = HumanChooser(stdin, out)
    engine = session.engine
    made = 0
    while True:
        wait = session.advance(show_displays=False)
        if isinstance(wait, GameOver):
            show_board(engine, out, display)
            return wait.result
        if max_choices is not None and made >= max_choices:
            out.write(f"stopped after {made} choices (--max-choices)\n")
            return None
        if isinstance(wait, AutoMove):
            note = f" — {wait.note}" if wait.note else ""
            out.write(f"player {wait.player} ({wait.seat}): {choice_text(wait.choice.to_json())}{note}\n")
            made += 1  # applied by the next advance()
            continue
        show_wait(engine, out, display)
        index = human(engine)
        if index is None:
            return None
        if index == -1:
            if not session.undo():
                out.write("nothing to undo\n")
            continue
        session.choose(index)
        made += 1


def project_body(path: str) -> dict[str, Any]:
    """The body of a btree project; empty for trrbt game files, which carry no settings."""
    return load_project(path).body if str(path).endswith(".toml") else {}


def _seed(args: argparse.Namespace, body: dict[str, Any]) -> int:
    return args.seed if args.seed is not None else int(body.get("btree", {}).get("seed", 0))


def engine_for(args: argparse.Namespace, body: dict[str, Any]) -> tuple[Engine, int]:
    compiled = load_compiled(args.project, getattr(args, "missing_links", None))
    engine = Engine(compiled)
    seed = _seed(args, body)
    engine.seed(seed)
    return engine, seed


def run_btree(args: argparse.Namespace) -> int:
    body = project_body(args.project)
    compiled = load_compiled(args.project, getattr(args, "missing_links", None))
    seats = {str(pid): kind for pid, kind in body.get("seats", {}).items() if runner_seat(kind)}
    seats.update(parse_seats(args.player))
    # Display waits are cleared at once without a budget reset, as this runner always did.
    session = PlaySession(compiled, _seed(args, body), seats, display_reset=False)
    display = body.get("display", {})
    result = play(session, sys.stdin, sys.stdout, args.max_choices, display)
    print(result_text(result) if result is not None else "Game stopped")
    return 0


# ------------------------------------------------------------------------------------ trace


def _trace_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT|GAMEFILE",
                        help="a btree project, a trrbt YAML/JSON game or an expanded JSON file")
    parser.add_argument("--seed", type=int, default=5, help="engine seed (default 5, as run a)")
    parser.add_argument("--chooser", choices=["a", "b"], default="a", help="choice rule (default a)")
    parser.add_argument("--lcg-seed", type=int, default=20250101, help="rule b's LCG seed")
    parser.add_argument("--max-waits", type=int, default=60, metavar="K")
    parser.add_argument("--max-displays", type=int, default=200, metavar="D")
    parser.add_argument("--no-display-boards", action="store_true",
                        help="leave the board out of display lines (as run b)")
    parser.add_argument("--missing-links", choices=["error", "empty"], default=None)
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")


@command("trace", _trace_arguments)
def _trace(args: argparse.Namespace) -> int:
    compiled = load_compiled(args.project, args.missing_links)
    name = Path(args.project).with_suffix("").as_posix().replace("/", "__")
    lines = run_trace(
        compiled.to_json(), engine_seed=args.seed, chooser=args.chooser, lcg_seed=args.lcg_seed,
        max_waits=args.max_waits, max_displays=args.max_displays,
        display_boards=not args.no_display_boards, game=str(args.project),
        expanded=f"expanded/{name}.json",
    )
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as out:
                write_jsonl(lines, out)
        except OSError as exc:
            raise ProjectError(f"cannot write: {exc.strerror or exc}", file=Path(args.output)) from None
    else:
        write_jsonl(lines, sys.stdout)
    return 0
