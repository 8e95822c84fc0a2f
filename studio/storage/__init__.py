"""Project storage: TOML files with a ``[project]`` header, canonical and atomic saves.

Never imports Textual or Rich (a test proves it); the CLI and the UI both stand on this. The
names below load with their module when first used; each kind's storage installs itself on
``KINDS`` when any kind is first read (:mod:`studio.storage.kinds`).
"""

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "atomic": ("atomic_write", "backup_path"),
    "errors": ("ProjectError", "format_field_path"),
    "folder": ("create_project", "duplicate_project", "free_path", "move_to_trash",
               "rename_project", "save_new", "scan_folder", "slug"),
    "listing": ("TRASH", "ProjectEntry", "folder_stamp"),
    "kinds": ("KINDS", "KindSpec"),
    "project": ("FileTakenError", "Project", "ProjectHeader", "StaleFileError", "check_project",
                "dumps_project", "file_sha256", "load_project", "loads_project", "new_project",
                "save_project", "validate_name"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    """The package's names load with their module on first use (PEP 562): the home screen's
    first frame needs the listing, not the loaders of every kind (and their engines)."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'studio.storage' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"studio.storage.{module}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from studio.storage.atomic import atomic_write, backup_path
    from studio.storage.errors import ProjectError, format_field_path
    from studio.storage.folder import (
        create_project,
        duplicate_project,
        free_path,
        move_to_trash,
        rename_project,
        save_new,
        scan_folder,
        slug,
    )
    from studio.storage.kinds import KINDS, KindSpec
    from studio.storage.listing import TRASH, ProjectEntry, folder_stamp
    from studio.storage.project import (
        FileTakenError,
        Project,
        ProjectHeader,
        StaleFileError,
        check_project,
        dumps_project,
        file_sha256,
        load_project,
        loads_project,
        new_project,
        save_project,
        validate_name,
    )

__all__ = [
    "FileTakenError",
    "KINDS",
    "TRASH",
    "KindSpec",
    "Project",
    "ProjectEntry",
    "ProjectError",
    "ProjectHeader",
    "StaleFileError",
    "atomic_write",
    "backup_path",
    "check_project",
    "create_project",
    "dumps_project",
    "duplicate_project",
    "file_sha256",
    "folder_stamp",
    "format_field_path",
    "free_path",
    "load_project",
    "loads_project",
    "move_to_trash",
    "new_project",
    "rename_project",
    "save_new",
    "save_project",
    "scan_folder",
    "slug",
    "validate_name",
]
