"""The one error type of project storage: where the problem is, what it is, what to do."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

FieldPath = tuple[str | int, ...]


def format_field_path(path: FieldPath) -> str:
    """Render a field path the way a person would look for it in the file.

    ``("rules", 3, "tiles", 0, "col")`` becomes ``rules[3].tiles[0].col``.
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


@dataclass
class ProjectError(Exception):
    """A project file could not be read, validated or written.

    Every storage failure surfaces as this exception, so callers (CLI, UI) need one handler.
    """

    message: str
    """What is wrong, in one sentence."""
    file: Path | None = None
    """The file concerned, when there is one."""
    line: int | None = None
    """1-based line, for syntax errors or when a field could be located."""
    column: int | None = None
    """1-based column, for syntax errors."""
    field_path: FieldPath = field(default_factory=tuple)
    """Where in the document a schema error is, e.g. ``("project", "kind")``."""
    hint: str = ""
    """What the user can do about it."""

    def __post_init__(self) -> None:
        super().__init__(self.message)

    @property
    def location(self) -> str:
        """``file:line:column`` (as far as known), then the field path."""
        where = str(self.file) if self.file else "<text>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        if self.field_path:
            where += f": {format_field_path(self.field_path)}"
        return where

    def __str__(self) -> str:
        # Named by its place only when it has one: "<text>: the game has no player '9'" named
        # a file that is not there.
        plain = self.file is None and self.line is None and not self.field_path
        text = self.message if plain else f"{self.location}: {self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return text

    def with_file(self, file: Path | None, line: int | None = None) -> ProjectError:
        """The same error, attributed to ``file`` (and ``line`` when not known yet)."""
        return ProjectError(
            self.message,
            file=file,
            line=self.line if self.line is not None else line,
            column=self.column,
            field_path=self.field_path,
            hint=self.hint,
        )
