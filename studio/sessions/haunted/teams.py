"""Edits of a Haunted Tiles project's team registry (haunted.md §4.1, §13.6), as model -> model.

Every edit returns a new :class:`HauntedModel` (the undo history keeps the old one) or raises a
:class:`ProjectError` saying why it is refused. The storage validation decides what is valid, so
the messages are the ones ``studio validate`` gives. Renaming or deleting a team follows it into
the tournaments that enter it, so that the project stays saveable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.engines.haunted.builtin_ais import BUILTINS, PREFIX
from studio.engines.haunted.map_edit import unique_name
from studio.storage.errors import ProjectError
from studio.storage.haunted.kind import teams_of, tournaments_of
from studio.storage.haunted.project import HauntedModel

TEXT_FIELDS = ("name", "team", "school", "school_size", "monster", "alternate")
"""The fields of an entry a person edits in a form (runtime and source come from how it was added)."""


def registry_problem(model: HauntedModel) -> ProjectError | None:
    """What is wrong with the teams or the tournaments that enter them (None when nothing)."""
    try:
        tournaments_of(model.body, teams_of(model.body))
    except ProjectError as exc:
        return exc
    return None


def checked(before: HauntedModel, after: HauntedModel) -> HauntedModel:
    """``after``, unless the edit broke a registry that was valid before.

    A registry that was already broken (a hand-edited file) can still be edited, to fix it.

    Raises:
        ProjectError: the edit's problem, with its field path.
    """
    problem = registry_problem(after)
    if problem is not None and registry_problem(before) is None:
        raise problem
    return after


def _entrants(model: HauntedModel, rename: dict[str, str | None]) -> HauntedModel:
    """Tournaments with entrants renamed (``None`` drops them)."""
    tables = model.tournament_tables
    changed = []
    for table in tables:
        entrants = table.get("entrants")
        if isinstance(entrants, list) and any(name in rename for name in entrants):
            kept = [rename.get(name, name) for name in entrants]
            table = {**table, "entrants": [name for name in kept if name is not None]}
        changed.append(table)
    return model if changed == tables else model.with_table("tournament", changed)


def add(model: HauntedModel, table: dict[str, Any]) -> HauntedModel:
    """Register a team after the others."""
    return checked(model, model.with_team(len(model.team_tables), table))


def replace(model: HauntedModel, index: int, table: dict[str, Any]) -> HauntedModel:
    """Replace entry ``index``; a new name is carried into the tournaments."""
    old = model.team_tables[index].get("name")
    after = model.with_team(index, table)
    if table.get("name") != old and isinstance(old, str):
        after = _entrants(after, {old: table.get("name")})
    return checked(model, after)


def delete(model: HauntedModel, index: int) -> HauntedModel:
    """Remove entry ``index`` (its AI file stays) and withdraw it from the tournaments."""
    name = model.team_tables[index].get("name")
    after = _entrants(model.with_team(index, None), {name: None} if isinstance(name, str) else {})
    return checked(model, after)


def duplicate(model: HauntedModel, index: int) -> HauntedModel:
    """A copy of entry ``index`` right after it, named "Name (2)" (same AI source)."""
    tables = model.team_tables
    table = dict(tables[index])
    table["name"] = unique_name(str(table.get("name", "team")), {t.get("name") for t in tables})
    tables.insert(index + 1, table)
    return checked(model, model.with_table("team", tables))


def move(model: HauntedModel, index: int, step: int) -> HauntedModel:
    """Move entry ``index`` by ``step`` places in registration order (clamped to the list)."""
    tables = model.team_tables
    target = min(max(index + step, 0), len(tables) - 1)
    tables.insert(target, tables.pop(index))
    return model.with_table("team", tables)


def with_fields(table: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """``table`` with the form's text ``values`` applied.

    Empty optional fields are removed; ``school_size`` becomes a number when it is one (otherwise
    the text stays, and validation says what a school size must be).
    """
    out = dict(table)
    for key in TEXT_FIELDS:
        if key not in values:
            continue
        value = values[key].strip()
        if key == "school_size" and value.isdigit():
            out[key] = int(value)
        elif value or key == "name":
            out[key] = value
        else:
            out.pop(key, None)
    return out


def free_team_name(model: HauntedModel, name: str) -> str:
    """``name`` or "name (2)" …, not yet a team of ``model``."""
    return unique_name(name, {t.get("name") for t in model.team_tables})


def file_entry(name: str, folder: Path, text: str) -> dict[str, Any]:
    """The ``[[team]]`` table for an existing AI file typed as ``text`` (relative to ``folder``).

    Raises:
        ProjectError: not a ``.py``/``.js`` file, no such file, or one outside ``folder``.
    """
    path = Path(text.strip()).expanduser()
    if path.suffix not in (".py", ".js"):
        raise ProjectError("an AI file ends with .py (Python) or .js (JavaScript)",
                           field_path=("source",))
    full = path if path.is_absolute() else folder / path
    if not full.is_file():
        raise ProjectError(f"no such file: {full}", field_path=("source",),
                           hint="paths are relative to the project's folder")
    try:
        source = full.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        # A match runs the file, the editor saves over it: both only inside the project folder
        # (storage.haunted.kind.source_path), so one outside could not play.
        raise ProjectError(f"{full} is outside the project's folder", field_path=("source",),
                           hint=f"copy it into {folder} (e.g. ais/) and give that path") from None
    return {"name": name, "runtime": "js" if path.suffix == ".js" else "python",
            "source": source}


def builtin_entry(name: str, builtin: str) -> dict[str, Any]:
    """The ``[[team]]`` table of a built-in AI (``greedy`` or ``builtin:greedy``)."""
    bare = builtin.strip().removeprefix(PREFIX)
    if bare not in BUILTINS:
        raise ProjectError(f"no built-in AI named {bare!r}", field_path=("source",),
                           hint="built-ins: " + ", ".join(BUILTINS))
    return {"name": name, "runtime": "builtin", "source": bare}
