"""``studio roster``: read and change the roster of ``studio serve --ssh --roster FILE``.

    studio roster roster.toml                                  # who is who
    studio roster roster.toml add "Ann" --role student --team "Greedy Ghosts" --key-file ann.pub
    studio roster roster.toml set "Ann" --role teacher         # a new role (or --team)
    studio roster roster.toml add-key "Ann" --key "ssh-ed25519 AAAA… ann@home"
    studio roster roster.toml remove-key "Ann" 2
    studio roster roster.toml remove "Ann"

For the teacher in a shell on the server: sessions never reach the roster, whatever their role.
The server reads the file again at every login, so a change counts from the next one.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import sys
from pathlib import Path

from studio.commands import command
from studio.engines.common.inert import inert
from studio.storage import ProjectError
from studio.storage.roster import ROLES
from studio.storage.roster_edit import (
    RosterFile, add_key, add_person, open_roster, remove_key, remove_person, save_roster, set_role,
)

ACTIONS = ("list", "add", "set", "add-key", "remove-key", "remove")
MAX_KEY_FILE = 16 * 1024


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("roster", metavar="FILE", help="the roster (made by the first add)")
    parser.add_argument("action", nargs="?", default="list", choices=ACTIONS,
                        help="list (default), add, set, add-key, remove-key or remove")
    parser.add_argument("name", nargs="?", default=None, help="the person (their exact name)")
    parser.add_argument("number", nargs="?", type=int, default=None,
                        help="remove-key: which key (1 is the first, as listed)")
    parser.add_argument("--role", choices=ROLES, default=None, help="add, set: the role")
    parser.add_argument("--team", default="", help="add, set: a student's team")
    parser.add_argument("--key", action="append", default=[], metavar="LINE",
                        help="add, add-key: a public key line (ssh-ed25519 AAAA… comment)")
    parser.add_argument("--key-file", action="append", default=[], type=Path, metavar="FILE",
                        help="add, add-key: a .pub file holding the key line")
    parser.add_argument("--project", type=Path, default=None, metavar="P.toml",
                        help="check students' teams against this project's team registry")


def _keys(args: argparse.Namespace) -> list[str]:
    keys = list(args.key)
    for path in args.key_file:
        from studio.storage.reading import read_bounded

        text = read_bounded(path, MAX_KEY_FILE, "a public key file").decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()
                 and not line.lstrip().startswith("#")]
        if len(lines) != 1:
            raise ProjectError(f"a public key file holds one key line, this one {len(lines)}",
                               file=path, hint="give the .pub file (never the private key)")
        keys.append(lines[0])
    return keys


def _teams(args: argparse.Namespace) -> list[str] | None:
    if args.project is None:
        return None
    from studio.storage import load_project

    project = load_project(args.project)
    return [str(team.get("name", "")) for team in project.body.get("team", [])]


def _fingerprint(line: str) -> str:
    try:
        blob = base64.b64decode(line.split()[1])
    except (IndexError, ValueError):
        return "?"
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def _list(rf: RosterFile) -> int:
    if not rf.people:
        print("the roster is empty")
        return 0
    for person in rf.people:
        team = f", {person['team']}" if person.get("team") else ""
        print(inert(f"{person['name']} ({person['role']}{team})"))
        for number, line in enumerate(person.get("keys", []), start=1):
            comment = " ".join(line.split()[2:])
            print(inert(f"  {number}. {line.split()[0]} {_fingerprint(line)} {comment}".rstrip()))
    return 0


def _need_name(args: argparse.Namespace) -> str:
    if not args.name:
        raise ProjectError(f"studio roster FILE {args.action} NAME: whose entry?",
                           hint="the person's exact name, in quotes if it has spaces")
    return args.name


@command("roster", _arguments)
def _roster(args: argparse.Namespace) -> int:
    rf = open_roster(args.roster, create=args.action == "add")
    if args.action == "list":
        return _list(rf)
    name = _need_name(args)
    if args.action == "add":
        if args.role is None:
            raise ProjectError("add needs --role", hint="teacher, student (with --team) or spectator")
        add_person(rf, name, args.role, _keys(args), args.team, _teams(args))
    elif args.action == "set":
        if args.role is None and not args.team:
            raise ProjectError("set needs --role or --team")
        current = {p.get("name"): p for p in rf.people}.get(name, {})
        set_role(rf, name, args.role or current.get("role", ""), args.team, _teams(args))
    elif args.action == "add-key":
        keys = _keys(args)
        if not keys:
            raise ProjectError("add-key needs --key LINE or --key-file FILE")
        for key in keys:
            add_key(rf, name, key)
    elif args.action == "remove-key":
        if args.number is None:
            raise ProjectError("remove-key needs the key's number", hint="studio roster FILE lists them")
        remove_key(rf, name, args.number)
    else:
        remove_person(rf, name)
    save_roster(rf)
    print(inert(f"roster {args.action}: {name}; saved {rf.path} (the next login reads it)"),
          file=sys.stderr)
    return 0
