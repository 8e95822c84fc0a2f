"""Over SSH with a roster, one asyncssh client per role (issue 30, item 2): who each person is
shows in the header and the log line; a teacher opens any AI's source, a student only their
team's (every key they can reach tried on the way), a spectator none; saving and tournament
runs are refused with the role's words."""

from __future__ import annotations

import asyncio
import re
import shutil
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from studio.sessions.haunted.tournament import TournamentRun, project_plan
from studio.ssh.server import ServeConfig, StudioSSH
from studio.storage import load_project, save_project
from studio.storage.haunted.project import project_model
from tests.ssh.conftest import ROOT, asyncssh
from tests.ssh.terminal import RemoteTerminal
from tests.ssh.test_served_paths import type_field, wait_words, words
from tests.ssh.test_server import wait_until

SECRET = {"a": "SECRET-TEAM-A-7f3e", "b": "SECRET-TEAM-B-91c2"}


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """A Haunted Tiles project with two teams of AI files, Team A and Team B, listed first."""
    folder = tmp_path / "games"
    (folder / "ais").mkdir(parents=True)
    shutil.copy(ROOT / "games" / "haunted-tiles.toml", folder / "cup.toml")
    for team in "ab":
        (folder / "ais" / f"{team}.py").write_text(
            f"# {SECRET[team]}\ndef main(game_state, side):\n    return ['none'] * 3\n")
    project = load_project(folder / "cup.toml")
    project.body["team"] = [{"name": "Team A", "runtime": "python", "source": "ais/a.py"},
                            {"name": "Team B", "runtime": "python", "source": "ais/b.py"},
                            *project.body["team"]]
    save_project(project, folder / "cup.toml")
    return folder


@pytest.fixture
def keys():
    return {role: asyncssh.generate_private_key("ssh-ed25519")
            for role in ("teacher", "student", "spectator", "stranger")}


@pytest.fixture
async def server(tmp_path: Path, shared: Path, keys):
    def line(key) -> str:
        return key.export_public_key().decode().strip()

    roster = tmp_path / "roster.toml"
    roster.write_text(f'''
[[person]]
name = "Ms Rivera"
role = "teacher"
keys = ["{line(keys['teacher'])}"]

[[person]]
name = "Ann"
role = "student"
team = "Team A"
keys = ["{line(keys['student'])}"]

[[person]]
name = "Sam"
role = "spectator"
keys = ["{line(keys['spectator'])}"]
''')
    log: list[str] = []
    server = StudioSSH(ServeConfig(folder=shared, authorized_keys=tmp_path / "none", port=0,
                                   host_key=asyncssh.generate_private_key("ssh-ed25519"),
                                   roster=roster, log=log.append))
    server.log = log  # type: ignore[attr-defined]
    await server.start()
    yield server
    await server.close()


async def teams(server, key) -> RemoteTerminal:
    terminal = await RemoteTerminal.open(server.port, key, size=(120, 34))
    await terminal.wait_for("Haunted Tiles")
    await terminal.press("enter")
    await terminal.wait_for("Teams & AIs")
    await terminal.press("a")
    await terminal.wait_for("Test-load", "Team B")
    return terminal


def no_secret_of(terminal: RemoteTerminal, team: str) -> None:
    assert SECRET[team] not in terminal.text(), terminal.text()


async def test_the_teacher_opens_any_source_and_is_named_in_header_and_log(server, keys) -> None:
    terminal = await teams(server, keys["teacher"])
    assert "Ms Rivera (teacher)" in terminal.screen.display[0]
    await terminal.press("down", "e")  # Team B's
    await terminal.wait_for(SECRET["b"])
    await terminal.close()
    await wait_until(lambda: len(server.log) == 1)
    assert "name=Ms_Rivera role=teacher key=SHA256:" in server.log[0]


async def test_a_key_not_in_the_roster_is_refused(server, keys) -> None:
    from tests.ssh.terminal import connect

    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, keys["stranger"])
    await wait_until(lambda: len(server.log) == 1)
    assert "refused: no authorized key (1 offered)" in server.log[0]


