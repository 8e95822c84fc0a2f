#!/usr/bin/env python3
"""Write docs/cli.md, the reference of every ``studio`` command's options, from the parser itself.

    .venv/bin/python tools/cli_reference.py          # rewrite docs/cli.md
    .venv/bin/python tools/cli_reference.py --check  # exit 1 if docs/cli.md is out of date

The page is built from the argparse actions, not from ``--help`` text, so it does not depend on
the terminal's width; ``tests/test_cli_reference.py`` regenerates it in memory and fails when
the file and the parser drift apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "cli.md"
COMMAND = ".venv/bin/python tools/cli_reference.py"

HEADER = f"""\
# `studio` command-line reference

Every command and every option, as `studio COMMAND --help` has them. Generated from the parser
by `{COMMAND}`; do not edit by hand (a test fails when this page and the parser differ).
The README's "The command line" section and each kind's section show the commands in use.

Exit codes, for every command: `0` ok, `1` bad input (one line on stderr), `2` usage.
"""


def _sys_path() -> None:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _flags(action: argparse.Action) -> str:
    if not action.option_strings:
        return _cell(f"`{action.metavar or action.dest}`")
    if action.nargs == 0:
        return ", ".join(f"`{flag}`" for flag in action.option_strings)
    if action.metavar is not None:
        metavar = action.metavar if isinstance(action.metavar, str) else " ".join(action.metavar)
    elif action.choices is not None:
        metavar = "{" + ",".join(map(str, action.choices)) + "}"
    else:
        metavar = action.dest.upper()
    if action.nargs in ("*", "+"):
        metavar = f"{metavar} ..."
    return _cell(", ".join(f"`{flag} {metavar}`" for flag in action.option_strings))


def _default(action: argparse.Action) -> str:
    default = action.default
    if action.nargs == 0 or default in (None, argparse.SUPPRESS, [], ""):
        return ""
    if isinstance(default, Path) and default.is_relative_to(Path.home()):
        # Under the home folder it is written from "~", so the page is the same for everyone.
        default = f"~/{default.relative_to(Path.home()).as_posix()}"
    return _cell(f"`{default}`")


def _help(parser: argparse.ArgumentParser, action: argparse.Action, group: str) -> str:
    text = action.help or ""
    if "%" in text:  # the same expansion --help does (%(default)s and the like)
        text = parser._get_formatter()._expand_help(action)  # noqa: SLF001
    if action.choices is not None and action.metavar is not None:
        text += f" (one of: {', '.join(map(str, action.choices))})"
    if group:
        text = f"({group}) {text}"
    return _cell(text)


def _groups(parser: argparse.ArgumentParser) -> dict[int, str]:
    """The title of each action's own group, where it is not argparse's two default groups."""
    plain = {parser._positionals, parser._optionals}  # noqa: SLF001
    return {
        id(action): group.title or ""
        for group in parser._action_groups if group not in plain  # noqa: SLF001
        for action in group._group_actions  # noqa: SLF001
    }


def _section(name: str, parser: argparse.ArgumentParser, summary: str) -> list[str]:
    lines = [f"## `studio {name}`", ""]
    if summary:
        lines += [_cell(summary[0].upper() + summary[1:]) + ".", ""]
    rows = [
        action for action in parser._actions  # noqa: SLF001
        if action.help is not argparse.SUPPRESS
        and not isinstance(action, argparse._HelpAction)  # noqa: SLF001
    ]
    if not rows:
        return [*lines, "No options.", ""]
    lines += ["| argument | default | meaning |", "|---|---|---|"]
    groups = _groups(parser)
    lines += [
        f"| {_flags(a)} | {_default(a)} | {_help(parser, a, groups.get(id(a), ''))} |" for a in rows
    ]
    return [*lines, ""]


def render() -> str:
    """The text of docs/cli.md for the parser as it is now."""
    _sys_path()
    from studio.cli import UI_COMMANDS, build_parser
    from studio.commands import INDEX

    sections = [HEADER]
    for name in [*UI_COMMANDS, *INDEX]:
        parser = build_parser(name)
        sub = next(a for a in parser._actions  # noqa: SLF001
                   if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
        summary = {a.dest: a.help for a in sub._choices_actions}[name]  # noqa: SLF001
        sections.append("\n".join(_section(name, sub.choices[name], summary or "")))
    return "\n".join(sections).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"docs/cli.md is out of date: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
