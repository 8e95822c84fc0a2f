"""Project files: one TOML file with a ``[project]`` header and a body defined by its kind."""

from __future__ import annotations

import copy
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_TOML_BYTES
from studio.storage.atomic import atomic_write, folder_lock
from studio.storage.errors import ProjectError
from studio.storage.kinds import KINDS, Body
from studio.storage.names import check_name_characters
from studio.storage.reading import read_bounded
from studio.storage.tomlio import decode_utf8, dumps, locate_field, parse_toml

HEADER_KEYS = ("kind", "name", "format")
MAX_NAME_LENGTH = 80


@dataclass
class ProjectHeader:
    """The ``[project]`` table."""

    kind: str
    """``tilecode``, ``btree`` or ``haunted``."""
    name: str
    """The name people see; the file name is derived from it on creation."""
    format: int
    """Schema version of the body."""


@dataclass
class Project:
    """A loaded project: its header, its body tables (document order) and where it came from."""

    header: ProjectHeader
    body: Body = field(default_factory=dict)
    path: Path | None = None
    """The file it was loaded from or last saved to."""
    migrated_from: int | None = None
    """The format the file had when it was older than the current one."""
    disk_sha256: str | None = None
    """sha256 of the file's bytes when it was loaded or last saved: the stale-save check
    compares it with the file on disk, so a save never silently overwrites someone else's."""

    @property
    def kind(self) -> str:
        return self.header.kind

    @property
    def name(self) -> str:
        return self.header.name

    def document(self) -> dict[str, Any]:
        """The whole TOML document, header first."""
        header = {"kind": self.header.kind, "name": self.header.name, "format": self.header.format}
        return {"project": header, **self.body}

    def summary(self) -> dict[str, Any]:
        """Kind, name and what the kind's engine says about the body."""
        return {
            "kind": self.kind,
            "name": self.name,
            "format": self.header.format,
            **KINDS[self.kind].summarize(self.body),
        }


def validate_name(name: Any, field_path: tuple[str | int, ...] = ("project", "name")) -> str:
    """Check a project name; returns it stripped.

    Raises:
        ProjectError: not a string, empty, too long, or holding a control or bidi character.
    """
    if not isinstance(name, str):
        raise ProjectError("the project name must be a string", field_path=field_path)
    stripped = name.strip()
    if not stripped:
        raise ProjectError("the project name is empty", field_path=field_path, hint="give it a name")
    if len(stripped) > MAX_NAME_LENGTH:
        raise ProjectError(
            f"the project name is longer than {MAX_NAME_LENGTH} characters", field_path=field_path
        )
    return check_name_characters(stripped, "project name", field_path)


EMPTY = "empty"
"""The template every kind has: the kind's own new-project body."""


def new_project(kind: str, name: str, template: str = EMPTY) -> Project:
    """A new project of ``kind``: the kind's starter body, or one of its templates.

    Raises:
        ProjectError: an unknown kind or a template the kind does not have (the hint lists
            the ones it has).
    """
    if not isinstance(kind, str) or kind not in KINDS:
        raise ProjectError(
            f"unknown kind {kind!r}", hint=f"use one of: {', '.join(KINDS)}"
        )
    spec = KINDS[kind]
    header = ProjectHeader(kind, validate_name(name), spec.current_format)
    if template == EMPTY:
        return Project(header, spec.new_body(name))
    if template not in spec.templates or spec.template_body is None:
        raise ProjectError(f"{spec.title} has no template {template!r}",
                           hint=f"use one of: {', '.join((EMPTY, *spec.templates))}")
    return Project(header, spec.template_body(template))


