"""Over SSH no login ends because of a file in the shared folder (issue 28): before, a project
nested 100,000 deep ended every session as it started."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("asyncssh", reason="the 'ssh' extra is not installed")
pytest.importorskip("pyte", reason="the test extra's pyte is not installed")

from tests.security.test_home_hostile import hostile_folder  # noqa: E402
from tests.ssh.conftest import client_key, make_server  # noqa: E402,F401 - the fixtures
from tests.ssh.terminal import RemoteTerminal  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="FIFOs and /dev/zero are POSIX's")


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """The folder every session opens: a good project and the hostile files."""
    return hostile_folder(tmp_path / "games")


async def test_a_login_on_a_hostile_folder_sees_the_list_and_stays(make_server,  # noqa: F811
                                                                    client_key) -> None:  # noqa: F811
    server = await make_server()
    terminal = await RemoteTerminal.open(server.port, client_key, size=(100, 30))
    screen = await terminal.wait_for("Good Game", "deep", "fifo", "zero", "dangling")
    assert screen.count("⚠ broken") == 4
    await terminal.press("down", "down", "enter")  # open a broken one: the error, not an end
    await terminal.wait_for("Cannot open the project")
    await terminal.press("escape", "f5")
    await terminal.settle()
    assert not terminal.closed.is_set() and len(server.sessions) == 1
    await terminal.close()
