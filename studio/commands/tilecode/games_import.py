"""``studio import`` for original TileCode games: settings JSON or ``games.ts`` (spec §4.2).

``studio import`` is registered by :mod:`studio.commands.btree.formats`; it calls
:func:`import_tilecode_file` first, which handles the file when it is a TileCode source, so one
command imports every foreign format the studio knows.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from studio.commands import output_target
from studio.engines.tilecode.codec import TilecodeImportError
from studio.engines.tilecode.games_ts import SourceGame, parse_games_ts
from studio.engines.tilecode.importer import ImportResult, import_settings
from studio.engines.tilecode.settings import is_settings_document
from studio.engines.common.limits import MAX_GAME_BYTES
from studio.storage import KINDS, ProjectError, save_project
from studio.storage.folder import free_path
from studio.storage.project import Project
from studio.storage.reading import decode_text, parse_json, read_bounded


def read_settings_document(path: Path) -> dict[str, Any] | None:
    """The parsed file if it is a TileCode settings JSON document, else None.

    Unreadable or non-JSON files give None too, so the caller's own format reports them.
    """
    if path.suffix.lower() != ".json":
        return None
    try:
        document = parse_json(decode_text(read_bounded(path, MAX_GAME_BYTES, "a game to import"),
                                          path), path)
    except ProjectError:
        return None
    return document if is_settings_document(document) else None


def read_games_ts(path: Path) -> list[SourceGame]:
    """The games of a ``games.ts`` file; an error when it holds none."""
    text = decode_text(read_bounded(path, MAX_GAME_BYTES, "a game to import"), path)
    try:
        games = parse_games_ts(text)
    except TilecodeImportError as exc:
        raise ProjectError(f"cannot read this games.ts: {exc}", file=path) from None
    if not games:
        raise ProjectError("no createXxx(prefix) game functions found", file=path,
                           hint="expected the original TileCode games.ts")
    return games


def import_result(document: dict[str, Any], path: Path) -> ImportResult:
    """Decode and convert; import errors become the CLI's :class:`ProjectError`."""
    try:
        return import_settings(document, name=path.stem)
    except TilecodeImportError as exc:
        game = document.get("name")
        what = f"TileCode game {game!r}" if isinstance(game, str) else "TileCode game"
        raise ProjectError(f"cannot import this {what}: {exc}", file=path) from None


def build_project(result: ImportResult) -> Project:
    """The TileCode project of an imported game, checked by the storage validator."""
    from studio.storage.tilecode.kind import game_to_project  # registers the TileCode kind

    project = game_to_project(result.game)
    validate = KINDS["tilecode"].validate
    if validate is not None:
        validate(project.body)
    return project


def _destination(results: list[ImportResult], output: str | None, force: bool, path: Path) -> Path:
    """The file to write (one game) or the folder to write into (several games)."""
    if len(results) == 1:
        return output_target(output, results[0].game.name, force)
    folder = Path(output) if output else Path.cwd()
    if not folder.is_dir():
        raise ProjectError(f"{path.name} holds {len(results)} games; -o must name an existing folder",
                           file=folder, hint="create the folder, or leave out -o to use the current one")
    return folder


def _write(results: list[ImportResult], destination: Path) -> int:
    projects = [build_project(result) for result in results]  # all checked before any is written
    for result, project in zip(results, projects):
        # Several games go into a folder, each under a free name (picked after the previous save).
        target = free_path(destination, result.game.name) if destination.is_dir() else destination
        save_project(project, target)
        for warning in result.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        print(target)
    return 0


def import_tilecode_file(path: Path, output: str | None, force: bool) -> int | None:
    """Import ``path`` if it is a TileCode source (settings JSON or ``.ts``); None otherwise.

    A ``games.ts`` with several games writes one project per game, into the folder ``output``
    (default: the current folder).
    """
    if path.suffix.lower() == ".ts":
        results = [import_result(game.document, path) for game in read_games_ts(path)]
    else:
        document = read_settings_document(path)
        if document is None:
            return None
        results = [import_result(document, path)]
    return _write(results, _destination(results, output, force, path))
