"""Roster editing over SSH (issue 30): a teacher's session changes the roster through the
server, never by opening the file; a student's has no way to; what the server is sent is
checked again there (role, shape, size) and a flood or an oversized line leaves it serving."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from studio.sessions.roster_channel import answer
from studio.ssh import roster_service
from studio.storage.roster import load_roster
from tests.ssh.conftest import asyncssh
from tests.ssh.test_roles import keys, server, shared, teams  # noqa: F401  (fixtures)
from tests.ssh.test_served_paths import type_field, wait_words
from tests.ssh.test_server import wait_until


async def typed(terminal, text: str) -> None:
    """Into the focused field, in place of what it held; no enter."""
    terminal.chan.write(b"\x15" + text.encode())
    await asyncio.sleep(0.3)


def login(key) -> tuple[str, bytes]:
    return key.get_algorithm(), key.public_data


async def test_a_teacher_adds_a_person_from_teams_and_ais(server, keys, tmp_path: Path) -> None:
    roster = tmp_path / "roster.toml"
    newcomer = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    terminal = await teams(server, keys["teacher"])
    await terminal.press("R")
    await wait_words(terminal, "Ms Rivera", "Ann", "Sam")
    await terminal.press("a")
    await terminal.wait_for("Add a person")
    await typed(terminal, "Bea")
    await terminal.press("tab", "tab")  # the role stays "student"; the team
    await typed(terminal, "Nope")
    await terminal.press("tab")
    await type_field(terminal, newcomer)
    await wait_words(terminal, "the project has no team 'Nope'")  # the server's words
    assert "Bea" not in roster.read_text()
    await terminal.press("shift+tab")
    await type_field(terminal, "Team B")
    await wait_until(lambda: "Bea" in roster.read_text())
    person = next(p for p in load_roster(roster).people if p.name == "Bea")
    assert (person.role, person.team) == ("student", "Team B")
    assert str(tmp_path) not in terminal.text()  # the roster's place is never shown
    await terminal.close()


async def test_a_student_has_no_roster_to_reach(server, keys, tmp_path: Path) -> None:
    before = (tmp_path / "roster.toml").read_bytes()
    terminal = await teams(server, keys["student"])
    await terminal.press("R")
    await wait_words(terminal, "The roster is changed by a teacher logged in over SSH")
    assert "Ms Rivera" not in terminal.text()
    await terminal.close()
    assert (tmp_path / "roster.toml").read_bytes() == before


def test_only_a_teachers_session_gets_a_channel(tmp_path: Path, keys) -> None:
    class Connection:
        def __init__(self, role: str, key) -> None:
            self.person = type("P", (), {"role": role})()
            self.login_key = login(key)

    for role in ("student", "spectator"):
        env: dict[str, str] = {}
        with roster_service.for_session(tmp_path / "r.toml", Connection(role, keys[role]), env) as fds:
            assert fds == () and env == {}
    env = {}
    with roster_service.for_session(None, Connection("teacher", keys["teacher"]), env) as fds:
        assert fds == ()  # no roster: nothing to change


def test_the_server_asks_its_own_roster_at_every_request(server, keys, tmp_path: Path) -> None:
    roster = tmp_path / "roster.toml"
    teacher, student = login(keys["teacher"]), login(keys["student"])
    assert answer(roster, teacher, {"op": "list"})["ok"]
    refused = answer(roster, student, {"op": "remove", "name": "Ms Rivera"})
    assert not refused["ok"] and "only teachers change the roster" in refused["error"]
    for bad in (None, [], {"op": "drop"}, {"op": "add", "name": 7},
                {"op": "remove-key", "name": "Ann", "number": True},
                {"op": "add", "name": "X", "role": "student", "key": "k" * 9000}):
        reply = answer(roster, teacher, bad)
        assert not reply["ok"] and str(roster) not in reply["error"], reply
    made = answer(roster, teacher, {"op": "set", "name": "Ms Rivera", "role": "spectator"})
    assert not made["ok"] and "no teacher" in made["error"]
    # Demoted by a hand edit meanwhile: the next request is refused.
    roster.write_text(roster.read_text().replace('role = "teacher"', 'role = "spectator"'))
    assert not answer(roster, teacher, {"op": "list"})["ok"]


async def test_a_flood_and_an_oversized_line_leave_the_server_serving(keys, tmp_path: Path,
                                                                     server) -> None:
    ours, theirs = socket.socketpair()
    task = asyncio.ensure_future(roster_service.serve(ours, tmp_path / "roster.toml",
                                                      login(keys["teacher"])))
    reader, writer = await asyncio.open_connection(sock=theirs)
    for _ in range(30):
        writer.write(b'{"op": "list"}\n')
    await writer.drain()
    for _ in range(30):
        assert b'"ok": true' in await asyncio.wait_for(reader.readline(), 10)
    writer.write(b"x" * (roster_service.MAX_LINE + 10) + b"\n")
    await writer.drain()
    assert b"too long" in await asyncio.wait_for(reader.readline(), 10)
    assert await asyncio.wait_for(reader.readline(), 10) == b""  # that channel is closed
    await asyncio.wait_for(task, 10)
    writer.close()
    terminal = await teams(server, keys["teacher"])  # and the server goes on
    await terminal.close()
