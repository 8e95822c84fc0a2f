"""Over SSH, no path a session types leads outside the served folder (issue 30, item 1): the AI
editor's export, the team list's import, an AI file added by its path, save as; each refusal
is shown with its reason, and nothing appears outside."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.ssh.conftest import ROOT
from tests.ssh.terminal import RemoteTerminal
from tests.ssh.test_server import wait_until

CTRL_U = "\x15"  # clears an input (delete to the start)
CTRL_E = "\x05"  # the AI editor's export


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(ROOT / "games" / "haunted-tiles.toml", folder)
    (tmp_path / "outside").mkdir()
    (folder / "door").symlink_to(tmp_path / "outside")
    return folder


def words(terminal: RemoteTerminal) -> str:
    """The open dialog's text (between its side borders), the notes' (right of their bar), then
    the whole screen's, each as one line of words: a message wrapped across lines reads as it
    was written."""
    lines = terminal.screen.display
    dialog = [line[line.index("█") + 1:line.rindex("█")] for line in lines if line.count("█") >= 2]
    notes = [line[line.rindex("▌") + 1:] for line in lines if "▌" in line]
    return " | ".join(" ".join(" ".join(part).split()) for part in (dialog, notes, lines))


async def wait_words(terminal: RemoteTerminal, *texts: str, timeout: float = 20) -> None:
    import asyncio
    import time

    deadline = time.monotonic() + timeout
    while not all(text in words(terminal) for text in texts):
        assert time.monotonic() < deadline, f"never saw {texts!r}:\n{terminal.text()}"
        await asyncio.sleep(0.05)


async def type_field(terminal: RemoteTerminal, text: str) -> None:
    await terminal.press(CTRL_U)
    terminal.chan.write(text.encode())
    await terminal.press("enter", pause=0.4)


async def open_teams(terminal: RemoteTerminal) -> None:
    await terminal.wait_for("Haunted Tiles")
    await terminal.press("enter")
    await terminal.wait_for("Teams & AIs")
    await terminal.press("a")
    await terminal.wait_for("Test-load")


def nothing_outside(shared: Path) -> None:
    outside = shared.parent / "outside"
    assert os.listdir(outside) == []
    assert sorted(p.name for p in shared.parent.iterdir()) == ["authorized_keys", "games",
                                                               "outside"]


async def test_the_ai_editors_export_to_dot_dot_an_absolute_path_or_a_link_out_is_refused(
        make_server, client_key, shared: Path) -> None:
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key, size=(100, 30))
    await open_teams(terminal)
    await terminal.press("e")  # the first team's AI (a built-in: read-only, but exportable)
    await terminal.wait_for("Export")
    await terminal.press(CTRL_E)
    await terminal.wait_for("Export the AI")
    for path, how in (("../x.py", "by its path"), ("/tmp/studio-export-x.py", "by its path"),
                      ("door/x.py", "through a link")):
        await type_field(terminal, path)
        await wait_words(terminal, f"{path} is outside the served folder ({how})")
        await wait_words(terminal, "a served session reads and writes only in games/")
    assert not Path("/tmp/studio-export-x.py").exists()
    await type_field(terminal, "ais/kept.py")  # and inside, it is written
    await wait_words(terminal, "Exported a copy to ais/kept.py")
    assert (shared / "ais" / "kept.py").is_file()
    nothing_outside(shared)
    await terminal.close()


async def test_the_team_list_import_of_etc_passwd_and_an_ai_file_outside_are_refused(
        make_server, client_key, shared: Path) -> None:
    (shared.parent / "outside" / "evil.py").write_text("def main(s, side):\n    return []\n")
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key, size=(100, 30))
    await open_teams(terminal)
    await terminal.press("i")
    await terminal.wait_for("Import the original team list")
    await type_field(terminal, "/etc/passwd")
    await wait_words(terminal, "cannot read the team list: /etc/passwd is outside the served "
                               "folder (by its path)")
    await type_field(terminal, "door/evil.py")
    await wait_words(terminal, "door/evil.py is outside the served folder (through a link)")
    await terminal.press("escape")
    await terminal.press("a")  # add a team from an AI file typed by its path
    await terminal.wait_for("where does its AI come from")
    await terminal.press("f")
    await terminal.wait_for("Add an AI file")
    await terminal.press("tab")  # to the file field
    for path in (str(shared.parent / "outside" / "evil.py"), "../outside/evil.py",
                 "door/evil.py"):
        await type_field(terminal, path)
        await wait_words(terminal, "is outside the project's folder")
    os.unlink(shared.parent / "outside" / "evil.py")
    nothing_outside(shared)
    await terminal.close()


async def test_save_as_a_path_out_stays_a_name_inside(make_server, client_key,
                                                      shared: Path) -> None:
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key, size=(100, 30))
    await terminal.wait_for("Haunted Tiles")
    await terminal.press("enter")
    await terminal.wait_for("Teams & AIs")
    await terminal.press("a")
    await terminal.wait_for("Test-load")
    terminal.chan.write(b"\x10")  # ctrl+p: the command palette
    await terminal.wait_for("Search")
    terminal.chan.write(b"save project as")
    await terminal.press("enter", pause=0.5)
    await terminal.wait_for("Save as a new project")
    await type_field(terminal, "../../outside/stolen")
    await wait_until(lambda: len(list(shared.glob("*.toml"))) == 2, 30)  # saved, as a name
    names = sorted(p.name for p in shared.glob("*.toml"))
    assert len(names) == 2 and "haunted-tiles.toml" in names, names
    nothing_outside(shared)
    await terminal.close()


async def test_the_servers_own_files_inside_the_folder_are_out_of_reach(shared: Path,
                                                                       client_key) -> None:
    """A teacher who keeps the keys file in the served folder: a session cannot read it (here
    as a team list) nor see it listed."""
    from tests.ssh.conftest import asyncssh
    from studio.ssh.server import ServeConfig, StudioSSH

    keys = shared / "authorized_keys.csv"
    keys.write_bytes(client_key.export_public_key())
    (shared / "roster.toml").symlink_to(keys)  # a .toml, so the home list would show it
    server = StudioSSH(ServeConfig(folder=shared, authorized_keys=keys, port=0,
                                   host_key=asyncssh.generate_private_key("ssh-ed25519"),
                                   log=lambda line: None))
    await server.start()
    try:
        terminal = await RemoteTerminal.open(server.port, client_key, size=(100, 30))
        screen = await terminal.wait_for("Haunted Tiles")
        assert "roster" not in screen and "authorized" not in screen
        await open_teams(terminal)
        await terminal.press("i")
        await terminal.wait_for("Import the original team list")
        await type_field(terminal, "authorized_keys.csv")
        await wait_words(terminal, "authorized_keys.csv is the server's own file, never open "
                                   "to a session")
        await terminal.close()
    finally:
        await server.close()
