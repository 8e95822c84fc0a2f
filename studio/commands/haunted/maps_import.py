"""``studio import maps.json --into PROJECT.toml``: the original game's maps into a Haunted
Tiles project (spec haunted.md §4.2).

``studio import`` is registered by :mod:`studio.commands.btree.formats`; it calls
:func:`import_haunted_maps` first, which handles the file when it is an original ``maps.json``.
The maps are added to an existing project (a ``maps.json`` holds maps only: no teams, no match
settings), under fresh names where they clash, and the project is saved with a backup.
"""

from __future__ import annotations

from pathlib import Path

from studio.storage import ProjectError, load_project, save_project
from studio.storage.haunted.maps import (
    import_maps, is_maps_json, read_json_document, read_maps_json,
)
from studio.storage.haunted.project import model_body, project_model


def is_maps_json_file(path: Path) -> bool:
    """Whether ``path`` is a JSON file shaped like the original ``maps.json``."""
    if path.suffix.lower() != ".json":
        return False
    try:
        return is_maps_json(read_json_document(path))
    except ProjectError:
        return False  # the other formats' readers say what is wrong with it


def import_haunted_maps(path: Path, into: str | None) -> int | None:
    """Add the maps of ``path`` to the project ``into``; None when ``path`` is no ``maps.json``
    (and no project was given), so the other formats get their turn.

    Raises:
        ProjectError: no project given for a maps.json, the project is not a Haunted Tiles one,
            or a file cannot be read; nothing is written then.
    """
    if not is_maps_json_file(path):
        if into is None:
            return None
        raise ProjectError("--into adds the maps of an original maps.json to a project; "
                           "this file is not one", file=path)
    if into is None:
        raise ProjectError("a maps.json holds maps only: name the project to add them to",
                           file=path, hint=f"studio import {path} --into PROJECT.toml")
    project = load_project(into)
    if project.kind != "haunted":
        raise ProjectError(f"maps go into a Haunted Tiles project, not a {project.kind} one",
                           file=Path(into))
    model, names = import_maps(project_model(project), read_maps_json(path))
    project.body = model_body(model)
    target = save_project(project, check_stale=True)
    print(f"{target}: added {len(names)} map{'s' if len(names) != 1 else ''}: "
          + ", ".join(names))
    return 0