def _header(document: dict[str, Any]) -> ProjectHeader:
    table = document.get("project")
    if table is None:
        raise ProjectError(
            "the file has no [project] table",
            field_path=("project",),
            hint="a studio project starts with [project] holding kind, name and format",
        )
    if not isinstance(table, dict):
        raise ProjectError("[project] must be a table", field_path=("project",))
    for key in table:
        if key not in HEADER_KEYS:
            raise ProjectError(
                f"unknown key {key!r} in [project]",
                field_path=("project", key),
                hint=f"[project] holds only {', '.join(HEADER_KEYS)}",
            )
    for key in HEADER_KEYS:
        if key not in table:
            raise ProjectError(f"[project] has no {key!r}", field_path=("project",))
    kind = table["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise ProjectError(
            f"unknown kind {kind!r}",
            field_path=("project", "kind"),
            hint=f"use one of: {', '.join(KINDS)}",
        )
    name = validate_name(table["name"])
    version = table["format"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ProjectError(
            "format must be a whole number, 1 or more", field_path=("project", "format")
        )
    return ProjectHeader(kind, name, version)


def _migrate(header: ProjectHeader, body: Body) -> tuple[ProjectHeader, Body, int | None]:
    spec = KINDS[header.kind]
    if header.format > spec.current_format:
        raise ProjectError(
            f"this {spec.title} project has format {header.format}, but this studio reads "
            f"formats up to {spec.current_format}",
            field_path=("project", "format"),
            hint="it was written by a newer studio: upgrade the studio to open it",
        )
    if header.format == spec.current_format:
        return header, body, None
    original = header.format
    version = original
    while version < spec.current_format:
        step = spec.migrations.get(version)
        if step is None:
            raise ProjectError(
                f"no migration from format {version} of {spec.title} projects",
                field_path=("project", "format"),
                hint="this format was never released; check the file's format value",
            )
        body = step(copy.deepcopy(body))
        version += 1
    return ProjectHeader(header.kind, header.name, version), body, original


def loads_project(text: str, file: Path | None = None) -> Project:
    """Parse and validate project text. Raises :class:`ProjectError` and nothing else."""
    document = parse_toml(text, file)
    try:
        header = _header(document)
        body = {k: v for k, v in document.items() if k != "project"}
        header, body, migrated_from = _migrate(header, body)
        validate = KINDS[header.kind].validate
        if validate is not None:
            validate(body)
    except ProjectError as exc:
        line = locate_field(text, exc.field_path) if exc.field_path else None
        raise exc.with_file(file, line) from None
    return Project(header, body, path=file, migrated_from=migrated_from)


def read_text_file(path: Path, cap: int = MAX_TOML_BYTES, what: str = "a project file") -> str:
    """A UTF-8 text file's contents, ``cap`` bytes at most; every failure is a
    :class:`ProjectError` naming the file."""
    return decode_utf8(read_bounded(path, cap, what), path)


class StaleFileError(ProjectError):
    """The file changed on disk (or went away) since the project was loaded or saved."""

    def __init__(self, file: Path, missing: bool) -> None:
        if missing:
            message = "the file was deleted or renamed since it was opened"
            hint = "save it here again, save it under another name, or cancel"
        else:
            message = "the file changed on disk since it was opened (another session or an editor)"
            hint = "reload it, save yours under another name, or overwrite the other changes"
        super().__init__(message, file=file, hint=hint)
        self.missing = missing


class FileTakenError(ProjectError):
    """A new file was to be written, and a file of that name exists (maybe made a moment ago)."""

    def __init__(self, file: Path) -> None:
        super().__init__("a file of that name exists", file=file, hint="choose another name")


def file_sha256(path: Path) -> str | None:
    """sha256 of a file's bytes, or None when there is no such file.

    Raises:
        ProjectError: the file cannot be read, or is no longer a project file (a FIFO, a file
            over the size cap): it is then not the file that was loaded either.
    """
    if not os.path.exists(path):
        return None
    return hashlib.sha256(read_bounded(Path(path), MAX_TOML_BYTES, "a project file")).hexdigest()




def load_project(path: str | Path) -> Project:
    """Read a project file. Raises :class:`ProjectError` and nothing else; never writes."""
    path = Path(path)
    data = read_bounded(path, MAX_TOML_BYTES, "a project file")
    project = loads_project(decode_utf8(data, path), path)
    project.disk_sha256 = hashlib.sha256(data).hexdigest()
    return project


def check_project(project: Project) -> list[str]:
    """The kind's deeper checks (``studio validate``): returns warnings as text.

    Raises:
        ProjectError: the first error, naming the file and, where it can be found, the line.
    """
    check = KINDS[project.kind].check
    if check is None:
        return []
    try:
        return check(project.body)
    except ProjectError as exc:
        line = None
        if exc.field_path and project.path is not None:
            try:
                line = locate_field(read_text_file(project.path), exc.field_path)
            except ProjectError:
                line = None
        raise exc.with_file(project.path, line) from None


def dumps_project(project: Project) -> str:
    """Canonical TOML text of a project."""
    return dumps(project.document())


def save_project(project: Project, path: str | Path | None = None, *,
                 check_stale: bool = False, exclusive: bool = False) -> Path:
    """Write a project atomically, keeping the previous file as ``NAME.toml.bak``.

    Args:
        project: the project; its ``path`` and ``disk_sha256`` are updated on success.
        path: where to write (default: ``project.path``).
        check_stale: refuse to overwrite ``project.path`` when the file on disk is no longer the
            one loaded or last saved (changed by another session or an editor, or gone). The
            check and the write happen under a lock on the folder, so two sessions saving at once
            cannot both pass it.
        exclusive: write a new file only: refuse when ``path`` exists (save as, new, duplicate).

    Returns:
        The path written.

    Raises:
        StaleFileError: with ``check_stale``, the file changed or went away; nothing written.
        FileTakenError: with ``exclusive``, the file exists; nothing written.
        ProjectError: the file cannot be written; the old file is intact.
    """
    target = Path(path) if path is not None else project.path
    if target is None:
        raise ProjectError("the project has no file yet", hint="give a path to save to")
    data = dumps_project(project).encode("utf-8")
    with folder_lock(target.parent):
        if check_stale and project.disk_sha256 is not None and target == project.path:
            on_disk = file_sha256(target)
            if on_disk != project.disk_sha256:
                raise StaleFileError(target, missing=on_disk is None)
        try:
            atomic_write(target, data, backup=True, exclusive=exclusive)
        except FileExistsError:
            raise FileTakenError(target) from None
        except OSError as exc:
            raise ProjectError(f"cannot save: {exc.strerror or exc}", file=target) from None
    project.path = target
    project.disk_sha256 = hashlib.sha256(data).hexdigest()
    return target