async def test_a_student_reaches_their_teams_source_only(server, keys, shared: Path) -> None:
    terminal = await teams(server, keys["student"])
    assert "Ann (student, Team A)" in terminal.screen.display[0]
    await terminal.press("down", "e")  # Team B's: refused, with the words
    await wait_words(terminal, "Team B is not your team (Team A): its source is not shown to you")
    await terminal.press("t")
    await wait_words(terminal, "Team B is not your team")
    # Every key of the screens a student reaches, with Team B selected: the source never shows.
    for key in ("enter", "escape", "e", "t", "c", "d", "escape", "k", "j", "i", "escape",
                "a", "f", "escape", "escape", "f5", "ctrl+s", "escape", "?", "escape"):
        await terminal.press(key, pause=0.25)
        no_secret_of(terminal, "b")
        # The table's headings on the left, not the title: a note (top right) may cover the
        # title, and a dialog the footer, for a while.
        if not re.search(r"#\s+Name\s", terminal.text()):
            await terminal.press("escape", pause=0.4)
    await terminal.press("escape", "escape", pause=0.4)
    await terminal.wait_for("Haunted Tiles")
    # The file itself stays out of reach, whatever path leads to it: as a team list ...
    await terminal.press("a")
    await terminal.wait_for("Test-load")
    await terminal.press("i")
    await terminal.wait_for("Import the original team list")
    await type_field(terminal, "ais/b.py")
    await wait_words(terminal, "this AI file is not your team's (Team A)")
    no_secret_of(terminal, "b")
    await terminal.press("escape")
    # ... while their own team's opens, and is saved.
    await terminal.press("up", "up", "e", pause=0.3)
    await terminal.wait_for(SECRET["a"])
    await terminal.press("end")
    terminal.chan.write(b"x = 1")
    await terminal.press("ctrl+s", pause=0.5)
    await wait_until(lambda: "x = 1" in (shared / "ais" / "a.py").read_text())
    await terminal.close()
    await wait_until(lambda: len(server.log) == 1)
    assert "name=Ann role=student team=Team_A key=" in server.log[0]


async def test_a_student_saves_no_project_and_runs_no_tournament(server, keys,
                                                                 shared: Path) -> None:
    before = (shared / "cup.toml").read_bytes()
    terminal = await teams(server, keys["student"])
    await terminal.press("j")  # move Team A down: an edit
    await terminal.press("ctrl+s", pause=0.5)
    await wait_words(terminal, "students cannot change projects (maps, settings and the team "
                               "registry are read-only)")
    assert (shared / "cup.toml").read_bytes() == before
    await terminal.press("escape", pause=0.4)
    await wait_until(lambda: "Cannot save" not in terminal.text())
    await terminal.press("ctrl+z", pause=0.6)  # the edit undone: leaving asks nothing
    await terminal.press("escape", pause=0.4)
    await terminal.wait_for("Tournament")
    await terminal.press("t")
    await terminal.wait_for("Run")
    await terminal.press("f5", pause=0.5)
    await wait_words(terminal, "students cannot run tournaments: the teacher runs them")
    await terminal.close()


async def test_a_spectator_lands_on_the_spectator_screen_and_follows_the_next_run(
        server, keys, shared: Path) -> None:
    """Never the home screen, nor any source: the spectator screen, waiting, then the cup."""
    terminal = await RemoteTerminal.open(server.port, keys["spectator"], size=(120, 34))
    await wait_words(terminal, "nothing is being played yet — this screen",
                     "follows the next tournament as")  # folded to the panel's width
    # One view drawn for all spectators (studio.ssh.broadcast): it names no one; the log does.
    assert "all spectators (one shared view)" in terminal.screen.display[0]
    assert "watch" in terminal.screen.display[0]
    # Every key a person might try: still the spectator screen, no project list, no source.
    for key in ("escape", "enter", "a", "e", "w", "ctrl+s", "?", "escape", "escape"):
        await terminal.press(key, pause=0.25)
        no_secret_of(terminal, "a")
        no_secret_of(terminal, "b")
        assert "cup.toml" not in terminal.text() or "watch" in terminal.screen.display[0]
    assert "Haunted Tiles project" not in terminal.text()
    await wait_words(terminal, "nothing is being played yet")
    # The teacher starts the cup (here: a run beside the server); the screen switches by itself.
    model = project_model(load_project(shared / "cup.toml"))
    table = {**model.tournaments()[0], "entrants": ["Greedy Ghosts", "Idle Imps"]}
    plan = replace(project_plan(table, model.teams(), model.maps(), model.config(), shared,
                                in_process=True), pace=0.02)
    run = threading.Thread(target=TournamentRun(plan).run, daemon=True)
    run.start()
    await wait_words(terminal, "Greedy Ghosts", "Idle Imps", timeout=30)
    await wait_words(terminal, "the tournament is over: Greedy Ghosts wins", timeout=60)
    run.join(5)
    await terminal.close()
