"""The ``studio`` command: the UI, and everything the UI does, headless.

Exit codes: 0 ok; 1 bad input (one line on stderr, no traceback); 2 usage.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import gc
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from studio import __version__
from studio.commands import INDEX, load, load_all  # noqa: F401  (load_all: every command's module, for tests)
from studio.engines.common.inert import inert
from studio.storage.errors import ProjectError

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2

DESCRIPTION = """\
A terminal studio for tile games: TileCode rule games, behaviour-tree games and Haunted Tiles
AI matches. Run without a command to open the studio on a folder (default ./games) or a file."""


class InertStream:
    """A text stream that writes control characters as visible escapes (newlines and tabs kept).

    The commands print names and messages from files (a project's name, a team's, what an AI
    printed, an error quoting a file name): on a terminal those would be obeyed, not shown.
    Everything else (``fileno``, ``encoding``, ``buffer``...) is the wrapped stream's.
    """

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(inert(text, log=True))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def write_control(self, sequence: str) -> None:
        """The command's own terminal control (a progress line drawn over itself), as is."""
        self._stream.write(sequence)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextlib.contextmanager
def inert_output() -> Iterator[None]:
    """Make the commands' output inert where a person reads it: stderr always (it carries only
    messages), stdout on a terminal. Piped or redirected, stdout stays exact, because it may be
    data for a program (``export``, ``expand``, ``trace``, ``--json``)."""
    saved = sys.stdout, sys.stderr
    sys.stderr = InertStream(sys.stderr)
    if sys.stdout.isatty():
        sys.stdout = InertStream(sys.stdout)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


WATCH_HELP = ("follow a Haunted Tiles tournament or match live, as it is played by another "
              "studio (read only: the spectator screen)")
UI_COMMANDS = ("open", "watch")
"""The commands that open the studio's screens (handled here: commands/ has no UI)."""

USAGE = "%(prog)s [--theme {dark,light,ansi}] [FOLDER|FILE]\n       %(prog)s COMMAND [ARGS ...]"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with a one-line reason
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``studio``; only ``command``'s module is loaded for its arguments (every
    command's help is in the index)."""
    parser = _Parser(
        prog="studio",
        usage=USAGE,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'studio COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"studio {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, prog="studio")
    ui = sub.add_parser("open", help="open the studio on a folder or a project file (the default)")
    _ui_arguments(ui)
    watch = sub.add_parser("watch", help=WATCH_HELP, description=WATCH_HELP)
    watch.add_argument("project", metavar="PROJECT", help="a Haunted Tiles project file")
    watch.add_argument("tournament", nargs="?", metavar="TOURNAMENT",
                       help="its tournament to follow (default: whatever it plays now, moving "
                            "on to each new run or match)")
    watch.add_argument("--theme", choices=["dark", "light", "ansi"], default=None,
                       help="colour theme; 'ansi' uses only the terminal's own 16 colours")
    for name, (help_text, _module) in INDEX.items():
        parser_of = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            load(name)[0](parser_of)
    return parser


def _ui_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path", nargs="?", default="games", metavar="FOLDER|FILE",
        help="a folder of projects or one project file (default: ./games)",
    )
    parser.add_argument(
        "--theme", choices=["dark", "light", "ansi"], default=None,
        help="colour theme; 'ansi' uses only the terminal's own 16 colours",
    )


def _run_watch(args: argparse.Namespace) -> int:
    from studio.sessions.haunted.tournament import feed_file, tournament_folder
    from studio.storage import load_project

    path = Path(args.project)
    project = load_project(path)  # its errors now, in the shell, rather than in a dialog
    if project.kind != "haunted":
        raise ProjectError("only Haunted Tiles tournaments and matches can be watched", file=path)
    name = args.tournament
    if name:
        names = [t.get("name") for t in project.body.get("tournament", [])
                 if isinstance(t, dict)]
        if name not in names and not feed_file(tournament_folder(path.parent, name)).exists():
            listed = ", ".join(repr(n) for n in names) or "none yet"
            raise ProjectError(f"no tournament named {name!r}", file=path,
                               hint=f"its tournaments: {listed}")
    return _run_ui(args, watch=name or "")


def _run_ui(args: argparse.Namespace, watch: str | None = None) -> int:
    path = Path(args.path if watch is None else args.project)
    if not path.exists():
        raise ProjectError("no such file or folder", file=path,
                           hint="check the path; 'studio --help' lists the commands")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # Without a terminal the screen would be escape codes in a pipe, waiting for keys that
        # never come (for instance `ssh host studio` without -t, or a ForceCommand account).
        print("studio: the studio needs a terminal (run it in one; over SSH add -t: "
              "ssh -t HOST studio FOLDER)", file=sys.stderr)
        return EXIT_BAD_INPUT
    # Start-up makes hundreds of thousands of objects that all live on (modules, classes, the
    # first screen), and the collector walked them again and again as they came: some 60 ms of
    # a 0.5 s start. It is back on once the first frame is drawn (StudioApp's freeze_startup).
    gc.disable()
    try:
        from studio.app import StudioApp  # the UI loads only when it is wanted

        app = StudioApp(path, theme=args.theme, freeze_startup=True, watch=watch)
        app.run()
    finally:
        gc.enable()
    if app.recovered:
        print("studio: it stopped on an unexpected error (above); unsaved work was kept in:\n"
              + "\n".join(f"  {inert(str(kept))}" for kept in app.recovered), file=sys.stderr)
    return app.return_code or EXIT_OK


# ---------------------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # `studio PATH` is short for `studio open PATH`: a first word that is no command is a path,
    # unless there is no such path and it reads as a mistyped command.
    if argv and argv[0] not in INDEX and argv[0] not in UI_COMMANDS and not argv[0].startswith("-"):
        problem = _not_a_command(argv)
        if problem:
            _Parser(prog="studio", usage=USAGE).error(problem)
    if not argv or (argv[0] not in INDEX and argv[0] not in UI_COMMANDS
                    and not argv[0].startswith("-")):
        argv.insert(0, "open")
    elif argv[0].startswith("--theme"):
        argv.insert(0, "open")
    if argv[0] in UI_COMMANDS:  # the studio itself draws with Textual, which keeps its own output
        return _main(argv)
    with inert_output():
        return _main(argv)


def _not_a_command(argv: list[str]) -> str:
    """Why ``argv`` (whose first word is no command) cannot be ``studio open PATH``: its first
    word is no path and looks like a mistyped command, or more words follow it; else empty."""
    word = argv[0]
    if Path(word).exists():
        return ""
    commands = [*UI_COMMANDS, *INDEX]
    near = difflib.get_close_matches(word, commands, n=3, cutoff=0.6)
    if near:
        return (f"unknown command {word!r} (did you mean {' or '.join(map(repr, near))}?); "
                "run 'studio --help' for the commands")
    if len(argv) > 1 and not argv[1].startswith("-"):  # `studio PATH --theme ansi` is a path
        return f"unknown command {word!r}; run 'studio --help' for the commands"
    return ""


def _main(argv: list[str]) -> int:
    args = build_parser(argv[0]).parse_args(argv)
    ui = {"open": _run_ui, "watch": _run_watch}
    run = ui[args.command] if args.command in ui else load(args.command)[1]
    try:
        return run(args)
    except ProjectError as exc:
        print(f"studio: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
