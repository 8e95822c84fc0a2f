"""Changing a roster (``studio roster``): add or remove people, their role, team and keys.

Every change is checked as the server reads the file (:func:`~studio.storage.roster.parse_roster`),
plus what only a change can get wrong: a name given twice, a team the project does not have, a
person left with no key, the last teacher removed. A roster is replaced whole (atomically, the
old one kept as ``.bak``) and only if nobody changed it since it was read: a hand edit made
meanwhile is never overwritten.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_TOML_BYTES
from studio.storage.atomic import atomic_write, folder_lock
from studio.storage.errors import ProjectError
from studio.storage.reading import read_bounded
from studio.storage.roster import ROLES, Roster, parse_roster
from studio.storage.tomlio import decode_utf8, dumps, parse_toml

HEADER = ("# The roster of `studio serve --ssh --roster FILE`: who each SSH key is.\n"
          "# Written by `studio roster`; hand edits are kept (comments are not).\n\n")


@dataclass
class RosterFile:
    """A roster as read: its people as TOML tables, and what the file held then."""

    path: Path
    people: list[dict[str, Any]] = field(default_factory=list)
    stamp: str | None = None
    """SHA-256 of the bytes read; None when the file did not exist."""

    def roster(self) -> Roster:
        return parse_roster({"person": self.people}, self.path)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(path: Path) -> bytes | None:
    try:
        return read_bounded(path, MAX_TOML_BYTES, "a roster")
    except ProjectError as exc:
        if not path.exists():
            return None
        raise exc


def open_roster(path: str | Path, *, create: bool = False) -> RosterFile:
    """Read a roster to change it (``create``: a missing file is an empty roster).

    Raises:
        ProjectError: unreadable or invalid (named by file and field), or missing without
            ``create``.
    """
    path = Path(path)
    data = _read(path)
    if data is None:
        if not create:
            raise ProjectError("there is no roster here", file=path,
                               hint="add the first person with: studio roster FILE add NAME "
                                    "--role teacher --key-file ~/.ssh/id_ed25519.pub")
        return RosterFile(path)
    document = parse_toml(decode_utf8(data, path), path)
    parse_roster(document, path)
    return RosterFile(path, [dict(table) for table in document.get("person", [])], _digest(data))


def _index(rf: RosterFile, name: str) -> int:
    for index, table in enumerate(rf.people):
        if table.get("name") == name:
            return index
    known = ", ".join(str(t.get("name")) for t in rf.people[:8]) or "nobody yet"
    raise ProjectError(f"nobody called {name!r} is in the roster", file=rf.path,
                       hint=f"names are exact: {known}")


def _checked(rf: RosterFile, people: list[dict[str, Any]], teams: Iterable[str] | None) -> None:
    """The change is kept only if the whole roster still reads (and its teams exist)."""
    parse_roster({"person": people}, rf.path)
    names = [t["name"].strip() for t in people]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ProjectError(f"two people are called {twice[0]!r}", file=rf.path,
                           hint="give each a name of their own (it is how the roster is edited)")
    if teams is not None:
        known = set(teams)
        for index, table in enumerate(people):
            team = table.get("team", "").strip()
            if team and team not in known:
                raise ProjectError(f"the project has no team {team!r}", file=rf.path,
                                   field_path=("person", index, "team"),
                                   hint="its teams: " + (", ".join(sorted(known)[:8]) or "none yet"))
    rf.people = people


def _teachers(people: list[dict[str, Any]]) -> int:
    return sum(1 for t in people if t.get("role") == "teacher")


def _guard_last_teacher(rf: RosterFile, people: list[dict[str, Any]]) -> None:
    if _teachers(rf.people) and not _teachers(people):
        raise ProjectError("that would leave the roster with no teacher", file=rf.path,
                           hint="make someone else a teacher first")


def add_person(rf: RosterFile, name: str, role: str, keys: list[str], team: str = "",
               teams: Iterable[str] | None = None) -> None:
    table: dict[str, Any] = {"name": name, "role": role}
    if team:
        table["team"] = team
    table["keys"] = [k.strip() for k in keys]
    _checked(rf, [*rf.people, table], teams)


def remove_person(rf: RosterFile, name: str) -> None:
    index = _index(rf, name)
    people = rf.people[:index] + rf.people[index + 1:]
    _guard_last_teacher(rf, people)
    _checked(rf, people, None)


def set_role(rf: RosterFile, name: str, role: str, team: str = "",
             teams: Iterable[str] | None = None) -> None:
    """A new role (and, for a student, the team; other roles have none)."""
    if role not in ROLES:
        raise ProjectError(f"no role {role!r}", file=rf.path, hint="one of " + ", ".join(ROLES))
    index = _index(rf, name)
    table = {k: v for k, v in rf.people[index].items() if k != "team"}
    table["role"] = role
    if role == "student":
        table["team"] = team or rf.people[index].get("team", "")
    people = [*rf.people[:index], table, *rf.people[index + 1:]]
    _guard_last_teacher(rf, people)
    _checked(rf, people, teams)


def add_key(rf: RosterFile, name: str, key: str) -> None:
    index = _index(rf, name)
    table = dict(rf.people[index])
    table["keys"] = [*table.get("keys", []), key.strip()]
    _checked(rf, [*rf.people[:index], table, *rf.people[index + 1:]], None)


def remove_key(rf: RosterFile, name: str, number: int) -> None:
    """Remove the person's key ``number`` (1 is the first, as ``studio roster`` lists them)."""
    index = _index(rf, name)
    keys = list(rf.people[index].get("keys", []))
    if not 1 <= number <= len(keys):
        raise ProjectError(f"{name!r} has no key {number}", file=rf.path,
                           hint=f"their keys are numbered 1 to {len(keys)}")
    if len(keys) == 1:
        raise ProjectError(f"that is the only key of {name!r}", file=rf.path,
                           hint="add their new key first, or remove the person")
    del keys[number - 1]
    table = {**rf.people[index], "keys": keys}
    _checked(rf, [*rf.people[:index], table, *rf.people[index + 1:]], None)


def save_roster(rf: RosterFile) -> None:
    """Write the roster whole, unless the file changed since :func:`open_roster` read it.

    Raises:
        ProjectError: the file changed (or appeared, or went) meanwhile; nothing is written.
    """
    data = (HEADER + dumps({"person": rf.people})).encode("utf-8")
    with folder_lock(rf.path.parent):
        now = _read(rf.path)
        if (None if now is None else _digest(now)) != rf.stamp:
            raise ProjectError("the roster changed on disk since it was read: nothing was written",
                               file=rf.path, hint="run the command again (it reads the new file)")
        atomic_write(rf.path, data, backup=rf.stamp is not None)
    rf.stamp = _digest(data)


__all__ = ["RosterFile", "add_key", "add_person", "open_roster", "remove_key", "remove_person",
           "save_roster", "set_role"]
