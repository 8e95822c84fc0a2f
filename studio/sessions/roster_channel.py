"""The roster, changed by a teacher logged in over SSH, without the session ever reaching it.

The roster file is the server's: no session may open it, whatever its role (``storage.served``
hides it, Landlock keeps it out of reach). A teacher's session is given instead one end of a
socket pair (its descriptor number in ``STUDIO_ROSTER_FD``); the server holds the other end and
does the work (:func:`answer`): it asks its own roster again, at every request, whether the key
that logged in is still a teacher's, checks the change as ``studio roster`` does, and writes the
file. Students and spectators get no socket at all.

One request and one answer per line, JSON, each at most :data:`MAX_LINE` bytes. An answer is
``{"ok": true, "people": [...]}`` (every person with their keys' fingerprints, never a path) or
``{"ok": false, "error": "..."}``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.storage.errors import ProjectError, format_field_path
from studio.storage.roster import ROLES, load_roster
from studio.storage.roster_edit import (
    RosterFile, add_key, add_person, open_roster, remove_key, remove_person, save_roster, set_role,
)

ENV = "STUDIO_ROSTER_FD"
MAX_LINE = 16 * 1024
"""A request or an answer; a longer request closes the channel."""
TIMEOUT = 5.0
OPS = ("list", "add", "set", "add-key", "remove-key", "remove")


class RosterUnavailable(Exception):
    """This session has no roster channel (not a teacher, not served with a roster), or the
    server went away."""


# -- the server's side ----------------------------------------------------------------------------

def _said(exc: ProjectError) -> str:
    """The error without the file: a session is never told where the roster is."""
    where = format_field_path(exc.field_path) + ": " if exc.field_path else ""
    return f"{where}{exc.message}" + (f" ({exc.hint})" if exc.hint else "")


def _text(request: dict[str, Any], key: str, limit: int = 256) -> str:
    value = request.get(key, "")
    if not isinstance(value, str) or len(value) > limit:
        raise ProjectError(f"{key} must be text of at most {limit} characters")
    return value


def people_view(rf: RosterFile) -> list[dict[str, Any]]:
    """Everyone, with each key as its type, fingerprint and comment (the line itself stays)."""
    out = []
    for table in rf.people:
        keys = []
        for line in table.get("keys", []):
            words = str(line).split()
            blob = base64.b64decode(words[1]) if len(words) > 1 else b""
            digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
            keys.append({"type": words[0] if words else "", "fingerprint": f"SHA256:{digest}",
                         "comment": " ".join(words[2:])[:80]})
        out.append({"name": table.get("name", ""), "role": table.get("role", ""),
                    "team": table.get("team", ""), "keys": keys})
    return out


def answer(path: Path, login_key: tuple[str, bytes], request: Any) -> dict[str, Any]:
    """Carry out one request for the teacher who logged in with ``login_key``."""
    try:
        person = load_roster(path).who(*login_key)
        if person is None or person.role != "teacher":
            return {"ok": False, "error": "only teachers change the roster, and the roster no "
                                          "longer says you are one (log in again)"}
        if not isinstance(request, dict) or request.get("op") not in OPS:
            return {"ok": False, "error": "not a roster request (op: " + ", ".join(OPS) + ")"}
        op = request["op"]
        rf = open_roster(path)
        if op != "list":
            _change(rf, op, request)
            save_roster(rf)
        return {"ok": True, "people": people_view(rf)}
    except ProjectError as exc:
        return {"ok": False, "error": _said(exc)}


def _change(rf: RosterFile, op: str, request: dict[str, Any]) -> None:
    name = _text(request, "name", 64)
    teams = request.get("teams")
    if teams is not None and (not isinstance(teams, list) or len(teams) > 1000
                              or not all(isinstance(t, str) for t in teams)):
        raise ProjectError("teams must be a list of team names")
    if op == "add":
        role = _text(request, "role")
        if role not in ROLES:
            raise ProjectError(f"no role {role!r}", hint="one of " + ", ".join(ROLES))
        add_person(rf, name, role, [_text(request, "key", 8192)], _text(request, "team", 64), teams)
    elif op == "set":
        set_role(rf, name, _text(request, "role"), _text(request, "team", 64), teams)
    elif op == "add-key":
        add_key(rf, name, _text(request, "key", 8192))
    elif op == "remove-key":
        number = request.get("number")
        if not isinstance(number, int) or isinstance(number, bool):
            raise ProjectError("number must be a key's number (1 is the first)")
        remove_key(rf, name, number)
    else:
        remove_person(rf, name)


# -- the session's side ---------------------------------------------------------------------------

_channel: socket.socket | None = None


def available() -> bool:
    """Whether this session was given a roster channel (a teacher's, served with a roster)."""
    return _connect() is not None


def _connect() -> socket.socket | None:
    global _channel
    if _channel is None:
        text = os.environ.get(ENV, "")
        if not text.isdigit():
            return None
        try:
            fd = int(text)
            os.set_inheritable(fd, False)  # AI workers and other children never get it
            _channel = socket.socket(fileno=fd)
            _channel.settimeout(TIMEOUT)
        except OSError:
            return None
    return _channel


def request(op: str, **fields: Any) -> list[dict[str, Any]]:
    """Ask the server; returns everyone after the change.

    Raises:
        RosterUnavailable: no channel, or the server did not answer in time.
        ProjectError: the server refused the change (its words).
    """
    channel = _connect()
    if channel is None:
        raise RosterUnavailable("this session cannot change the roster")
    line = (json.dumps({"op": op, **fields}) + "\n").encode()
    try:
        channel.sendall(line)
        reply = _read_line(channel.recv)
    except OSError as exc:
        raise RosterUnavailable(f"the server did not answer ({exc})") from None
    try:
        answer_ = json.loads(reply)
    except ValueError:
        raise RosterUnavailable("the server's answer was not understood") from None
    if not isinstance(answer_, dict):
        raise RosterUnavailable("the server's answer was not understood")
    if not answer_.get("ok"):
        raise ProjectError(str(answer_.get("error", "refused")))
    people = answer_.get("people")
    return people if isinstance(people, list) else []


def _read_line(recv: Callable[[int], bytes]) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = recv(4096)
        if not chunk:
            raise OSError("the channel closed")
        data += chunk
        if len(data) > MAX_LINE * 8:
            raise OSError("the answer is too long")
    return data


__all__ = ["ENV", "MAX_LINE", "RosterUnavailable", "answer", "available", "people_view", "request"]
