"""``studio new-ai NAME [--js] [-o FILE]``: write a commented starter AI for Haunted Tiles."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.commands import command
from studio.sessions.haunted.ai_files import ai_stem, starter_text
from studio.storage import ProjectError


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="the AI's name (also the file name unless -o is given)")
    parser.add_argument("--js", action="store_true", help="write JavaScript instead of Python")
    parser.add_argument("-o", "--output", metavar="FILE", help="where to write (default NAME.py/.js)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")


@command("new-ai", _arguments)
def _new_ai(args: argparse.Namespace) -> int:
    suffix = ".js" if args.js else ".py"
    target = Path(args.output) if args.output else Path(ai_stem(args.name) + suffix)
    if target.exists() and not args.force:
        raise ProjectError("the file exists", file=target, hint="choose another name or add --force")
    try:
        target.write_text(starter_text(args.name, target.name, args.js), encoding="utf-8")
    except OSError as exc:
        raise ProjectError(f"cannot write: {exc.strerror or exc}", file=target) from None
    print(f"wrote {target}; try it: studio match {target} builtin:greedy", file=sys.stderr)
    return 0
