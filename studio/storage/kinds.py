"""The three kinds of project and what storage needs to know about each.

Each engine's storage module extends its :class:`KindSpec` (body validation, migrations, summary,
new-project template). Until it does, the body is kept as read and summarised generically.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Body = dict[str, Any]
Migration = Callable[[Body], Body]


def generic_summary(body: Body) -> dict[str, Any]:
    """Counts of what a body holds: entries per array of tables, keys per table."""
    summary: dict[str, Any] = {}
    for key, value in body.items():
        if isinstance(value, list):
            summary[key] = len(value)
        elif isinstance(value, dict):
            summary[key] = f"{len(value)} key{'' if len(value) == 1 else 's'}"
    return summary


@dataclass
class KindSpec:
    """Storage facts of one kind of project."""

    kind: str
    """The ``[project].kind`` value."""
    title: str
    """How the UI names the kind."""
    current_format: int = 1
    """The newest schema version this studio writes."""
    migrations: dict[int, Migration] = field(default_factory=dict)
    """``migrations[n]`` turns a format-``n`` body into a format ``n + 1`` body."""
    validate: Callable[[Body], None] | None = None
    """Raises :class:`ProjectError` (with a field path) for a body that is not valid."""
    check: Callable[[Body], list[str]] | None = None
    """Deeper checks for ``studio validate`` (e.g. compiling a game): raises
    :class:`ProjectError` for errors, returns warnings. Too slow to run on every load."""
    summarize: Callable[[Body], dict[str, Any]] = generic_summary
    """What ``studio inspect`` and the summary screen show about a body."""
    new_body: Callable[[str], Body] = lambda name: {}
    """The body of a new project named ``name``."""
    templates: dict[str, str] = field(default_factory=dict)
    """Starter projects offered beside ``empty`` (``studio new --template``, the new-project
    dialog): name → what it holds, in a line."""
    template_body: Callable[[str], Body] | None = None
    """The body of one of :attr:`templates`."""


KINDS: dict[str, KindSpec] = {
    # each kind gets its body functions from studio/storage/{tilecode,btree,haunted}.py
    "tilecode": KindSpec("tilecode", "TileCode"),
    "btree": KindSpec("btree", "Behaviour tree"),
    "haunted": KindSpec("haunted", "Haunted Tiles"),
}
"""Every kind the studio knows, in the order the UI offers them."""


def kind_spec(kind: str) -> KindSpec:
    return KINDS[kind]
