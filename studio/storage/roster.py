"""The roster of ``studio serve --ssh --roster FILE``: who each SSH key is, and in which role.

A TOML file the teacher writes by hand (the server reads it again at every login, and sessions
can never reach it)::

    [[person]]
    name = "Ms Rivera"
    role = "teacher"            # teacher | student | spectator
    keys = ["ssh-ed25519 AAAAC3Nza... rivera@laptop"]

    [[person]]
    name = "Ann"
    role = "student"
    team = "Greedy Ghosts"      # students only: a team name of the project's team registry
    keys = ["ssh-ed25519 AAAAC3Nza..."]

Every mistake is a :class:`~studio.storage.errors.ProjectError` naming the file and the field
(``person[2].role``) and what to write instead; a key listed twice is one, since it could not
say who logged in.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.engines.common.limits import MAX_TOML_BYTES
from studio.storage.errors import ProjectError
from studio.storage.reading import read_bounded
from studio.storage.tomlio import decode_utf8, parse_toml

ROLES = ("teacher", "student", "spectator")
KEY_TYPES = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
             "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com",
             "sk-ecdsa-sha2-nistp256@openssh.com")
MAX_PEOPLE = 10_000
MAX_KEYS = 16
"""Keys one person may have (a laptop, a school computer, ...)."""
MAX_NAME = 64
_EXAMPLE_KEY = 'keys = ["ssh-ed25519 AAAAC3Nza... ann@laptop"] (the line of their id_ed25519.pub)'


@dataclass(frozen=True)
class Person:
    """One entry of the roster."""

    name: str
    role: str
    team: str = ""
    """The student's team (a team name of the registry); empty for other roles."""


@dataclass(frozen=True)
class Roster:
    """People by key: ``(type, base64 blob)`` of each public key to whom it belongs."""

    path: Path
    people: tuple[Person, ...]
    by_key: dict[tuple[str, str], Person]

    def who(self, key_type: str, blob: bytes) -> Person | None:
        """The person a public key (its type and wire-format bytes) belongs to, or None."""
        return self.by_key.get((key_type, base64.b64encode(blob).decode("ascii")))


def _fail(path: Path, message: str, field: tuple[str | int, ...], hint: str = "") -> ProjectError:
    return ProjectError(message, file=path, field_path=field, hint=hint)


def _text(path: Path, table: dict[str, Any], key: str, field: tuple[str | int, ...],
          required: bool = True) -> str:
    value = table.get(key, "")
    if not isinstance(value, str):
        raise _fail(path, f"{key} must be text in quotes", (*field, key))
    value = value.strip()
    if required and not value:
        raise _fail(path, f"{key} is missing or empty", (*field, key))
    if len(value) > MAX_NAME or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise _fail(path, f"{key} must be one line of at most {MAX_NAME} characters",
                    (*field, key))
    return value


def _key(path: Path, text: Any, field: tuple[str | int, ...]) -> tuple[str, str]:
    if not isinstance(text, str):
        raise _fail(path, "a key must be text in quotes", field, _EXAMPLE_KEY)
    parts = text.split()
    if len(parts) < 2 or parts[0] not in KEY_TYPES:
        raise _fail(path, "this is not an SSH public key line", field,
                    f"{_EXAMPLE_KEY}; types: {', '.join(KEY_TYPES[:3])} …")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise _fail(path, "the key's second word is not base64", field, _EXAMPLE_KEY) from None
    if not blob or len(blob) > 4096:
        raise _fail(path, "the key's second word is not a key", field, _EXAMPLE_KEY)
    return parts[0], base64.b64encode(blob).decode("ascii")


def parse_roster(document: dict[str, Any], path: Path) -> Roster:
    """Validate a parsed roster; see the module's docstring for the format."""
    unknown = sorted(set(document) - {"person"})
    if unknown:
        raise _fail(path, f"unknown table {unknown[0]!r}", (unknown[0],),
                    "a roster holds [[person]] tables only")
    people_tables = document.get("person", [])
    if not isinstance(people_tables, list) or not all(isinstance(t, dict) for t in people_tables):
        raise _fail(path, "person must be [[person]] tables", ("person",))
    if len(people_tables) > MAX_PEOPLE:
        raise _fail(path, f"more than {MAX_PEOPLE} people", ("person",))
    people, by_key = [], {}
    for index, table in enumerate(people_tables):
        field: tuple[str | int, ...] = ("person", index)
        extra = sorted(set(table) - {"name", "role", "team", "keys"})
        if extra:
            raise _fail(path, f"unknown field {extra[0]!r}", (*field, extra[0]),
                        "a person has name, role, team (students) and keys")
        name = _text(path, table, "name", field)
        role = _text(path, table, "role", field)
        if role not in ROLES:
            raise _fail(path, f"no role {role!r}", (*field, "role"), "one of " + ", ".join(ROLES))
        team = _text(path, table, "team", field, required=role == "student")
        if team and role != "student":
            raise _fail(path, f"a {role} has no team", (*field, "team"),
                        "only students belong to a team: remove the line")
        keys = table.get("keys")
        if not isinstance(keys, list) or not keys:
            raise _fail(path, "keys is missing: a list of public keys", (*field, "keys"),
                        _EXAMPLE_KEY)
        if len(keys) > MAX_KEYS:
            raise _fail(path, f"more than {MAX_KEYS} keys", (*field, "keys"))
        person = Person(name, role, team)
        for number, text in enumerate(keys):
            key = _key(path, text, (*field, "keys", number))
            if key in by_key:
                raise _fail(path, f"this key is also {by_key[key].name!r}'s",
                            (*field, "keys", number), "one key belongs to one person")
            by_key[key] = person
        people.append(person)
    return Roster(path, tuple(people), by_key)


def load_roster(path: str | Path) -> Roster:
    """Read and validate the roster at ``path``.

    Raises:
        ProjectError: unreadable, not TOML, or a field is wrong; names the file and the field.
    """
    path = Path(path)
    text = decode_utf8(read_bounded(path, MAX_TOML_BYTES, "a roster"), path)
    return parse_roster(parse_toml(text, path), path)
