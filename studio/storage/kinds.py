"""The three kinds of project and what storage needs to know about each.

Each engine's storage module extends its :class:`KindSpec` (body validation, migrations, summary,
new-project template). Until it does, the body is kept as read and summarised generically.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator
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


TITLES = {"tilecode": "TileCode", "btree": "Behaviour tree", "haunted": "Haunted Tiles"}
"""How the UI names each kind, in the order it offers them: known without loading any kind's
storage (the home screen's first frame lists projects by their header alone)."""


class _Registry(dict[str, KindSpec]):
    """The kinds, whose storage functions install themselves the first time any is read.

    Each kind's module (``studio/storage/KIND/kind.py``) sets its body functions on its spec as
    it is imported, and imports the engine it validates against (some 50 ms of start-up for the
    three). Loading them on the first read rather than with the package keeps them off the home
    screen's first frame, and no reader can see a spec without its validator, whichever module
    it imported first. They are named, not imported, here: each of them imports this module.
    """

    _done = False
    _installing = False
    _lock = threading.RLock()
    """Held while installing: another thread (the home screen reads the folder in one) waits
    for every validator rather than read a spec half installed."""

    def _install(self) -> None:
        if _Registry._done:
            return
        with _Registry._lock:
            if _Registry._done or _Registry._installing:
                return  # done meanwhile, or a kind module reading its own spec as it loads
            _Registry._installing = True
            try:
                for kind in TITLES:
                    importlib.import_module(f"studio.storage.{kind}.kind")
                _Registry._done = True
            finally:
                _Registry._installing = False

    def __getitem__(self, kind: str) -> KindSpec:
        self._install()
        return super().__getitem__(kind)

    def get(self, kind: str, default: Any = None) -> Any:  # type: ignore[override]
        self._install()
        return super().get(kind, default)

    def __contains__(self, kind: object) -> bool:
        self._install()
        return super().__contains__(kind)

    def __iter__(self) -> Iterator[str]:
        self._install()
        return super().__iter__()

    def __len__(self) -> int:
        self._install()
        return super().__len__()

    def keys(self):  # type: ignore[override]
        self._install()
        return super().keys()

    def values(self):  # type: ignore[override]
        self._install()
        return super().values()

    def items(self):  # type: ignore[override]
        self._install()
        return super().items()


KINDS: dict[str, KindSpec] = _Registry((kind, KindSpec(kind, title)) for kind, title in TITLES.items())
"""Every kind the studio knows, in the order the UI offers them."""


def kind_spec(kind: str) -> KindSpec:
    return KINDS[kind]
