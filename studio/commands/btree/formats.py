"""``studio export`` and ``studio expand``, and the trrbt part of ``studio import`` (``importing``):
trrbt games in and out of the studio."""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

from studio.commands import command, output_target
from studio.engines.btree import BtreeError, Compiled, export_json
from studio.engines.btree.model.export import dumps_json
from studio.storage import ProjectError, save_project, slug
from studio.storage.btree.trrbt import (
    as_project_error, distinct_name, import_game, import_warnings, load_compiled as _load_compiled,
    load_game,
)
from studio.storage.folder import SUFFIX

__all__ = ["load_compiled"]


def load_compiled(path: str | Path, missing_links: str | None = None) -> Compiled:
    """Compile a btree project (.toml) or trrbt game (.yaml/.yml/.json); errors as ProjectError."""
    try:
        return _load_compiled(path, missing_links)
    except BtreeError as exc:
        raise as_project_error(exc, Path(path)) from None


def _write_output(text: str, output: str | None, force: bool = True) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    target = Path(output)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ProjectError(f"cannot write: {exc.strerror or exc}", file=target) from None
    print(target)


def missing_links_option(parser: argparse.ArgumentParser, default: str | None) -> None:
    parser.add_argument(
        "--missing-links", choices=["error", "empty"], default=default,
        help="a link or x-file whose target/file is missing: an error, or expand to nothing "
        "as the reference does" + (" (default: error)" if default else " (default: the project's setting)"),
    )


# ------------------------------------------------------------------------------------ import


def import_trrbt_file(path: Path, output: str | None, force: bool, missing_links: str) -> int:
    """``studio import`` of a trrbt YAML/JSON game: one self-contained btree project."""
    try:
        project, compiled = import_game(path, missing_links)
    except BtreeError as exc:
        raise as_project_error(exc, path) from None
    plain = Path(f"{slug(project.name)}{SUFFIX}")
    if output is None and not _imported_from(plain, path.name):
        # The same file imported again is the same project: refused below unless --force,
        # not a second copy under another name. Another file of the game is named after it.
        distinct_name(project, path, Path.cwd())
    target = output_target(output, project.name, force)
    save_project(project, target)
    for warning in import_warnings(compiled):
        print(f"warning: {warning}", file=sys.stderr)
    print(target)
    return 0


def _imported_from(target: Path, source: str) -> bool:
    """Whether the project file ``target`` says it was imported from a file named ``source``."""
    try:
        if target.stat().st_size > 16 << 20:  # no project is this big: not ours to read whole
            return False
        with target.open("rb") as file:
            provenance = tomllib.load(file).get("provenance", {})
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False
    return isinstance(provenance, dict) and provenance.get("source") == source


# ------------------------------------------------------------------------------------ export


def _export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", metavar="PROJECT", help="a btree project (.toml) or a trrbt game")
    parser.add_argument("--format", choices=["trrbt-json"], default="trrbt-json", help="output format")
    parser.add_argument("-o", "--output", metavar="OUT.json", help="file to write (default: standard output)")
    parser.add_argument("--compiled", action="store_true",
                        help="write the expanded plain tree (self-contained) instead of the authored one")
    missing_links_option(parser, None)


@command("export", _export_arguments)
def _export(args: argparse.Namespace) -> int:
    path = Path(args.project)
    try:
        game = load_game(path)
        if args.compiled:
            compiled = load_compiled(path, args.missing_links)
            text = export_json(game, compiled.tree)
        else:
            text = export_json(game)
    except BtreeError as exc:
        raise as_project_error(exc, path) from None
    _write_output(text, args.output)
    return 0


# ------------------------------------------------------------------------------------ expand


def _expand_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAMEFILE|PROJECT", help="a trrbt game or a btree project")
    parser.add_argument("-o", "--output", metavar="OUT.json", help="file to write (default: standard output)")
    missing_links_option(parser, None)


@command("expand", _expand_arguments)
def _expand(args: argparse.Namespace) -> int:
    compiled = load_compiled(args.game, args.missing_links)
    _write_output(dumps_json(compiled.to_json()), args.output)
    return 0
