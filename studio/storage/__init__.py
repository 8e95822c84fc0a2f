"""Project storage: TOML files with a ``[project]`` header, canonical and atomic saves.

Never imports Textual or Rich (a test proves it); the CLI and the UI both stand on this.
"""

from studio.storage.atomic import atomic_write, backup_path
from studio.storage.errors import ProjectError, format_field_path
from studio.storage.folder import (
    TRASH,
    ProjectEntry,
    create_project,
    duplicate_project,
    folder_stamp,
    free_path,
    move_to_trash,
    rename_project,
    save_new,
    scan_folder,
    slug,
)
from studio.storage.kinds import KINDS, KindSpec
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

# Engine storage modules extend their KindSpec on import; import them here so that every
# caller sees the complete registry whatever it imported first.
from studio.storage.btree import kind as _btree  # noqa: E402,F401  (registers KINDS["btree"])
from studio.storage.tilecode import kind as _tilecode  # noqa: E402,F401  (registers KINDS["tilecode"])
from studio.storage.haunted import kind as _haunted  # noqa: E402,F401  (registers KINDS["haunted"])

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
